"""The lemma graph: extraction checked against Coq, queries, and the ``graph`` command.

Two libraries: a small one written here (every node, edge, line and axiom known
exactly) and the project's own library (headline theorems present, uses that
must exist do, axioms and statements equal to ``Print Assumptions`` name by name (``describe(closure=False)``)
reports).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import networkx as nx
import pytest
from helpers import MINI_TOP, REPO, make_mini_library

from pybridge.certify.uses import literal_identifiers, used_by_certificates
from pybridge.coq import CoqBackend
from pybridge.coq.dpdgraph import parse_dpd, parse_glob, qualify_path
from pybridge.coq.query import describe
from pybridge.errors import InputError
from pybridge.results import load_results
from pybridge.site.cache import library_key, load, load_graph
from pybridge.site.docs import coqdoc_anchor, declaration_source
from pybridge.site.graph import breaks, extract, resolve, rests_on, result_theorems, unused
from pybridge.site.html import STATUS_FILL, layout_of, to_dot, to_html


@pytest.fixture(scope="module")
def mini(tmp_path_factory) -> tuple[CoqBackend, nx.DiGraph]:
    backend = make_mini_library(tmp_path_factory.mktemp("mini"))
    return backend, extract(backend, build=False)


@pytest.fixture(scope="module")
def library(library_graph: nx.DiGraph) -> nx.DiGraph:
    return library_graph.copy()


def B(name: str) -> str:
    return "Absorb.Base." + name


def T(name: str) -> str:
    return "Absorb.Top." + name


# --------------------------------------------------------------------------- parsers


def test_parse_dpd_reads_nodes_attributes_and_edges() -> None:
    text = (
        'N: 3 "sumn_S" [body=yes, kind=cnst, prop=yes, path="Sums", ];\n'
        'N: 17 "ax" [body=no, kind=cnst, prop=no, path="M.Sub", ];\n'
        "E: 3 17 [weight=4, ];\n"
        "garbage line\n"
    )
    nodes, edges = parse_dpd(text)
    assert [(n.ident, n.qualid, n.prop, n.body) for n in nodes] == [
        (3, "Sums.sumn_S", True, True),
        (17, "M.Sub.ax", False, False),
    ]
    assert edges == [(3, 17)]


def test_parse_glob_keeps_definitions_not_references() -> None:
    text = "DIGEST x\nFAbsorb.X\ndef 10:15 <> foo\nR20:22 Absorb.Y <> bar def\nprf 30:33 M baz\nbinder 1:1 <> x:1\n"
    assert parse_glob(text) == {"foo": 10, "M.baz": 30}


# --------------------------------------------------------------------------- the small library


def test_mini_nodes_are_exactly_the_library(mini) -> None:
    _, g = mini
    assert set(g) == {
        B("double"), B("double_plus"), B("base_ax"), B("uses_ax"), B("orphan'"), B("résumé"),
        T("top_thm"), T("unused_def"), T("top_cor"),
    }
    # nothing from the standard library, nothing from Extra.v (not in _CoqProject)
    assert all(n.startswith("Absorb.") for n in g)


def test_mini_kinds_files_lines(mini) -> None:
    _, g = mini
    expected = {
        B("double"): ("definition", "Base.v", 2),
        B("double_plus"): ("lemma", "Base.v", 4),
        B("base_ax"): ("axiom", "Base.v", 7),
        B("uses_ax"): ("lemma", "Base.v", 9),
        B("orphan'"): ("lemma", "Base.v", 12),
        B("résumé"): ("lemma", "Base.v", 15),
        T("top_thm"): ("theorem", "Top.v", 2),
        T("unused_def"): ("definition", "Top.v", 5),
        T("top_cor"): ("corollary", "Top.v", 7),
    }
    for name, (kind, file, line) in expected.items():
        d = g.nodes[name]
        assert (d["kind"], d["file"], d["line"]) == (kind, f"coq/theories/{file}", line), name


def test_mini_edges_are_the_uses(mini) -> None:
    _, g = mini
    assert set(g.edges) == {
        (B("double_plus"), B("double")),
        (B("uses_ax"), B("double")),
        (B("uses_ax"), B("base_ax")),
        (T("top_thm"), B("double")),
        (T("top_thm"), B("double_plus")),
        (T("top_thm"), B("uses_ax")),
        (T("top_cor"), T("top_thm")),
        (T("top_cor"), B("double")),
    }


def test_mini_statements_and_axioms_match_coq(mini) -> None:
    backend, g = mini
    assert g.nodes[T("top_thm")]["statement"] == "forall n : nat, (Base.double n + 0)%nat = (n + n)%nat"
    assert g.nodes[B("double")]["statement"] == "nat -> nat"
    info = describe(backend, sorted(g), closure=False, cache=False)
    for name in g:
        assert g.nodes[name]["statement"] == info[name].statement, name
        assert tuple(g.nodes[name]["axioms"]) == tuple(sorted(info[name].assumptions)), name
    assert g.nodes[T("top_cor")]["axioms"] == ["Base.base_ax"]
    assert g.nodes[B("double_plus")]["axioms"] == []
    assert g.nodes[B("base_ax")]["axioms"] == ["Base.base_ax"]


def test_mini_results_stated_and_served(mini) -> None:
    _, g = mini
    assert g.nodes[T("top_thm")]["states"] == ["R1"]
    assert g.nodes[T("top_cor")]["states"] == ["R2"]
    assert g.nodes[T("top_thm")]["serves"] == ["R2"]
    assert sorted(g.nodes[B("base_ax")]["serves"]) == ["R1", "R2"]
    assert g.nodes[B("orphan'")]["serves"] == [] and g.nodes[B("orphan'")]["states"] == []
    assert g.graph["results"]["R3"] == {"title": "Not proved yet", "theorems": [], "absent": []}
    assert result_theorems(g) == {T("top_thm"), T("top_cor")}


def test_mini_queries(mini) -> None:
    _, g = mini
    assert rests_on(g, "top_thm") == [B("double"), B("double_plus"), B("base_ax"), B("uses_ax")]
    assert rests_on(g, "double") == []
    assert [(i.result, i.theorems) for i in breaks(g, "base_ax")] == [
        ("R1", (T("top_thm"),)), ("R2", (T("top_cor"),)),
    ]
    assert [(i.result, i.theorems) for i in breaks(g, "Top.top_cor")] == [("R2", (T("top_cor"),))]
    assert breaks(g, "orphan'") == []
    assert unused(g) == [B("orphan'"), B("résumé")]
    assert unused(g, include_definitions=True) == [B("orphan'"), B("résumé"), T("unused_def")]


def test_resolve_names(mini) -> None:
    _, g = mini
    assert resolve(g, "Absorb.Top.top_thm") == T("top_thm")
    assert resolve(g, "Top.top_thm") == T("top_thm")
    assert resolve(g, "top_thm") == T("top_thm")
    with pytest.raises(InputError, match="no definition or lemma"):
        resolve(g, "no_such_lemma")
    with pytest.raises(InputError, match="no definition or lemma"):
        resolve(g, "Absorb")


@pytest.mark.coq
def test_module_list_comes_from_coqproject(tmp_path) -> None:
    backend = make_mini_library(tmp_path)
    g = extract(backend, build=False)
    assert "Absorb.Extra.extra_lemma" not in g
    project = backend.coq_dir / "_CoqProject"
    project.write_text(project.read_text() + "theories/Extra.v\n")
    g2 = extract(backend, build=True)
    assert set(g2) == set(g) | {"Absorb.Extra.extra_lemma"}
    assert (("Absorb.Extra.extra_lemma", T("unused_def"))) in g2.edges
    assert T("unused_def") not in unused(g2, include_definitions=True)


def test_dot_and_html_escape_and_identify(mini) -> None:
    _, g = mini
    lay = layout_of(g)
    dot = to_dot(g, lay)
    assert 'label="orphan\'"' in dot and 'label="résumé"' in dot
    assert 'label="R1 | top_thm"' in dot
    # ids are ours: n<i> per node, e<k> per drawn edge
    assert len(re.findall(r'\bn\d+ \[id="n\d+"', dot)) == len(g)
    # the drawn edges are the transitive reduction: top_thm -> double is implied
    i = {n: k for k, n in enumerate(lay.order)}
    assert (i[T("top_thm")], i[B("double")]) not in lay.drawn
    assert (i[T("top_thm")], i[B("uses_ax")]) in lay.drawn
    # fills are statuses: the axiom missing, what rests on it partial, the rest proved
    fill = dict(re.findall(r'id="n(\d+)", label=[^,]+, fillcolor="([^"]+)"', dot))
    assert fill[str(i[B("base_ax")])] == STATUS_FILL["missing"]
    assert fill[str(i[T("top_thm")])] == STATUS_FILL["partial"]
    assert fill[str(i[B("double")])] == STATUS_FILL["proved"]
    page = to_html(g)
    # nothing is fetched from the network: the only files it loads are the vendored ones
    assert set(re.findall(r'(?:src|href)="([^"#]+)"', page)) == {
        "vendor/katex/katex.min.js", "vendor/katex/katex.min.css", "src/toc.html"}
    head = page.split('<script id="graph-data"', 1)[0].replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "http" not in head
    data = json.loads(re.search(r'<script id="graph-data" type="application/json">(.*?)</script>',
                                page, re.S).group(1))
    assert [n["name"] for n in data["nodes"]] == lay.order


# --------------------------------------------------------------------------- the project's library


@pytest.mark.slow
def test_every_headline_theorem_is_a_node(library, backend) -> None:
    entries = load_results(backend.coq_dir / "results.toml")
    named = [(e.id, t if t.startswith("Absorb.") else "Absorb." + t) for e in entries for t in e.theorems]
    assert named, "results.toml names no theorem"
    for rid, name in named:
        assert name in library, name
        d = library.nodes[name]
        assert rid in d["states"]
        # a proof may be given by `Definition x := package_iff ...` (a term of a Prop)
        assert d["prop"] and d["kind"] in ("theorem", "lemma", "corollary", "proposition", "example",
                                           "definition")
        src = (backend.root / d["file"]).read_text().splitlines()
        assert d["short"] in src[d["line"] - 1], (name, d["line"])
        # everything a result theorem uses serves that result
        for used in nx.descendants(library, name):
            assert rid in library.nodes[used]["serves"]


def test_library_nodes_come_from_coqproject_modules(library, backend) -> None:
    modules = backend.modules()
    assert {d["module"] for _, d in library.nodes(data=True)} <= set(modules)
    assert all(n.startswith("Absorb.") for n in library)
    for _, d in library.nodes(data=True):
        assert (backend.root / d["file"]).is_file()


def test_uses_that_must_exist(library) -> None:
    must = [
        ("Absorb.results.SkipReduction.skip_reduction_ungated", "Absorb.spec.BlockDefs.absorbable_ungated"),
        ("Absorb.results.SkipReduction.skip_reduction_ungated", "Absorb.spec.BlockDefs.inverse_of"),
        ("Absorb.results.Gated.gated_not_absorbable", "Absorb.spec.BlockDefs.vanishing_at_0"),
        ("Absorb.results.ImpossibilityInstances.swiglu_not_absorbable", "Absorb.results.Gated.gated_not_absorbable"),
        ("Absorb.results.ImpossibilityInstances.relu2_not_absorbable",
         "Absorb.results.ImpossibilityInstances.relu_pow_not_absorbable"),
        ("Absorb.results.ImpossibilityInstances.relu_pow_not_absorbable",
         "Absorb.results.Homogeneous.homogeneous_not_absorbable_ungated"),
        ("Absorb.results.ImpossibilityInstances.relu_pow_not_absorbable",
         "Absorb.analysis.Activations.relu_pow_homogeneous"),
        ("Absorb.results.FlipSigns.odd_part_absorbable", "Absorb.results.FlipSigns.flip_rows_residual"),
        ("Absorb.analysis.Activations.relu_odd_part", "Absorb.spec.ActivationDefs.relu"),
        ("Absorb.spec.BlockDefs.dot", "Absorb.spec.SumDefs.sumn"),
    ]
    for u, v in must:
        assert (u, v) in library.edges, (u, v)


def test_statement_mentions_are_uses(library) -> None:
    """Every library constant a statement mentions (``Module.name``) is a direct use."""
    # Coq prints a name qualified by its file (``BlockDefs.mat``), without the folder
    by_tail: dict[str, list[str]] = {}
    for n in library:
        by_tail.setdefault(".".join(n.split(".")[-2:]), []).append(n)
    short = {t: ns[0] for t, ns in by_tail.items() if len(ns) == 1}
    # record fields share their record's line: Coq prints {| field := ... |} for the constructor
    lines: dict[tuple, int] = {}
    for _, d in library.nodes(data=True):
        lines[(d["file"], d["line"])] = lines.get((d["file"], d["line"]), 0) + 1
    checked = 0
    for name, d in library.nodes(data=True):
        # a field name in record syntax ({| M.f := ... |}) is no use of the projection M.f
        for token in re.findall(r"[A-Za-z_][\w']*\.[A-Za-z_][\w']*(?![\w'])(?!\s*:=)", d["statement"] or ""):
            target = library.nodes[short[token]] if token in short else None
            if target is not None and lines[(target["file"], target["line"])] > 1:
                continue
            if token in short and short[token] != name:
                assert library.has_edge(name, short[token]), (name, token)
                checked += 1
    assert checked > 100


@pytest.mark.slow
def test_library_axioms_and_statements_match_describe(library, backend) -> None:
    sample = sorted(result_theorems(library))[:6] + [
        "Absorb.tools.Sums.sumn_S", "Absorb.tools.Blocks.mv_mm", "Absorb.spec.ActivationDefs.gelu",
    ]
    info = describe(backend, sample, closure=False, cache=False)
    for name in sample:
        assert library.nodes[name]["statement"] == info[name].statement, name
        assert tuple(library.nodes[name]["axioms"]) == tuple(sorted(info[name].assumptions)), name


def test_library_queries(library) -> None:
    thm = "Absorb.results.Gated.gated_not_absorbable"
    deps = rests_on(library, thm)
    assert set(library.successors(thm)) <= set(deps)
    assert "Absorb.spec.BlockDefs.vanishing_at_0" in deps and thm not in deps
    impacts = {i.result: i.theorems for i in breaks(library, "Absorb.spec.BlockDefs.vanishing_at_0")}
    assert thm in impacts["R3"]
    assert {i.result for i in breaks(library, "Absorb.spec.SumDefs.sumn")} == {
        rid for rid, info in library.graph["results"].items() if info["theorems"]
    }
    lonely = unused(library)
    assert lonely and not set(lonely) & result_theorems(library)
    for n in lonely:
        assert library.in_degree(n) == 0 and library.nodes[n]["prop"]


# --------------------------------------------------------------------------- the command


def run_cli(args: list[str], root: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYBRIDGE_ROOT=str(root), PYBRIDGE_CACHE_DIR=str(root / ".graph-cache"))
    return subprocess.run(
        [sys.executable, "-c", "from pybridge.cli import main; main()", "graph", *args],
        capture_output=True, text=True, env=env, cwd=cwd,
    )


def test_cli_questions_as_json(mini, tmp_path) -> None:
    backend, _ = mini
    proc = run_cli(["--no-build", "--json", "--rests-on", "top_thm", "--breaks", "Base.base_ax",
                    "--unused"], backend.root, tmp_path)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["rests_on"] == {
        "name": T("top_thm"),
        "lemmas": [B("double"), B("double_plus"), B("base_ax"), B("uses_ax")],
        "axioms": ["Base.base_ax"],
    }
    assert doc["breaks"] == {"name": B("base_ax"), "results": [
        {"result": "R1", "theorems": [T("top_thm")]}, {"result": "R2", "theorems": [T("top_cor")]},
    ]}
    assert doc["unused"] == [B("orphan'"), B("résumé")]
    assert list(tmp_path.iterdir()) == []  # questions alone write no files


def test_cli_text_answers(mini, tmp_path) -> None:
    backend, _ = mini
    proc = run_cli(["--no-build", "--breaks", "double_plus"], backend.root, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["R1: Absorb.Top.top_thm", "R2: Absorb.Top.top_cor"]


@pytest.mark.parametrize("fmt", ["html", "svg", "dot", "json"])
def test_cli_writes_each_format(mini, tmp_path, fmt) -> None:
    backend, g = mini
    out = tmp_path / "out"
    proc = run_cli(["--no-build", "--out", str(out), "--format", fmt], backend.root, tmp_path)
    assert proc.returncode == 0, proc.stderr
    site = ["graph.html", "index.html", "src", "vendor"] if fmt == "html" else [f"graph.{fmt}"]
    assert sorted(p.name for p in out.iterdir()) == site
    text = (out / f"graph.{fmt}").read_text()
    if fmt == "json":
        h = nx.node_link_graph(json.loads(text), edges="links")
        assert set(h.edges) == set(g.edges) and h.nodes[T("top_thm")]["states"] == ["R1"]
    elif fmt == "svg":
        root = ET.fromstring(text[text.index("<svg"):])
        ids = {el.get("id") for el in root.iter() if el.get("id")}
        assert {f"n{i}" for i in range(len(g))} <= ids
    elif fmt == "dot":
        assert text.startswith("digraph library {") and "top_thm" in text
    else:
        assert "<!DOCTYPE html>" in text and "Absorb.Top.top_thm" in text


def test_cli_default_writes_graph_dir(mini, tmp_path) -> None:
    backend, _ = mini
    proc = run_cli(["--no-build"], backend.root, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "graph" / "graph.html").is_file()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--rests-on", "no_such_lemma"], "no definition or lemma named 'no_such_lemma'"),
        (["--breaks", "Absorb"], "no definition or lemma named 'Absorb'"),
        (["--format", "pdf"], "Invalid value for '--format'"),
        (["--out", "{file}"], "exists and is not a directory"),
    ],
)
def test_cli_bad_input_exit_2_one_line(mini, tmp_path, args, message) -> None:
    backend, _ = mini
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    args = [a.replace("{file}", str(blocker)) for a in args]
    proc = run_cli(["--no-build", *args], backend.root, tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]
    assert blocker.read_text() == "x"


@pytest.mark.coq
def test_cli_broken_library_exit_2(tmp_path) -> None:
    backend = make_mini_library(tmp_path / "lib")
    (backend.theories / "Top.v").write_text(MINI_TOP + "\nLemma broken : 1 = 2.\nProof. reflexivity. Qed.\n")
    proc = run_cli([], backend.root, tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("pybridge: error: the Coq library does not build")
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "graph").exists()


# A stdlib lemma resting on an axiom (NNPP on classic): its closure is a few constants, so
# the cache is exercised without walking the construction of the reals.
REAL_LIB = """From Coq Require Import Classical.
Lemma r_zero : forall P : Prop, ~ ~ P -> P.
Proof. exact NNPP. Qed.
"""


@pytest.mark.coq
def test_assumption_cache_of_standard_library_constants(tmp_path, monkeypatch) -> None:
    """Stdlib assumptions are cached per installation; a bad cache file is ignored."""
    theories = tmp_path / "coq" / "theories"
    theories.mkdir(parents=True)
    shutil.copyfile(REPO / "coq" / "Makefile", tmp_path / "coq" / "Makefile")
    (tmp_path / "coq" / "_CoqProject").write_text("-R theories Absorb\ntheories/Real.v\n")
    (theories / "Real.v").write_text(REAL_LIB)
    backend = CoqBackend(root=tmp_path)
    assert backend.build_library().ok
    cache_dir = tmp_path / "cache"
    monkeypatch.setenv("PYBRIDGE_CACHE_DIR", str(cache_dir))
    name = "Absorb.Real.r_zero"
    truth = tuple(sorted(describe(backend, [name], closure=False, cache=False)[name].assumptions))
    assert truth  # NNPP rests on the axiom classic

    g = extract(backend, build=False)
    assert tuple(g.nodes[name]["axioms"]) == truth
    [cache_file] = list(cache_dir.iterdir())
    entries = json.loads(cache_file.read_text())
    assert entries and all(not k.startswith("Real.") for k in entries)

    # the cache is what answers for stdlib constants on the next run ...
    cache_file.write_text(json.dumps({k: ["Poison.ax"] for k in entries}))
    assert extract(backend, build=False).nodes[name]["axioms"] == ["Poison.ax"]
    # ... never without it,
    assert tuple(extract(backend, build=False, cache=False).nodes[name]["axioms"]) == truth
    # and a file that is not a cache is ignored and rewritten
    cache_file.write_text("{not json")
    assert tuple(extract(backend, build=False).nodes[name]["axioms"]) == truth
    assert json.loads(cache_file.read_text()) == entries


def test_cli_json_alone_is_the_whole_graph(mini, tmp_path) -> None:
    backend, g = mini
    proc = run_cli(["--no-build", "--json"], backend.root, tmp_path)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["summary"]["nodes"] == len(g) and doc["summary"]["edges"] == g.number_of_edges()
    assert doc["unused"] == [B("orphan'"), B("résumé")]
    h = nx.node_link_graph(doc["graph"], edges="links")
    assert set(h.edges) == set(g.edges)
    assert h.nodes[B("uses_ax")]["axioms"] == ["Base.base_ax"]
    assert list(tmp_path.iterdir()) == []


def test_ambiguous_short_name_is_refused(library) -> None:
    counts: dict[str, int] = {}
    for n in library:
        counts[library.nodes[n]["short"]] = counts.get(library.nodes[n]["short"], 0) + 1
    twice = sorted(s for s, c in counts.items() if c > 1)
    assert twice, "expected some short name defined in two files"
    with pytest.raises(InputError, match="is ambiguous"):
        resolve(library, twice[0])


def test_missing_prover_is_a_clear_error(mini) -> None:
    from pybridge.errors import ProverUnavailable

    backend, _ = mini
    broken = CoqBackend(root=backend.root, coqc="no-such-coqc")
    with pytest.raises(ProverUnavailable, match="'no-such-coqc' not found"):
        extract(broken, build=False)


def test_unused_leaves_out_examples(library) -> None:
    """Non-vacuity Examples are leaves by design; 'nothing uses' means dead lemmas."""
    plain = unused(library)
    assert all(library.nodes[n]["kind"] != "example" for n in plain)
    assert "Absorb.analysis.Activations.relu_3" not in plain
    assert "Absorb.analysis.Activations.relu_3" in unused(library, include_examples=True)
    assert set(plain) < set(unused(library, include_examples=True))


# --------------------------------------------------------------------------- cache, paths, sources


def test_qualify_path_puts_folders_back() -> None:
    modules = ["Absorb.spec.Blocks", "Absorb.results.Depth", "Absorb.Top", "Absorb.a.Twice",
               "Absorb.b.Twice"]
    assert qualify_path("Depth", modules) == "results.Depth"
    assert qualify_path("Depth.Inner", modules) == "results.Depth.Inner"
    assert qualify_path("results.Depth", modules) == "results.Depth"   # already full
    assert qualify_path("Top", modules) == "Top"
    assert qualify_path("Twice", modules) == "Twice"                   # ambiguous: unchanged
    assert qualify_path("Rdefinitions", modules) == "Rdefinitions"     # not ours
    assert qualify_path("", modules) == ""


def test_graph_cache_is_keyed_on_the_compiled_files(mini, tmp_path, monkeypatch) -> None:
    backend, g = mini
    monkeypatch.setenv("PYBRIDGE_CACHE_DIR", str(tmp_path))
    key = library_key(backend)
    assert key.digest and load(key) is None
    first = load_graph(backend, build=False)
    assert [p.name for p in tmp_path.iterdir()] == [f"lemma-graph-{key.digest}.json"]
    # a warm load answers the same graph without asking Coq
    monkeypatch.setattr("pybridge.site.cache.extract", lambda *a, **k: pytest.fail("re-extracted"))
    warm = load_graph(backend, build=False)
    assert set(warm.edges) == set(first.edges) == set(g.edges)
    assert warm.nodes[T("top_thm")] == first.nodes[T("top_thm")]
    assert warm.graph["results"] == first.graph["results"]
    # touching a compiled file changes the key: the stale graph is never read
    vo = backend.theories / "Base.vo"
    st = vo.stat()
    os.utime(vo, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    try:
        assert library_key(backend) != key
        with pytest.raises(BaseException, match="re-extracted"):
            load_graph(backend, build=False)
    finally:
        os.utime(vo, ns=(st.st_atime_ns, st.st_mtime_ns))
    # a corrupt cache file is ignored
    (tmp_path / f"lemma-graph-{key.digest}.json").write_text("{not json")
    assert load(key) is None


def test_unused_leaves_out_what_certificates_name(mini) -> None:
    _, g = mini
    h = g.copy()
    assert unused(h) == [B("orphan'"), B("résumé")]
    assert used_by_certificates(h, {"Base.orphan'", "résumé_not_a_name", "nothing"}) == {B("orphan'")}
    for n, d in h.nodes(data=True):
        d["certificates"] = n == B("orphan'")
    assert unused(h) == [B("résumé")]
    src = 'def f():\n    """Base.résumé in a docstring is prose."""\n    return "exact (check_nosub d n)."\n'
    assert literal_identifiers(src) == {"exact", "check_nosub", "d", "n"}


def test_project_certificate_checkers_are_not_unused(library) -> None:
    """The checkers pybridge's certificates apply are leaves of the library, yet used."""
    named = used_by_certificates(library)
    checkers = {n for n in named if ".certify." in n}
    assert checkers, "the certificates name no checker of certify/"
    assert not checkers & set(unused(library))
    assert all(library.nodes[n]["certificates"] for n in named)


