"""The lemma graph's extraction: coq-dpdgraph runs, statements, axioms.

Three ``coqc`` runs over the compiled library, each a generated file whose
identifiers all come from ``_CoqProject`` or from Coq's own output (validated):

1. ``Print FileDependGraph`` of the library modules: the library's nodes and uses;
2. ``Print DependGraph`` of one constant that mentions every library node (its full
   closure, standard library and Coquelicot included) plus ``Check`` of every node;
3. ``Print Assumptions`` of the few closure nodes without a body.

A node's axioms are the assumptions of the body-less constants it reaches in the
closure. This equals ``Print Assumptions`` node by node (tests compare them with
:meth:`CoqBackend.describe` with ``closure=False``) at a fraction of the cost:
``Print Assumptions`` walks the whole closure afresh for every node.
:func:`closure_facts` does the same for a list of names (``prove``).

coq-dpdgraph prints a node's path with the module's last component only; the
paths are put back in full (``results.Biases``) from the library's module list.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import networkx as nx

from pybridge.coq.library_home import coq_environment
from pybridge.coq.protocol import PREFIX, marked, parse_assumptions, split_marked
from pybridge.errors import InputError, ProverUnavailable
from pybridge.files import atomic_write_text

if TYPE_CHECKING:  # annotations only: the backend reaches this module through the queries
    from pybridge.coq.backend import CoqBackend

_MODULE_RE = re.compile(r"Absorb(\.[A-Za-z_][A-Za-z0-9_']*)+")
_QUALID_RE = re.compile(r"[^\W\d][\w']*(\.[^\W\d][\w']*)*")
_NODE_RE = re.compile(r'^N:\s+(\d+)\s+"([^"]*)"\s+\[(.*)\];\s*$')
_EDGE_RE = re.compile(r"^E:\s+(\d+)\s+(\d+)\s")
_ATTR_RE = re.compile(r'(\w+)=("([^"]*)"|[^,\s]*)')
_ROOT = "pybridge_graph_root"

_KEYWORDS = (
    "Theorem", "Lemma", "Corollary", "Proposition", "Fact", "Remark", "Example",
    "Definition", "Fixpoint", "CoFixpoint", "Let", "Axiom", "Parameter", "Hypothesis",
    "Conjecture", "Variable", "Inductive", "CoInductive", "Variant", "Record",
    "Structure", "Class", "Instance", "Program Definition", "Program Fixpoint",
    "Program Lemma", "Program Instance", "Function", "Scheme", "Canonical Structure",
)
_KEYWORD_RE = re.compile(
    r"(?:^|[\s.])(?:#\[[^\]]*\]\s*)?(?:(?:Local|Global|Polymorphic|Monomorphic|Private)\s+)*("
    + "|".join(sorted((k.replace(" ", r"\s+") for k in _KEYWORDS), key=len, reverse=True))
    + r")\s+$"
)
_GLOB_KINDS = frozenset(
    {"def", "prf", "ax", "ind", "constr", "rec", "proj", "inst", "class", "coind",
     "scheme", "meth", "var", "defax", "prfax", "thm", "fix", "cofix"}
)


@dataclass(frozen=True)
class DpdNode:
    """One ``N:`` line of a coq-dpdgraph file; ``qualid`` is ``path.name``."""

    ident: int
    name: str
    path: str
    kind: str
    prop: bool
    body: bool

    @property
    def qualid(self) -> str:
        return f"{self.path}.{self.name}" if self.path else self.name


@dataclass(frozen=True)
class CoqFacts:
    """Everything the Coq runs found out about the library."""

    nodes: list[DpdNode]
    edges: list[tuple[int, int]]
    statements: dict[str, str]
    axioms: dict[str, tuple[str, ...]]


# --------------------------------------------------------------------------- parsing


def parse_dpd(text: str) -> tuple[list[DpdNode], list[tuple[int, int]]]:
    """Nodes and edges ``(user, used)`` of a ``.dpd`` file written by coq-dpdgraph."""
    nodes: list[DpdNode] = []
    edges: list[tuple[int, int]] = []
    for line in text.splitlines():
        if line.startswith("E:"):
            m = _EDGE_RE.match(line)
            if m:
                edges.append((int(m.group(1)), int(m.group(2))))
            continue
        m = _NODE_RE.match(line)
        if m:
            attrs = {k: (q if v.startswith('"') else v) for k, v, q in _ATTR_RE.findall(m.group(3))}
            nodes.append(
                DpdNode(
                    int(m.group(1)),
                    m.group(2),
                    attrs.get("path", ""),
                    attrs.get("kind", "cnst"),
                    attrs.get("prop") == "yes",
                    attrs.get("body", "yes") == "yes",
                )
            )
    return nodes, edges


def parse_glob(text: str) -> dict[str, int]:
    """Byte offset of each definition in a ``.glob`` file, keyed by module-qualified name.

    Definition lines read ``kind start:end modpath name`` (``<>`` is the empty path).
    """
    out: dict[str, int] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) != 4 or parts[0] not in _GLOB_KINDS or ":" not in parts[1]:
            continue
        start = parts[1].split(":")[0]
        if start.isdigit():
            qual = parts[3] if parts[2] == "<>" else f"{parts[2]}.{parts[3]}"
            out.setdefault(qual, int(start))
    return out


def source_kind(source: bytes, offset: int) -> str | None:
    """The vernacular keyword (``lemma``, ``definition``...) just before ``offset``."""
    before = source[max(0, offset - 200) : offset].decode("utf-8", errors="replace")
    m = _KEYWORD_RE.search(before)
    return " ".join(m.group(1).split()).lower() if m else None


def parse_checks(stdout: str, count: int) -> list[str]:
    """Types printed by ``count`` ``Check`` commands separated by marker checks."""
    out = []
    for chunk in split_marked(stdout, count):
        body = chunk.split("\n", 1)[1] if "\n" in chunk else ""
        body = body.strip()
        if body.startswith(":"):
            body = body[1:]
        out.append(" ".join(body.split()))
    return out


def parse_assumption_runs(stdout: str, count: int) -> list[tuple[str, ...]]:
    """Assumptions printed by ``count`` ``Print Assumptions`` separated by marker checks."""
    return [parse_assumptions(c) for c in split_marked(stdout, count)]


def qualify_path(path: str, modules: list[str]) -> str:
    """A coq-dpdgraph ``path`` with the library's folders put back (``Biases`` ->
    ``results.Biases``); paths already full, and other libraries' paths, unchanged."""
    inner = {m[len(PREFIX) + 1:] for m in modules}
    if not path or path in inner:
        return path
    head, _, rest = path.partition(".")
    owners = [m for m in inner if m.rsplit(".", 1)[-1] == head]
    if len(owners) != 1:
        return path
    return owners[0] + ("." + rest if rest else "")


