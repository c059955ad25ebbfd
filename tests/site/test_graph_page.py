"""The lemma-graph site in headless Chromium (Playwright): focus views, search, URL, paper view.

Chromium must be installed (``/usr/bin/chromium``): these tests fail, never skip,
without it. Pages are opened from ``file://``; any request to another scheme fails
the test (the site must work offline).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from urllib.parse import quote

import networkx as nx
import pytest
from helpers import make_mini_library
from playwright.sync_api import Page, sync_playwright

from pybridge.coq import CoqBackend
from pybridge.site.docs import SRC_DIR, write_site
from pybridge.site.graph import extract, unused
from pybridge.site.html import STATUS_FILL
from pybridge.site.paper import load_paper, paper_results
from pybridge.site.status import node_statuses, shown_kind

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

#: Issue targets (headless Chromium on this machine).
READY_SECONDS = 2.0
FOCUS_SECONDS = 1.0


@pytest.fixture(scope="module")
def browser():
    assert Path(CHROMIUM).is_file(), "Chromium is required: apt-get install -y chromium"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def mini_site(tmp_path_factory) -> tuple[Path, nx.DiGraph, CoqBackend]:
    root = tmp_path_factory.mktemp("minisite")
    backend = make_mini_library(root)
    g = extract(backend, build=False)
    write_site(g, root / "site", backend, title="Lemma graph")
    return root / "site" / "graph.html", g, backend


@pytest.fixture(scope="module")
def library_site(tmp_path_factory, backend, library_graph) -> tuple[Path, nx.DiGraph]:
    g = library_graph.copy()
    out = tmp_path_factory.mktemp("site")
    write_site(g, out, backend)
    return out / "graph.html", g


def open_page(browser, path: Path, fragment: str = "") -> tuple[Page, list[str]]:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: errors.append("network: " + r.url)
            if not r.url.startswith(("file:", "data:", "about:")) else None)
    page.goto(path.as_uri() + fragment)
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    return page, errors


def drawn(page: Page) -> set[str]:
    return set(page.eval_on_selector_all("#viewport g.node", "gs => gs.map(g => g.dataset.name)"))


def texts(page: Page, selector: str) -> list[str]:
    return [t.strip() for t in page.locator(selector).all_inner_texts()]


def go(page: Page, fragment: str) -> float:
    """Set the URL fragment and wait for the drawing to change; seconds it took (in the page)."""
    ms = page.evaluate("""async (h) => {
        const s = document.getElementById('stage'), r0 = s.getAttribute('data-render');
        const t0 = performance.now();
        location.hash = h;
        while (s.getAttribute('data-render') === r0) await new Promise(r => setTimeout(r, 2));
        return performance.now() - t0;
    }""", fragment)
    return ms / 1000


def B(name: str) -> str:
    return "Absorb.Base." + name


def T(name: str) -> str:
    return "Absorb.Top." + name


# --------------------------------------------------------------------------- the mini library


def test_overview_results_then_files_then_file_focus(browser, mini_site) -> None:
    path, g, backend = mini_site
    page, errors = open_page(browser, path)
    assert page.title() == "Lemma graph"
    assert "9 declarations" in page.inner_text("#counts")
    # the overview draws the paper's results (the mini toml lists R1-R3; the rest are missing)
    assert drawn(page) == {p.id for p in load_paper()}
    # one arrow: R2's theorem top_cor uses R1's top_thm
    ids = [p.id for p in load_paper()]
    assert page.eval_on_selector_all("path.edge", "ps => ps.map(p => [+p.dataset.u, +p.dataset.v])") == [
        [ids.index("R2"), ids.index("R1")]]
    statuses = {r.id: r.status for r in paper_results(g, backend.coq_dir)}
    assert dict(page.eval_on_selector_all(
        "#viewport g.node", "gs => gs.map(g => [g.dataset.name, g.dataset.status])")) == statuses
    # a result with theorems opens its proof
    page.click("g.node[data-name='R2']")
    page.wait_for_function("document.getElementById('stage').dataset.render === '2'")
    assert "result=R2" in page.url and T("top_cor") in drawn(page)
    # the files, on demand
    page.click("#btn-files")
    page.wait_for_function("document.getElementById('stage').dataset.render === '3'")
    assert drawn(page) == {"coq/theories/Base.v", "coq/theories/Top.v"}
    assert page.locator("path.edge").count() == 1          # Top.v uses Base.v
    assert "over=files" in page.url
    page.click("g.node[data-name='coq/theories/Top.v']")
    page.wait_for_function("document.getElementById('stage').dataset.render === '4'")
    assert drawn(page) == {T("top_thm"), T("unused_def"), T("top_cor")}
    assert "file=coq%2Ftheories%2FTop.v" in page.url
    assert errors == []
    page.close()


def test_focus_view_shows_only_the_subgraph(browser, mini_site) -> None:
    path, g, _ = mini_site
    page, errors = open_page(browser, path, "#node=" + quote(T("top_thm")))
    assert drawn(page) == {T("top_thm"), B("double"), B("double_plus"), B("uses_ax")}
    go(page, "#node=" + quote(T("top_thm")) + "&depth=all")
    assert drawn(page) == {T("top_thm")} | set(nx.descendants(g, T("top_thm")))
    go(page, "#node=" + quote(T("top_thm")) + "&dir=usedby")
    assert drawn(page) == {T("top_thm"), T("top_cor")}
    go(page, "#node=" + quote(B("double")) + "&dir=both&depth=all")
    assert drawn(page) == {B("double")} | nx.ancestors(g, B("double")) | nx.descendants(g, B("double"))
    # only the transitive reduction of the shown part is drawn: top_cor -> double is implied
    go(page, "#result=R2&depth=all")
    assert drawn(page) == {T("top_cor")} | set(nx.descendants(g, T("top_cor")))
    pairs = set(page.eval_on_selector_all(
        "path.edge", "ps => ps.map(p => p.dataset.u + '>' + p.dataset.v)"))
    assert len(pairs) == nx.transitive_reduction(g.subgraph(drawn(page))).number_of_edges()
    assert "root" in page.get_attribute("g.node[data-name='Absorb.Top.top_cor']", "class")
    assert errors == []
    page.close()


def test_search_filters_the_graph(browser, mini_site) -> None:
    path, _, _ = mini_site
    page, errors = open_page(browser, path)
    page.fill("#search", "double")
    page.wait_for_function("document.getElementById('stage').dataset.render === '2'")
    assert drawn(page) == {B("double"), B("double_plus")}
    assert texts(page, "#search-results li") == ["Base.double", "Base.double_plus"]
    assert "q=double" in page.url
    # inside a focus, search narrows the focus (the focus itself stays)
    go(page, "#node=" + quote(T("top_thm")) + "&q=uses")
    assert drawn(page) == {T("top_thm"), B("uses_ax")}
    page.fill("#search", "zzz_nothing")
    page.wait_for_function("document.querySelector('#search-results li') && "
                           "document.querySelector('#search-results li').textContent === 'no match'")
    assert errors == []
    page.close()


def test_details_source_and_links(browser, mini_site) -> None:
    path, g, _ = mini_site
    page, errors = open_page(browser, path, "#node=" + quote(T("top_thm")) + "&sel=" + quote(T("top_thm")))
    assert page.inner_text("#detail-name") == T("top_thm")
    assert page.inner_text("#detail-statement") == "forall n : nat, (Base.double n + 0)%nat = (n + n)%nat"
    assert page.inner_text("#detail-source") == "Theorem top_thm n : double n + 0 = n + n."
    assert texts(page, "#detail-axioms li") == ["Base.base_ax"]
    assert texts(page, "#detail-uses li") == ["Base.double", "Base.double_plus", "Base.uses_ax"]
    assert texts(page, "#detail-breaks li") == ["R1 top_thm", "R2 top_cor"]
    assert "sel" in page.get_attribute(f"g.node[data-name='{T('top_thm')}']", "class")
    assert "use" in page.get_attribute(f"g.node[data-name='{B('uses_ax')}']", "class")
    href = page.get_attribute("#detail-source-link", "href")
    assert href == f"{SRC_DIR}/Absorb.Top.html#top_thm"
    # the link lands on coqdoc's anchor of the declaration
    page.click("#detail-source-link", modifiers=[])
    page.wait_for_timeout(200)
    target = page.context.pages[-1]
    target.wait_for_load_state()
    assert target.evaluate("document.getElementById('top_thm') !== null")
    if target is not page:
        target.close()
    assert errors == []
    page.close()


def test_every_node_links_to_an_existing_anchor(mini_site) -> None:
    path, g, _ = mini_site
    data = json.loads(re.search(r'<script id="graph-data" type="application/json">(.*?)</script>',
                                path.read_text(), re.S).group(1))
    assert {n["name"] for n in data["nodes"]} == set(g)
    for node in data["nodes"]:
        page, _, anchor = node["href"].partition("#")
        html = (path.parent / page).read_text()
        assert anchor and f'id="{anchor}"' in html, node["name"]


def test_url_restores_the_view(browser, mini_site) -> None:
    path, _, _ = mini_site
    page, errors = open_page(browser, path)
    page.select_option("#filter-result", "R2")
    page.select_option("#depth", "all")
    page.click(f"g.node[data-name='{B('uses_ax')}']")
    url, shown = page.url, drawn(page)
    assert "result=R2" in url and "depth=all" in url and "sel=" in url
    page.close()
    again = browser.new_page(viewport={"width": 1400, "height": 900})
    again.goto(url)
    again.wait_for_selector("body[data-ready='1']")
    assert drawn(again) == shown
    assert again.inner_text("#detail-name") == B("uses_ax")
    assert again.input_value("#filter-result") == "R2"
    assert again.input_value("#depth") == "all"
    again.close()
    assert errors == []


def test_paper_view_lists_every_result_with_its_status(browser, mini_site) -> None:
    path, g, backend = mini_site
    page, errors = open_page(browser, path, "#view=paper")
    cards = page.eval_on_selector_all(".card", "cs => cs.map(c => [c.dataset.result, c.dataset.status])")
    expected = paper_results(g, backend.coq_dir)
    assert cards == [[r.id, r.status] for r in expected]
    ids = [c[0] for c in cards]
    # the paper's R1-R10 (with R8') in order, then nothing else: the mini toml lists R1-R3
    assert ids == [p.id for p in load_paper()]
    status = dict((c[0], c[1]) for c in cards)
    assert status["R1"] == "partial"          # no instance listed
    assert status["R3"] == "missing"          # no theorem
    assert status["R9"] == "missing"          # not in results.toml
    # the statement is rendered by KaTeX, offline
    assert page.locator("#result-R5 .katex").count() >= 1
    assert page.locator("#result-R1 .coq-statement .coqname").all_inner_texts() == ["Top.top_thm"]
    page.click("#result-R1 a.to-graph")
    page.wait_for_selector("#app:not(.paper)")
    assert page.inner_text("#detail-name") == T("top_thm")
    assert errors == []
    page.close()


# --------------------------------------------------------------------------- the project's library


def test_project_site_targets(browser, library_site, statuses) -> None:
    path, g = library_site
    timings = []
    for _ in range(3):
        start = time.monotonic()
        page, errors = open_page(browser, path)
        timings.append(time.monotonic() - start)
        assert errors == []
        page.close()
    assert sorted(timings)[1] < READY_SECONDS, timings
    page, errors = open_page(browser, path)
    # a focus view of every result is laid out in under a second
    for result in g.graph["results"]:
        seconds = go(page, f"#result={result}")
        assert seconds < FOCUS_SECONDS, (result, seconds)
        assert len(drawn(page)) > 0
    # the paper view: every result of results.toml, with the status `prove` gives it
    go(page, "#view=graph")
    page.evaluate("location.hash = '#view=paper'")
    page.wait_for_selector("#app.paper .card")
    cards = dict(page.eval_on_selector_all(
        ".card", "cs => cs.map(c => [c.dataset.result, c.dataset.status])"))
    for s in statuses:
        assert cards[s.entry.id] == s.status, s.entry.id
    assert list(cards)[:10] == [p.id for p in load_paper()][:10]
    page.click("#btn-unused")
    assert len(texts(page, "#unused-list li")) == len(unused(g))
    assert errors == []
    page.close()


def test_project_nodes_link_to_anchors(library_site) -> None:
    path, g = library_site
    data = json.loads(re.search(r'<script id="graph-data" type="application/json">(.*?)</script>',
                                path.read_text(), re.S).group(1))
    pages: dict[str, str] = {}
    missing = []
    for node in data["nodes"]:
        assert node["href"], node["name"]
        page, _, anchor = node["href"].partition("#")
        html = pages.setdefault(page, (path.parent / page).read_text())
        if not anchor or f'id="{anchor}"' not in html:
            missing.append(node["name"])
    # coqdoc makes no anchor for a record's constructor; those link to the type
    assert len(missing) == 0, missing


# --------------------------------------------------------------------------- geometry at 1024 and 1600 px

#: (width, height) of the windows checked; screenshots of each view are written to the test's tmp dir.
WINDOWS = [(1024, 768), (1600, 900)]


def _rgb(hex_colour: str) -> str:
    h = hex_colour.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(h[k:k + 2], 16) for k in (0, 2, 4)))


def geometry(page: Page) -> dict:
    """Boxes of the stage parts and of every drawn label, in CSS pixels."""
    return page.evaluate("""() => {
        const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
        return {
            window: [innerWidth, innerHeight],
            svg: box(document.getElementById('graph-svg')),
            detail: box(document.getElementById('detail')),
            crumb: box(document.getElementById('crumb')),
            zoombar: box(document.getElementById('zoombar')),
            status: box(document.getElementById('status')),
            labels: [...document.querySelectorAll('#viewport g.node text.label')].map(t => [t.textContent, box(t)]),
            fills: [...document.querySelectorAll('#viewport g.node')].map(g => [
                g.dataset.name, g.dataset.status, getComputedStyle(g.querySelector('rect.box')).fill]),
        };
    }""")


def _inside(inner: list[float], outer: list[float]) -> bool:
    return (inner[0] >= outer[0] - 0.5 and inner[1] >= outer[1] - 0.5
            and inner[2] <= outer[2] + 0.5 and inner[3] <= outer[3] + 0.5)


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def check_view(page: Page, shot: Path, *, min_label_px: float = 8.0) -> dict:
    """The view reads: panel <= 30 %, breadcrumb clear of the zoom buttons, every label whole
    inside the drawing area and not too small, fills the colours of the statuses."""
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 5_000
    geo = geometry(page)
    width = geo["window"][0]
    assert (geo["detail"][2] - geo["detail"][0]) / width <= 0.30, geo["detail"]
    assert not _overlap(geo["crumb"], geo["zoombar"]), (geo["crumb"], geo["zoombar"])
    assert _inside(geo["zoombar"], [0, 0, width, geo["window"][1]])
    assert not _overlap(geo["zoombar"], geo["svg"]) and not _overlap(geo["status"], geo["svg"])
    assert geo["labels"], "nothing drawn"
    for text, box in geo["labels"]:
        assert _inside(box, geo["svg"]), (text, box, geo["svg"])
        assert box[3] - box[1] >= min_label_px, (text, box)
    for name, status, fill in geo["fills"]:
        assert fill == _rgb(STATUS_FILL[status]), (name, status, fill)
    return geo


@pytest.mark.parametrize("window", WINDOWS, ids=["1024", "1600"])
def test_views_read_at_this_width(browser, mini_site, window, tmp_path) -> None:
    path, g, backend = mini_site
    page = browser.new_page(viewport={"width": window[0], "height": window[1]})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    expected = node_statuses(g, {r.id: r.status for r in paper_results(g, backend.coq_dir)})
    # overview, a focus, a search, the files
    for k, fragment in enumerate(["", "#node=" + quote(T("top_thm")) + "&depth=all&dir=both",
                                  "#q=double", "#over=files"]):
        page.goto(path.as_uri() + fragment)
        page.wait_for_selector("body[data-ready='1']")
        geo = check_view(page, tmp_path / f"view{k}-{window[0]}.png")
        if fragment.startswith("#node"):
            assert {n: s for n, s, _ in geo["fills"]} == {
                n: expected[n] for n in {T("top_thm")} | nx.descendants(g, T("top_thm"))
                | nx.ancestors(g, T("top_thm"))}
    # the status rule on the mini library: the axiom is missing, what rests on it partial
    assert (expected[B("base_ax")], expected[B("uses_ax")], expected[B("double")]) == (
        "missing", "partial", "proved")
    # "fit" after zooming in brings every label back inside
    page.goto(path.as_uri() + "#node=" + quote(T("top_thm")) + "&depth=all")
    page.wait_for_selector("body[data-ready='1']")
    for _ in range(4):
        page.click("#zoom-in")
    page.click("#zoom-fit")
    check_view(page, tmp_path / f"fit-{window[0]}.png")
    assert errors == []
    page.close()


def test_headline_definition_is_a_theorem_and_coqdoc_links_back(browser, mini_site) -> None:
    path, g, _ = mini_site
    # every coqdoc page has the bar back to the graph; declarations link to their focus
    src = (path.parent / SRC_DIR / "Absorb.Top.html").read_text()
    assert 'href="../graph.html#file=coq%2Ftheories%2FTop.v"' in src
    assert f'href="../graph.html#node={quote(T("top_thm"), safe="")}&amp;sel=' in src
    base = (path.parent / SRC_DIR / "Absorb.Base.html").read_text()
    assert f'#node={quote(B("résumé"), safe="")}' in base      # a non-ASCII name, encoded
    assert 'class="pybridge-nav"' in (path.parent / SRC_DIR / "toc.html").read_text()
    page = browser.new_page()
    page.goto((path.parent / SRC_DIR / "Absorb.Top.html").as_uri())
    page.click(f"a.to-graph[href*='{quote(T('top_thm'), safe='')}']")
    page.wait_for_selector("body[data-ready='1']")
    assert drawn(page) >= {T("top_thm"), B("double")}
    assert page.inner_text("#detail-name") == T("top_thm")
    assert page.inner_text("#detail-kind").lower().startswith("theorem")
    page.close()


def test_shown_kind_of_packaged_results() -> None:
    # a registered result proved by `Definition x := package_iff ...` is a theorem
    assert shown_kind({"kind": "definition", "prop": True, "states": ["R5"]}) == "theorem"
    assert shown_kind({"kind": "definition", "prop": True, "states": []}) == "lemma"
    assert shown_kind({"kind": "definition", "prop": False, "states": ["R1"]}) == "definition"
    assert shown_kind({"kind": "axiom", "prop": True, "states": ["R1"]}) == "axiom"


@pytest.mark.parametrize("window", WINDOWS, ids=["1024", "1600"])
def test_project_overview_reads(browser, library_site, backend, window, tmp_path) -> None:
    path, g = library_site
    page = browser.new_page(viewport={"width": window[0], "height": window[1]})
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    geo = check_view(page, tmp_path / f"overview-{window[0]}.png", min_label_px=11)
    statuses = {r.id: r.status for r in paper_results(g, backend.coq_dir)}
    assert {n: s for n, s, _ in geo["fills"]} == statuses
    assert set(statuses) >= {"R1", "R8'", "R10"}
    # the whole file graph on demand fills the stage (no strip) with labels inside
    go(page, "#over=files")
    geo = check_view(page, tmp_path / f"files-{window[0]}.png", min_label_px=4)
    assert len(geo["labels"]) == len(g.graph["files"])
    svg = geo["svg"]
    xs = [b for _, b in geo["labels"]]
    used_w = (max(b[2] for b in xs) - min(b[0] for b in xs)) / (svg[2] - svg[0])
    used_h = (max(b[3] for b in xs) - min(b[1] for b in xs)) / (svg[3] - svg[1])
    assert min(used_w, used_h) > 0.5, (used_w, used_h)
    # a headline result packaged as a Definition is shown as a theorem
    name = next(n for n, d in g.nodes(data=True) if d["kind"] == "definition" and d["states"])
    go(page, "#result=R5&sel=" + quote(name))
    assert page.inner_text("#detail-kind").lower().startswith("theorem")
    page.close()
