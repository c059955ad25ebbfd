"""The lemma-graph page in headless Chromium (Playwright): searched, clicked, filtered.

Chromium must be installed (``/usr/bin/chromium``): these tests fail, never skip,
without it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import networkx as nx
import pytest
from playwright.sync_api import Page, sync_playwright

from pybridge.graph import extract, result_theorems, unused
from pybridge.graph_html import to_html
from pybridge.prover import CoqBackend

from test_graph import make_mini_library

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser():
    assert Path(CHROMIUM).is_file(), "Chromium is required: apt-get install -y chromium"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def mini_page_file(tmp_path_factory) -> tuple[Path, nx.DiGraph]:
    root = tmp_path_factory.mktemp("minipage")
    backend = make_mini_library(root)
    g = extract(backend, build=False)
    path = root / "graph.html"
    path.write_text(to_html(g))
    return path, g


def open_page(browser, path: Path) -> tuple[Page, list[str]]:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: errors.append("network: " + r.url)
            if not r.url.startswith(("file:", "data:", "about:")) else None)
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    return page, errors


def node_index(page: Page, name: str) -> int:
    data = json.loads(page.eval_on_selector("#graph-data", "e => e.textContent"))
    return [n["name"] for n in data["nodes"]].index(name)


def texts(page: Page, selector: str) -> list[str]:
    return [t.strip() for t in page.locator(selector).all_inner_texts()]


def test_page_loads_offline_and_draws_every_node(browser, mini_page_file) -> None:
    path, g = mini_page_file
    page, errors = open_page(browser, path)
    assert page.locator("g.node").count() == len(g)
    assert page.title() == "Lemma graph"
    assert "9 nodes" in page.inner_text("#counts")
    # the default panel lists the paper results and their theorems
    assert texts(page, "#results-R1 li") == ["Top.top_thm"]
    assert texts(page, "#results-R2 li") == ["Top.top_cor"]
    assert texts(page, "#results-R3 li") == ["none"]
    assert errors == []
    page.close()


def test_search_then_details(browser, mini_page_file) -> None:
    path, _ = mini_page_file
    page, errors = open_page(browser, path)
    page.fill("#search", "top_")
    assert texts(page, "#search-results li") == ["Top.top_thm", "Top.top_cor"]
    page.keyboard.press("Enter")
    assert page.inner_text("#detail-name") == "Absorb.Top.top_thm"
    assert page.inner_text("#detail-where") == "Top.v:2"
    assert page.inner_text("#detail-statement") == "forall n : nat, (Base.double n + 0)%nat = (n + n)%nat"
    assert texts(page, "#detail-axioms li") == ["Base.base_ax"]
    assert texts(page, "#detail-uses li") == ["Base.double", "Base.double_plus", "Base.uses_ax"]
    assert texts(page, "#detail-usedby li") == ["Top.top_cor"]
    assert texts(page, "#detail-breaks li") == ["R1 top_thm", "R2 top_cor"]
    assert "states R1" in page.inner_text("#detail-badges")
    assert "serves R2" in page.inner_text("#detail-badges")
    page.click("#detail-restson summary")
    assert texts(page, "#detail-restson-list li") == [
        "Base.double", "Base.double_plus", "Base.base_ax", "Base.uses_ax"]
    # selection is drawn: the node red, what it uses blue, what uses it green
    i = node_index(page, "Absorb.Top.top_thm")
    assert "sel" in page.get_attribute(f"#n{i}", "class")
    assert "use" in page.get_attribute(f"#n{node_index(page, 'Absorb.Base.uses_ax')}", "class")
    assert "user" in page.get_attribute(f"#n{node_index(page, 'Absorb.Top.top_cor')}", "class")
    page.fill("#search", "zzz_nothing")
    assert texts(page, "#search-results li") == ["no match"]
    assert errors == []
    page.close()


def test_click_node_in_drawing_and_follow_links(browser, mini_page_file) -> None:
    path, _ = mini_page_file
    page, errors = open_page(browser, path)
    i = node_index(page, "Absorb.Base.base_ax")
    page.click(f"#n{i}")
    assert page.inner_text("#detail-name") == "Absorb.Base.base_ax"
    assert page.inner_text("#detail-body h2 >> nth=0").lower() == "axiom"
    assert texts(page, "#detail-uses li") == ["none"]
    assert texts(page, "#detail-usedby li") == ["Base.uses_ax"]
    page.locator("#detail-usedby li", has_text="Base.uses_ax").click()
    assert page.inner_text("#detail-name") == "Absorb.Base.uses_ax"
    assert texts(page, "#detail-uses li") == ["Base.double", "Base.base_ax"]
    page.click(f"#n{node_index(page, 'Absorb.Base.orphan' + chr(39))}")
    assert page.inner_text("#detail-name") == "Absorb.Base.orphan'"
    assert texts(page, "#detail-breaks li") == ["none"]
    assert errors == []
    page.close()


def test_filters_and_unused(browser, mini_page_file) -> None:
    path, g = mini_page_file
    page, errors = open_page(browser, path)
    idx = {n: node_index(page, n) for n in g}
    page.select_option("#filter-result", "R2")
    dimmed = {n for n in g if "dim" in page.get_attribute(f"#n{idx[n]}", "class")}
    served = {n for n, d in g.nodes(data=True) if "R2" in d["states"] + d["serves"]}
    assert served == {"Absorb.Top.top_cor", "Absorb.Top.top_thm", "Absorb.Base.double",
                      "Absorb.Base.double_plus", "Absorb.Base.uses_ax", "Absorb.Base.base_ax"}
    assert dimmed == set(g) - served
    assert page.inner_text("#status") == "6 of 9 shown · result R2"
    page.select_option("#filter-result", "")
    page.select_option("#filter-file", "coq/theories/Top.v")
    assert page.inner_text("#status") == "3 of 9 shown · Top.v"
    assert "dim" in page.get_attribute(f"#n{idx['Absorb.Base.double']}", "class")
    assert "dim" not in page.get_attribute(f"#n{idx['Absorb.Top.unused_def']}", "class")
    page.click("#btn-unused")
    assert texts(page, "#unused-list li") == ["Base.orphan'", "Base.résumé"]
    assert texts(page, "#unused-defs-list li") == ["Top.unused_def"]
    page.click("#btn-clear")
    assert page.inner_text("#status") == "9 of 9 shown"
    assert errors == []
    page.close()


def test_project_library_page(browser, backend: CoqBackend, tmp_path) -> None:
    g = extract(backend, build=False)
    path = tmp_path / "graph.html"
    path.write_text(to_html(g))
    page, errors = open_page(browser, path)
    assert page.locator("g.node").count() == len(g)
    headline = sorted(result_theorems(g))
    assert headline
    target = "Absorb.Gated.gated_not_absorbable"
    assert target in headline
    page.fill("#search", "gated_not_absorbable")
    page.keyboard.press("Enter")
    assert page.inner_text("#detail-name") == target
    assert "states R3" in page.inner_text("#detail-badges")
    assert "Blocks.vanishing_at_0" in texts(page, "#detail-uses li")
    assert re.search(r"R3 .*gated_not_absorbable", " ".join(texts(page, "#detail-breaks li")))
    # results are highlighted in the drawing
    i = node_index(page, target)
    fill = page.get_attribute(f"#n{i} > path", "fill") or page.get_attribute(f"#n{i} > polygon", "fill")
    assert fill == "#ffb347"
    page.click("#btn-unused")
    assert len(texts(page, "#unused-list li")) == len(unused(g))
    assert errors == []
    page.close()
