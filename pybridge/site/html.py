"""Rendering the lemma graph: Graphviz DOT and SVG, and the HTML page.

Every identifier written into DOT/SVG/HTML is built here (``n0``, ``e0``...);
names from the library appear only as escaped label text and as JSON data.
The page embeds the data and its CSS/JS and loads the vendored dagre and KaTeX
from ``vendor/`` beside it; it works offline from ``file://``. It lays out in
the browser only what is shown (a file overview, or the subgraph around a
focus), so every view is readable at its default zoom.
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

#: Fill colours per kind (definitions cool, proofs warm); results get their own.
_KIND_FILL = {
    "definition": "#dbe9f6", "fixpoint": "#dbe9f6", "inductive": "#dbe9f6",
    "record": "#dbe9f6", "constructor": "#e8f1fa", "axiom": "#f6c9c9",
    "parameter": "#f6c9c9", "theorem": "#fff3c4", "corollary": "#fff3c4",
    "example": "#e4f4e0",
}
_LEMMA_FILL = "#ffffff"
_RESULT_FILL = "#ffb347"


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
            attrs = [f'id="n{i}"', f"label={_dot_str(label)}"]
            if name in headline:
                attrs += [f'fillcolor="{_RESULT_FILL}"', "penwidth=2.5", "fontsize=13",
                          'fontname="Helvetica-Bold"']
            else:
                attrs.append(f'fillcolor="{_KIND_FILL.get(d["kind"], _LEMMA_FILL)}"')
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
    nodes = []
    for name in lay.order:
        node = node_json(g, name)
        del node["used_by"]
        node["short"] = g.nodes[name]["short"]
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
    status = {r.id: r.status for r in paper or []}
    results = []
    for rid, info in g.graph.get("results", {}).items():
        row = next((r for r in paper or [] if r.id == rid), None)
        names = list(row.statements) + [t for t in info["theorems"] if row is None or t not in row.statements] \
            if row else list(info["theorems"])
        results.append({
            "id": rid, "title": info["title"], "status": status.get(rid, ""),
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
        "setting": load_setting(),
    }


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
    """The page: data and scripts inline; layout in the browser by the vendored dagre.

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