def test_declaration_source_is_the_statement_with_its_comment() -> None:
    src = ("Require Import X.\n\n(** The doubling.\n    Two lines. *)\nLemma double_plus n :\n"
           "  double n = n + n. (* a . in a comment *)\nProof. reflexivity. Qed.\n"
           'Definition s := "a. b".\n')
    assert declaration_source(src, 5) == (
        "(** The doubling.\n    Two lines. *)\nLemma double_plus n :\n  double n = n + n.")
    assert declaration_source(src, 8) == 'Definition s := "a. b".'
    assert declaration_source(src, 99) == ""
    assert coqdoc_anchor("orphan'") == "orphan'"
    assert coqdoc_anchor("résumé") == "a799c331edbeacb6d0f394b27aafc02a"  # coqdoc's MD5 form


def test_cli_failed_query_leaves_no_partial_docs(mini, tmp_path) -> None:
    """coqdoc runs while the graph is extracted; a failure after that leaves nothing of it."""
    backend, _ = mini
    out = tmp_path / "out"
    proc = run_cli(["--no-build", "--out", str(out), "--rests-on", "no_such_lemma"], backend.root, tmp_path)
    assert proc.returncode == 2 and "no_such_lemma" in proc.stderr
    assert list(out.iterdir()) == []
    # and a site written over an older one replaces its source pages
    assert run_cli(["--no-build", "--out", str(out)], backend.root, tmp_path).returncode == 0
    stale = out / "src" / "stale.html"
    stale.write_text("old")
    assert run_cli(["--no-build", "--out", str(out)], backend.root, tmp_path).returncode == 0
    assert not stale.exists() and (out / "src" / "Absorb.Top.html").is_file()
    assert sorted(p.name for p in out.iterdir()) == ["graph.html", "index.html", "src", "vendor"]
