"""The lemma graph of the formal library: extraction with coq-dpdgraph, and queries.

A node per constant/inductive of the library (prefix ``Absorb.``; the standard
library and Coquelicot are left out), an edge ``u -> v`` when ``u`` uses ``v``.
Node attributes: ``short``, ``module``, ``kind``, ``file``, ``line``,
``statement`` (as Coq's ``Check`` prints it), ``axioms`` (``Print Assumptions``),
``prop``, ``states`` (paper results whose theorem this is) and ``serves``
(paper results whose theorem uses it, transitively).

The module list is read from ``coq/_CoqProject`` (:meth:`CoqBackend.modules`);
nothing here names a module of the library.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import networkx as nx

from pybridge.certify.uses import used_by_certificates
from pybridge.coq import CoqBackend
from pybridge.coq.dpdgraph import DpdNode, gather, parse_glob, source_kind
from pybridge.coq.query import default_cache_dir
from pybridge.errors import InputError, ProverUnavailable
from pybridge.results import ResultEntry, load_results

PREFIX = "Absorb"


@dataclass(frozen=True)
class Impact:
    """A paper result that would break, and its theorems that depend on the lemma."""

    result: str
    theorems: tuple[str, ...]


# --------------------------------------------------------------------------- extraction


def _module_file(backend: CoqBackend, module: str) -> Path:
    rel = module[len(PREFIX) + 1 :].replace(".", "/")
    return backend.theories / f"{rel}.v"


def _relative(path: Path, root: Path) -> str:
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)


def _line_of(source: bytes, offset: int) -> int:
    return source.count(b"\n", 0, offset) + 1


def _normalize(name: str) -> str:
    return name if name.startswith(PREFIX + ".") else f"{PREFIX}.{name}"


def assemble(
    nodes: list[DpdNode],
    edges: list[tuple[int, int]],
    modules: list[str],
    sources: dict[str, bytes],
    globs: dict[str, dict[str, int]],
    results: list[ResultEntry],
    root: Path,
    files: dict[str, Path],
) -> nx.DiGraph:
    """The graph from parsed dpdgraph output, sources and glob offsets (no statements yet)."""
    g = nx.DiGraph()
    by_id: dict[int, str] = {}
    order = {m: i for i, m in enumerate(modules)}
    for node in nodes:
        full = f"{PREFIX}.{node.path}.{node.name}" if node.path else f"{PREFIX}.{node.name}"
        module = max((m for m in modules if full.startswith(m + ".")), key=len, default=None)
        if module is None:
            continue  # not ours (dpdgraph lists only the named modules, but be safe)
        by_id[node.ident] = full
        inner = full[len(module) + 1 :]
        offset = globs.get(module, {}).get(inner)
        src = sources.get(module, b"")
        line = _line_of(src, offset) if offset is not None else None
        kind = source_kind(src, offset) if offset is not None else None
        if kind is None:
            kind = {"inductive": "inductive", "construct": "constructor"}.get(node.kind)
        if kind is None:
            kind = "axiom" if not node.body else ("lemma" if node.prop else "definition")
        g.add_node(
            full,
            short=full.rsplit(".", 1)[1],
            module=module,
            module_index=order[module],
            kind=kind,
            prop=node.prop,
            file=_relative(files[module], root),
            line=line,
            statement=None,
            axioms=[],
            states=[],
            serves=[],
        )
    for u, v in edges:
        if u in by_id and v in by_id and by_id[u] != by_id[v]:
            g.add_edge(by_id[u], by_id[v])
    mark_results(g, results)
    g.graph["modules"] = list(modules)
    g.graph["files"] = [_relative(files[m], root) for m in modules]
    return g


def theorem_node(g: nx.DiGraph, name: str) -> str:
    """A results.toml name as a node: exact, else the unique node ending in its last two parts.

    So ``Absorb.Depth.x`` finds ``Absorb.results.Depth.x`` while results.toml catches up with
    the library's folders; an unknown name is returned (normalized) as it is.
    """
    full = _normalize(name)
    if full in g:
        return full
    tail = "." + ".".join(full.split(".")[-2:])
    hits = [n for n in g if n.endswith(tail)]
    return hits[0] if len(hits) == 1 else full


def mark_results(g: nx.DiGraph, results: list[ResultEntry]) -> None:
    """Record which results each node states, and which it serves (used transitively)."""
    result_info = {}
    for entry in results:
        names = [theorem_node(g, t) for t in entry.theorems]
        present = [t for t in names if t in g]
        result_info[entry.id] = {
            "title": entry.title,
            "theorems": present,
            "absent": [t for t in names if t not in g],
        }
        for t in present:
            if entry.id not in g.nodes[t]["states"]:
                g.nodes[t]["states"].append(entry.id)
            for used in nx.descendants(g, t):
                if entry.id not in g.nodes[used]["serves"]:
                    g.nodes[used]["serves"].append(entry.id)
    g.graph["results"] = result_info


def attach_constructors(g: nx.DiGraph) -> None:
    """Link each constructor to the inductive type it builds (dpdgraph does not).

    The type is the codomain of the constructor's statement; the constructor
    also takes that type's source line.
    """
    for name in [n for n, d in g.nodes(data=True) if d["kind"] == "constructor"]:
        stmt = g.nodes[name]["statement"] or ""
        target = stmt.rsplit("->", 1)[-1].split()
        full = theorem_node(g, target[0]) if target else ""
        if full in g and full != name:
            g.add_edge(name, full)
            if g.nodes[name]["line"] is None:
                g.nodes[name]["line"] = g.nodes[full]["line"]


def extract(
    backend: Optional[CoqBackend] = None, *, build: bool = True, cache: bool = True
) -> nx.DiGraph:
    """Build the library (unless ``build`` is False) and return its lemma graph.

    ``cache``: keep the assumptions of standard-library constants between runs
    (see :class:`pybridge.coq.dpdgraph.AssumptionCache`).
    """
    backend = backend or CoqBackend()
    if build:
        res = backend.build_library()
        if not res.ok:
            tail = " | ".join(res.log.strip().splitlines()[-3:])
            raise ProverUnavailable(f"the Coq library does not build: {tail}")
    modules = backend.modules()
    if not modules:
        raise ProverUnavailable("coq/_CoqProject lists no theories")
    toml = backend.coq_dir / "results.toml"
    results = load_results(toml) if toml.is_file() else []
    facts = gather(backend, modules, default_cache_dir() if cache else None)
    files = {m: _module_file(backend, m) for m in modules}
    sources = {m: files[m].read_bytes() for m in modules if files[m].is_file()}
    globs = {}
    for m in modules:
        glob = files[m].with_suffix(".glob")
        if glob.is_file():
            globs[m] = parse_glob(glob.read_text(errors="replace"))
    g = assemble(facts.nodes, facts.edges, modules, sources, globs, results, backend.root, files)
    for name in g:
        g.nodes[name]["statement"] = facts.statements.get(name)
        g.nodes[name]["axioms"] = list(facts.axioms.get(name, ()))
    attach_constructors(g)
    mark_results(g, results)
    mark_certificate_uses(g)
    return g


# --------------------------------------------------------------------------- queries


def sort_key(g: nx.DiGraph, name: str) -> tuple:
    """Library order: module order in ``_CoqProject``, then line."""
    d = g.nodes[name]
    return (d.get("module_index", 0), d.get("line") or 0, name)


def resolve(g: nx.DiGraph, name: str) -> str:
    """The full name of a node given as ``Absorb.M.x``, ``M.x`` or ``x`` (unique suffix)."""
    if name in g:
        return name
    if _normalize(name) in g:
        return _normalize(name)
    hits = sorted(n for n in g if n.endswith("." + name))
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise InputError(f"no definition or lemma named {name!r} in the library")
    raise InputError(f"{name!r} is ambiguous: " + ", ".join(hits[:5]))


def rests_on(g: nx.DiGraph, name: str) -> list[str]:
    """Everything ``name`` uses, transitively, in library order."""
    node = resolve(g, name)
    return sorted(nx.descendants(g, node), key=lambda n: sort_key(g, n))


def breaks(g: nx.DiGraph, name: str) -> list[Impact]:
    """The paper results whose theorems are ``name`` or use it, transitively."""
    node = resolve(g, name)
    affected = nx.ancestors(g, node) | {node}
    out = []
    for rid, info in g.graph.get("results", {}).items():
        hit = tuple(t for t in info["theorems"] if t in affected)
        if hit:
            out.append(Impact(rid, hit))
    return out


def result_theorems(g: nx.DiGraph) -> set[str]:
    """Names of all nodes that state a paper result."""
    return {t for info in g.graph.get("results", {}).values() for t in info["theorems"]}


def unused(
    g: nx.DiGraph, *, include_definitions: bool = False, include_examples: bool = False
) -> list[str]:
    """Lemmas (propositions) nothing in the library uses and that state no paper result.

    Nodes pybridge's certificates name (attribute ``certificates``, see
    :func:`mark_certificate_uses`) are used, and left out.

    ``Example``s are concrete non-vacuity instances, leaves by design: they are
    left out unless ``include_examples``. With ``include_definitions``, unused
    definitions are listed as well.
    """
    headline = result_theorems(g)
    out = [
        n
        for n, d in g.nodes(data=True)
        if g.in_degree(n) == 0
        and n not in headline
        and not d.get("certificates")
        and (include_definitions or d.get("prop"))
        and (include_examples or d.get("kind") != "example")
    ]
    return sorted(out, key=lambda n: sort_key(g, n))


def mark_certificate_uses(g: nx.DiGraph) -> None:
    """Set node attribute ``certificates``: named by pybridge's own Coq certificates."""
    named = used_by_certificates(g)
    for n, d in g.nodes(data=True):
        d["certificates"] = n in named


