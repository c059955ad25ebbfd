"""Rendering the lemma graph: Graphviz DOT and SVG, and the HTML page.

Every identifier written into DOT/SVG/HTML is built here (``n0``, ``e0``...);
names from the library appear only as escaped label text and as JSON data.
The page embeds the data and its CSS/JS and loads the vendored KaTeX from
``vendor/`` beside it; it works offline from ``file://``. It lays out in the
browser only what is shown (the results overview, all files, or the subgraph
around a focus), layered and wrapped to the window's shape, so every view opens
fitted with its labels whole; nodes are coloured by status
(:mod:`pybridge.site.status`).
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Optional

import networkx as nx

from pybridge.errors import ProverUnavailable
from pybridge.site.graph import node_json, result_theorems, sort_key, unused
from pybridge.site.paper import PaperResult, load_setting, paper_results
from pybridge.site.status import Status, node_statuses, own_status, shown_kind

#: Fill and border colours per status (as the page's legend; a blueprint's convention).
STATUS_FILL = {"proved": "#c6ecce", "partial": "#ffe3a3", "missing": "#f9c9c9"}
STATUS_LINE = {"proved": "#2e8540", "partial": "#b07800", "missing": "#c8261e"}

#: Kinds drawn as square boxes (data); propositions are drawn rounded.
DATA_KINDS = frozenset({"definition", "fixpoint", "inductive", "record", "constructor",
                        "axiom", "parameter"})


@dataclass(frozen=True)
class Layout:
    """Node order (index ``i`` is DOT/SVG id ``n{i}``) and the edges drawn (``e{k}``)."""

    order: list[str]
    drawn: list[tuple[int, int]]


def layout_of(g: nx.DiGraph) -> Layout:
    """Nodes in library order; edges drawn are the transitive reduction (when acyclic)."""
    order = sorted(g.nodes, key=lambda n: sort_key(g, n))
    index = {n: i for i, n in enumerate(order)}
    shown = nx.transitive_reduction(g) if nx.is_directed_acyclic_graph(g) else g
    drawn = sorted((index[u], index[v]) for u, v in shown.edges)
    return Layout(order, drawn)


def _dot_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def to_dot(g: nx.DiGraph, lay: Layout | None = None) -> str:
    """Graphviz DOT: one cluster per file, results highlighted, edges user -> used."""
    lay = lay or layout_of(g)
    headline = result_theorems(g)
    status = node_statuses(g, result_statuses(g, None))
    lines = [
        "digraph library {",
        '  graph [rankdir=RL, ranksep=0.9, nodesep=0.08, fontname="Helvetica", '
        'fontsize=16, compound=true, bgcolor="white"];',
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10, '
        "height=0.22, margin=\"0.06,0.02\", penwidth=0.8];",
        '  edge [arrowsize=0.4, penwidth=0.5, color="#8a8f98"];',
    ]
    by_file: dict[str, list[int]] = {}
    for i, name in enumerate(lay.order):
        by_file.setdefault(g.nodes[name]["file"], []).append(i)
    for c, (file, members) in enumerate(by_file.items()):
        label = file.rsplit("/", 1)[-1]
        lines.append(f"  subgraph cluster_{c} {{")
        lines.append(f'    id="c{c}"; label={_dot_str(label)}; style="rounded,filled"; '
                     'color="#c9ced6"; fillcolor="#f7f8fa";')
        for i in members:
            name = lay.order[i]
            d = g.nodes[name]
            label = d["short"]
            if name in headline:
                label = " ".join(d["states"]) + " | " + label
            attrs = [f'id="n{i}"', f"label={_dot_str(label)}",
                     f'fillcolor="{STATUS_FILL[status[name]]}"', f'color="{STATUS_LINE[status[name]]}"']
            if shown_kind(d) in DATA_KINDS:
                attrs.append('style="filled"')
            if name in headline:
                attrs += ["penwidth=2.5", "fontsize=13", 'fontname="Helvetica-Bold"']
            lines.append(f"    n{i} [{', '.join(attrs)}];")
        lines.append("  }")
    for k, (u, v) in enumerate(lay.drawn):
        lines.append(f'  n{u} -> n{v} [id="e{k}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_svg(dot_source: str, *, timeout: float = 120.0) -> str:
    """Lay out with Graphviz ``dot -Tsvg``."""
    exe = shutil.which("dot")
    if exe is None:
        raise ProverUnavailable("Graphviz 'dot' not found: install graphviz")
    proc = subprocess.run([exe, "-Tsvg"], input=dot_source, capture_output=True, text=True,
                          timeout=timeout)
    if proc.returncode != 0:
        raise ProverUnavailable(f"Graphviz failed: {proc.stderr.strip()[:200]}")
    return proc.stdout


def page_data(
    g: nx.DiGraph,
    lay: Layout,
    *,
    hrefs: Optional[dict[str, str]] = None,
    sources: Optional[dict[str, str]] = None,
    paper: Optional[list[PaperResult]] = None,
) -> dict:
    """The JSON the page scripts read: nodes by index, results, files, paper view.

    ``hrefs``: each node's link into the source pages; ``sources``: each node's
    declaration text; ``paper``: the rows of the paper view (none: results only).
    """
    hrefs = hrefs or {}
    sources = sources or {}
    index = {n: i for i, n in enumerate(lay.order)}
    status = result_statuses(g, paper)
    node_status = node_statuses(g, status)
    nodes = []
    for name in lay.order:
        node = node_json(g, name)
        del node["used_by"]
        node["short"] = g.nodes[name]["short"]
        node["status"] = node_status[name]
        node["shownKind"] = shown_kind(g.nodes[name])
        node["uses"] = sorted(index[v] for v in g.successors(name))
        node["usedBy"] = sorted(index[u] for u in g.predecessors(name))
        node["href"] = hrefs.get(name, "")
        node["source"] = sources.get(name, "")
        nodes.append(node)
    files = list(dict.fromkeys(g.nodes[n]["file"] for n in lay.order))
    file_index = {f: c for c, f in enumerate(files)}
    folders = list(dict.fromkeys(_folder(f) for f in files))
    file_uses: list[set[int]] = [set() for _ in files]
    for u, v in g.edges:
        cu, cv = file_index[g.nodes[u]["file"]], file_index[g.nodes[v]["file"]]
        if cu != cv:
            file_uses[cu].add(cv)
    results = []
    for rid, info in g.graph.get("results", {}).items():
        row = next((r for r in paper or [] if r.id == rid), None)
        names = list(row.statements) + [t for t in info["theorems"] if row is None or t not in row.statements] \
            if row else list(info["theorems"])
        results.append({
            "id": rid, "title": info["title"], "status": status.get(rid, "missing"),
            "nodes": [index[t] for t in dict.fromkeys(names) if t in index],
            "absent": list(info.get("absent", [])),
        })
    return {
        "nodes": nodes,
        "results": results,
        "files": files,
        "folders": folders,
        "fileFolder": [_folder(f) for f in files],
        "fileUses": [sorted(s) for s in file_uses],
        "unused": [index[n] for n in unused(g)],
        "unusedDefinitions": [index[n] for n in unused(g, include_definitions=True)
                              if not g.nodes[n].get("prop")],
        "paper": [r.to_json() for r in paper or []],
        "overview": overview_results(g, paper),
        "setting": load_setting(),
    }


def result_statuses(g: nx.DiGraph, paper: Optional[list[PaperResult]]) -> dict[str, Status]:
    """Each result's status: the paper view's when given, else from its theorems alone."""
    if paper is not None:
        return {r.id: r.status for r in paper}
    out: dict[str, Status] = {}
    for rid, info in g.graph.get("results", {}).items():
        own = [own_status(g.nodes[t]) for t in info["theorems"]]
        out[rid] = "missing" if not own or info.get("absent") else min(
            own, key=("missing", "partial", "proved").index)
    return out


def overview_results(g: nx.DiGraph, paper: Optional[list[PaperResult]]) -> list[dict]:
    """The overview's nodes: one per result (the paper's, else ``results.toml``'s), in order.

    ``uses``: the results one of whose Coq statements or theorems this result's
    rest on (transitively through the library), as indices into the list.
    """
    status = result_statuses(g, paper)
    info = g.graph.get("results", {})
    rows: list[tuple[str, str, list[str]]] = []
    if paper is not None:
        for r in paper:
            rows.append((r.id, r.name or r.title, [t for t in (*r.statements, *r.theorems) if t in g]))
    else:
        for rid, i in info.items():
            rows.append((rid, i["title"], [t for t in i["theorems"] if t in g]))
    owner: dict[str, set[int]] = {}
    for k, (_, _, names) in enumerate(rows):
        for t in names:
            owner.setdefault(t, set()).add(k)
    out = []
    for k, (rid, title, names) in enumerate(rows):
        below: set[str] = set()
        for t in names:
            below |= nx.descendants(g, t)
        uses = sorted({j for t in below for j in owner.get(t, ()) if j != k})
        out.append({"id": rid, "title": title, "status": status.get(rid, "missing"),
                    "listed": rid in info, "count": len(names), "uses": uses})
    return out


def _folder(file: str) -> str:
    parts = file.split("/")
    return parts[-2] if len(parts) >= 2 else ""


def _script_json(data: dict) -> str:
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=True)
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def to_html(
    g: nx.DiGraph,
    *,
    title: str = "Lemma graph",
    hrefs: Optional[dict[str, str]] = None,
    sources: Optional[dict[str, str]] = None,
    coq_dir: Optional[Path] = None,
) -> str:
    """The page: data and scripts inline; layout in the browser (the page's own layered layout).

    It loads ``vendor/`` from beside it (:func:`pybridge.site.docs.copy_vendor`).
    With ``coq_dir``, the paper view lists every result of the paper and of
    ``coq_dir/results.toml``.
    """
    lay = layout_of(g)
    paper = paper_results(g, coq_dir) if coq_dir is not None else None
    template = resources.files("pybridge").joinpath("templates/graph.html").read_text()
    data = page_data(g, lay, hrefs=hrefs, sources=sources, paper=paper)
    parts = {"__TITLE__": html.escape(title), "__DATA__": _script_json(data)}
    return re.sub(r"__(TITLE|DATA)__", lambda m: parts[m.group(0)], template)