def _qualified(nodes: list[DpdNode], modules: list[str]) -> list[DpdNode]:
    return [replace(n, path=qualify_path(n.path, modules)) for n in nodes]


# --------------------------------------------------------------------------- running


def check_module(name: str) -> str:
    """``name`` if it is a module path of the library, else InputError."""
    if not _MODULE_RE.fullmatch(name):
        raise InputError(f"_CoqProject lists a file that is not a Coq module name: {name!r}")
    return name


def _qualid(name: str) -> str:
    if not _QUALID_RE.fullmatch(name):
        raise ProverUnavailable(f"coq-dpdgraph printed an unexpected name: {name!r}")
    return name


def _run(backend: CoqBackend, tmp: Path, stem: str, lines: list[str]) -> subprocess.CompletedProcess:
    path = tmp / f"{stem}.v"
    path.write_text("\n".join(lines) + "\n")
    return subprocess.run(backend.coqc_args() + [str(path)], capture_output=True, text=True, cwd=tmp,
                          env=coq_environment())


def _fail(what: str, proc: subprocess.CompletedProcess) -> ProverUnavailable:
    tail = " | ".join((proc.stdout + proc.stderr).strip().splitlines()[-3:])
    return ProverUnavailable(f"{what} failed: {tail}")


def _marked(commands: list[str]) -> list[str]:
    return marked([[cmd] for cmd in commands])