def node_json(g: nx.DiGraph, name: str) -> dict:
    """One node as a JSON-ready dict, with its direct uses and users."""
    d = g.nodes[name]
    return {
        "name": name,
        "kind": d["kind"],
        "file": d["file"],
        "line": d["line"],
        "statement": d["statement"],
        "axioms": list(d["axioms"]),
        "states": list(d["states"]),
        "serves": list(d["serves"]),
        "certificates": bool(d.get("certificates")),
        "uses": sorted(g.successors(name), key=lambda n: sort_key(g, n)),
        "used_by": sorted(g.predecessors(name), key=lambda n: sort_key(g, n)),
    }


def to_node_link(g: nx.DiGraph) -> dict:
    """networkx node-link JSON of the whole graph (edges under ``links``)."""
    return nx.node_link_data(g, edges="links")


def summary(g: nx.DiGraph) -> dict:
    """Counts per module and kind, for reports."""
    per_file: dict[str, int] = {}
    per_kind: dict[str, int] = {}
    for _, d in g.nodes(data=True):
        per_file[d["file"]] = per_file.get(d["file"], 0) + 1
        per_kind[d["kind"]] = per_kind.get(d["kind"], 0) + 1
    return {"nodes": g.number_of_nodes(), "edges": g.number_of_edges(),
            "per_file": per_file, "per_kind": per_kind}
