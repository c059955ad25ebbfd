"""``pybridge graph``: the lemma graph of the formal library, as a page or as answers.

Without a question option it writes ``DIR/graph.<format>`` (html, svg, dot or
json); ``html`` is the whole site of :mod:`pybridge.site.docs` (the page with
its paper view, ``vendor/``, and the coqdoc source pages in ``src/`` unless
``--no-docs``). The graph comes from the cache of :mod:`pybridge.site.cache`
when the compiled library has not changed. With ``--rests-on``, ``--breaks`` or ``--unused`` it answers on stdout
(plain text, or one JSON document with ``--json``) and writes files only when
``--out`` is given. ``--json`` alone prints the whole graph (node-link) with
the unused lemmas.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Optional

import click
import networkx as nx

from pybridge.coq import CoqBackend
from pybridge.errors import InputError
from pybridge.site.cache import build_library, load_graph
from pybridge.site.docs import CoqdocRun, write_atomic, write_site
from pybridge.site.graph import breaks, resolve, rests_on, summary, to_node_link, unused
from pybridge.site.html import layout_of, to_dot, to_html, to_svg

FORMATS = ("html", "svg", "dot", "json")


def render(g: nx.DiGraph, fmt: str) -> str:
    """The whole graph in one of :data:`FORMATS`."""
    if fmt == "html":
        return to_html(g, title="Lemma graph of the Absorb library")
    if fmt == "dot":
        return to_dot(g, layout_of(g))
    if fmt == "svg":
        return to_svg(to_dot(g, layout_of(g)))
    if fmt == "json":
        return json.dumps(to_node_link(g), indent=1) + "\n"
    raise InputError(f"unknown format {fmt!r}")


def _out_dir(out: Path) -> Path:
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {str(out)!r} exists and is not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create --out directory {str(out)!r}: {exc.strerror}") from None
    return out


def answers(
    g: nx.DiGraph, rests: Optional[str], broken: Optional[str], want_unused: bool
) -> dict:
    """The questions asked on the command line, answered (names resolved first)."""
    doc: dict = {}
    if rests is not None:
        node = resolve(g, rests)
        doc["rests_on"] = {"name": node, "lemmas": rests_on(g, node),
                           "axioms": list(g.nodes[node]["axioms"])}
    if broken is not None:
        node = resolve(g, broken)
        doc["breaks"] = {"name": node, "results": [
            {"result": i.result, "theorems": list(i.theorems)} for i in breaks(g, node)
        ]}
    if want_unused:
        doc["unused"] = unused(g)
    return doc


def _print_text(g: nx.DiGraph, doc: dict) -> None:
    if "rests_on" in doc:
        r = doc["rests_on"]
        click.echo(f"{r['name']} rests on {len(r['lemmas'])} nodes:")
        for n in r["lemmas"]:
            click.echo(f"  {n}  [{g.nodes[n]['kind']}]")
        click.echo(f"axioms: {', '.join(r['axioms']) or 'none'}")
    if "breaks" in doc:
        b = doc["breaks"]
        if not b["results"]:
            click.echo(f"no paper result rests on {b['name']}")
        for item in b["results"]:
            click.echo(f"{item['result']}: " + ", ".join(item["theorems"]))
    if "unused" in doc:
        named = sum(1 for _, d in g.nodes(data=True) if d.get("certificates"))
        click.echo(f"{len(doc['unused'])} lemmas nothing uses (Examples, the non-vacuity "
                   f"instances, and the {named} nodes pybridge's certificates name, left out):")
        for n in doc["unused"]:
            click.echo(f"  {n}  ({g.nodes[n]['file']}:{g.nodes[n]['line']})")


@click.command("graph")
@click.option("--out", "out", type=click.Path(path_type=Path), default=None,
              help="Directory for graph.<format> (default: ./graph).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="html", show_default=True,
              help="Output format.")
@click.option("--json", "as_json", is_flag=True, help="Answers (or the whole graph) as JSON on stdout.")
@click.option("--rests-on", "rests", metavar="NAME", help="Which lemmas NAME rests on, transitively.")
@click.option("--breaks", "broken", metavar="NAME", help="Which paper results break if NAME changes.")
@click.option("--unused", "want_unused", is_flag=True, help="Lemmas nothing uses.")
@click.option("--no-docs", is_flag=True, help="HTML without the coqdoc source pages (src/).")
@click.option("--no-build", is_flag=True, help="Use the compiled library as it is (skip make).")
@click.option("--no-cache", is_flag=True,
              help="Extract afresh: ignore the graph cached for this compiled library, and ask "
                   "Coq for the assumptions of standard-library constants again.")
def graph_cmd(out: Optional[Path], fmt: str, as_json: bool, rests: Optional[str],
              broken: Optional[str], want_unused: bool, no_docs: bool, no_build: bool,
              no_cache: bool) -> None:
    """Extract the lemma graph of the Coq library and write or query it."""
    asking = rests is not None or broken is not None or want_unused
    if out is not None:
        _out_dir(out)
    backend = CoqBackend()
    if not no_build:
        build_library(backend)
    writing = out is not None or not (asking or as_json)
    directory = _out_dir(out if out is not None else Path("graph")) if writing else None
    # coqdoc needs only the compiled .glob files: it runs (into a scratch directory)
    # while the graph is extracted
    coqdoc = (CoqdocRun(backend, Path(tempfile.mkdtemp(prefix=".src-", dir=directory)))
              if directory is not None and fmt == "html" and not no_docs else None)
    try:
        g = load_graph(backend, build=False, cache=not no_cache)
        doc = answers(g, rests, broken, want_unused)
    except BaseException:
        if coqdoc is not None:
            coqdoc.discard()
        raise
    target: Optional[Path] = None
    if directory is not None:
        target = directory / f"graph.{fmt}"
        if fmt == "html":
            write_site(g, directory, backend, docs=coqdoc if coqdoc is not None else not no_docs)
        else:
            write_atomic(target, render(g, fmt))
    if as_json:
        if not asking:
            doc = {"summary": summary(g), "unused": unused(g), "graph": to_node_link(g)}
        if target is not None:
            doc["written"] = str(target)
        click.echo(json.dumps(doc, indent=2))
    elif asking:
        _print_text(g, doc)
    if target is not None and not as_json:
        s = summary(g)
        click.echo(f"wrote {target} ({s['nodes']} nodes, {s['edges']} uses)", err=asking)