def _closure_axioms(
    closure_nodes: list[DpdNode],
    closure_edges: list[tuple[int, int]],
    leaf_axioms: dict[int, tuple[str, ...]],
) -> dict[int, frozenset[str]]:
    """Axioms reachable from every closure node (memoised over strongly connected components)."""
    g = nx.DiGraph()
    g.add_nodes_from(n.ident for n in closure_nodes)
    g.add_edges_from(closure_edges)
    cond = nx.condensation(g)
    members = cond.graph["mapping"]
    own: dict[int, set[str]] = {c: set() for c in cond}
    for ident, axioms in leaf_axioms.items():
        own[members[ident]].update(axioms)
    acc: dict[int, frozenset[str]] = {}
    for c in reversed(list(nx.topological_sort(cond))):
        s = set(own[c])
        for succ in cond.successors(c):
            s |= acc[succ]
        acc[c] = frozenset(s)
    return {ident: acc[members[ident]] for ident in g}


def _leaf_assumptions(
    backend: CoqBackend, tmp: Path, requires: list[str], leaves: list[DpdNode]
) -> dict[int, tuple[str, ...]]:
    """``Print Assumptions`` of each body-less constant, split over parallel ``coqc`` runs."""
    if not leaves:
        return {}
    jobs = max(1, min(len(leaves), os.cpu_count() or 1, 4))
    chunks = [leaves[k::jobs] for k in range(jobs)]
    procs = []
    for k, chunk in enumerate(chunks):
        path = tmp / f"Assumptions{k}.v"
        lines = requires + _marked([f"Print Assumptions {_qualid(n.qualid)}." for n in chunk])
        path.write_text("\n".join(lines) + "\n")
        procs.append(subprocess.Popen(
            backend.coqc_args() + [str(path)], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, cwd=tmp, env=coq_environment(),
        ))
    out: dict[int, tuple[str, ...]] = {}
    for chunk, proc in zip(chunks, procs):
        stdout, stderr = proc.communicate()
        if proc.returncode != 0:
            raise _fail("Print Assumptions of the library's axioms",
                        subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr))
        for n, found in zip(chunk, parse_assumption_runs(stdout, len(chunk))):
            out[n.ident] = found
    return out


def _installation_key(backend: CoqBackend) -> str:
    """Identifies the Coq installation: version, library location and dpdgraph/Coquelicot builds."""
    coqc = backend.coqc_args()[0]
    version = subprocess.run([coqc, "--version"], capture_output=True, text=True).stdout
    where = subprocess.run([coqc, "-where"], capture_output=True, text=True).stdout.strip()
    stamps = []
    for sub in ("theories/Reals/Rdefinitions.vo", "theories/Logic/Classical_Prop.vo",
                "user-contrib/Coquelicot/Coquelicot.vo"):
        f = Path(where) / sub
        stamps.append(f"{sub}:{f.stat().st_mtime_ns if f.exists() else 0}")
    text = "\n".join([coqc, version, where, *stamps])
    return hashlib.sha256(text.encode()).hexdigest()[:20]


class AssumptionCache:
    """Assumptions of constants outside the library, per Coq installation, in one JSON file.

    These are the body-less constants of the standard library (sealed real-number
    fields, classical axioms); ``Print Assumptions`` on each costs about a second
    and their answer only changes with the installation, which the file name keys.
    """

    def __init__(self, directory: Path, key: str) -> None:
        self.path = directory / f"coq-assumptions-{key}.json"
        self.entries: dict[str, tuple[str, ...]] = {}
        try:
            raw = json.loads(self.path.read_text())
        except (OSError, ValueError):
            raw = {}
        if isinstance(raw, dict):
            for k, v in raw.items():
                if isinstance(k, str) and isinstance(v, list) and all(isinstance(a, str) for a in v):
                    self.entries[k] = tuple(v)

    def save(self) -> None:
        """Write the file atomically; a cache that cannot be written is skipped."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(self.path, json.dumps({k: list(v) for k, v in sorted(self.entries.items())},
                                                    indent=1), prefix=".assumptions-")
        except OSError:
            pass


def _closure_run(backend: CoqBackend, tmp: Path, requires: list[str], full: list[str],
                 ours: set[str], cache_dir: Optional[Path], modules: list[str]
                 ) -> tuple[list[str], dict[str, tuple[str, ...]]]:
    """Statements and axioms of the constants ``full`` through their dpdgraph closure.

    ``ours``: qualids of the library's own nodes (their leaves are always asked afresh)."""
    # One constant mentioning every node; let-ins keep type inference linear.
    root_body = " ".join(f"let _ := @{q} in" for q in full) + " tt"
    proc = _run(backend, tmp, "Closure", requires + [
        f"Definition {_ROOT} : unit := {root_body}.",
        'Set DependGraph File "closure.dpd".',
        f"Print DependGraph {_ROOT}.",
    ] + _marked([f"Check @{q}." for q in full]))
    if proc.returncode != 0 or not (tmp / "closure.dpd").is_file():
        raise _fail("coq-dpdgraph on the library's closure", proc)
    types = parse_checks(proc.stdout, len(full))
    c_nodes, c_edges = parse_dpd((tmp / "closure.dpd").read_text())
    c_nodes = _qualified(c_nodes, modules)
    leaves = [n for n in c_nodes if not n.body and n.kind == "cnst"]
    cache = AssumptionCache(cache_dir, _installation_key(backend)) if cache_dir else None
    known: dict[int, tuple[str, ...]] = {}
    if cache is not None:
        known = {n.ident: cache.entries[n.qualid] for n in leaves
                 if n.qualid not in ours and n.qualid in cache.entries}
    todo = [n for n in leaves if n.ident not in known]
    leaf_axioms = {**known, **_leaf_assumptions(backend, tmp, requires, todo)}
    if cache is not None and any(n.qualid not in ours for n in todo):
        for n in todo:
            if n.qualid not in ours:
                cache.entries[n.qualid] = leaf_axioms[n.ident]
        cache.save()
    reach = _closure_axioms(c_nodes, c_edges, leaf_axioms)
    by_qualid = {f"{PREFIX}.{n.qualid}": n.ident for n in c_nodes}
    axioms = {}
    for q in full:
        ident = by_qualid.get(q)
        axioms[q] = tuple(sorted(reach.get(ident, frozenset()))) if ident is not None else ()
    return types, axioms


def _requires(mods: list[str]) -> list[str]:
    return (["From Coq Require Import Reals.", "Open Scope R_scope.", "Require dpdgraph.dpdgraph."]
            + [f"Require {m}." for m in mods])


def gather(backend: CoqBackend, modules: list[str], cache_dir: Path | None = None) -> CoqFacts:
    """Run Coq on the compiled library: nodes, uses, statements and axioms.

    ``cache_dir`` (None: no cache) keeps the assumptions of standard-library
    constants between runs; the library's own constants are always asked afresh.
    """
    mods = [check_module(m) for m in modules]
    requires = _requires(mods)
    with tempfile.TemporaryDirectory(prefix="pybridge-graph-") as tmp_name:
        tmp = Path(tmp_name)
        proc = _run(backend, tmp, "Library", requires + [
            'Set DependGraph File "library.dpd".',
            "Print FileDependGraph " + " ".join(mods) + ".",
        ])
        if proc.returncode != 0 or not (tmp / "library.dpd").is_file():
            raise _fail("coq-dpdgraph (is libcoq-dpdgraph installed?)", proc)
        nodes, edges = parse_dpd((tmp / "library.dpd").read_text())
        nodes = _qualified(nodes, mods)
        if not nodes:
            return CoqFacts([], [], {}, {})
        full = [_qualid(f"{PREFIX}." + n.qualid) for n in nodes]
        types, axioms = _closure_run(backend, tmp, requires, full, {n.qualid for n in nodes}, cache_dir, mods)
        return CoqFacts(nodes, edges, dict(zip(full, types)), axioms)


def closure_facts(backend: CoqBackend, names: list[str], cache_dir: Path | None = None
                  ) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """Statements and axioms of the fully qualified ``names`` (``Absorb.dir.File.x``), all
    existing, in one coq-dpdgraph run: the same answers as ``Check`` and ``Print Assumptions``."""
    mods = [check_module(m) for m in backend.modules()]
    full = [_qualid(n) for n in names]
    with tempfile.TemporaryDirectory(prefix="pybridge-closure-") as tmp_name:
        ours = {n[len(PREFIX) + 1:] for n in full}
        types, axioms = _closure_run(backend, Path(tmp_name), _requires(mods), full, ours, cache_dir, mods)
    return dict(zip(full, types)), axioms
