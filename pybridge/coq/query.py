"""The one protocol for asking Coq about named constants: statements and axioms.

A generated file requires the library, then runs commands separated by
``Check`` of a marker constant; the output between two markers belongs to one
command group. ``prove`` (:func:`describe`), the lemma graph
(:mod:`.dpdgraph`) and the certificates (:func:`final_assumptions`) all read
Coq's answers through this module.

:func:`describe` keeps its answers in a cache keyed on the compiled library
(the hash of every ``.vo`` file, :meth:`CoqBackend.library_digest`), so that a
second ``prove`` on an unchanged library asks Coq nothing.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

from pybridge.coq.library_home import coq_environment, default_cache_dir
from pybridge.coq.protocol import marked, parse_assumptions, parse_check, split_marked
from pybridge.errors import ProverUnavailable
from pybridge.files import atomic_write_text
from pybridge.prover import TheoremInfo

if TYPE_CHECKING:  # the backend calls into this module; the type is only for annotations
    from pybridge.coq.backend import CoqBackend

_NAME_RE = re.compile(r"[A-Za-z_][\w']*(\.[A-Za-z_][\w']*)*")
#: parallel coqc processes for one query (the machine has 2 cores)
JOBS = 2


def check_name(name: str) -> str:
    """``name`` if it is a (qualified) Coq identifier, else ValueError: never user text in Coq."""
    if not _NAME_RE.fullmatch(name):
        raise ValueError(f"invalid Coq name {name!r}")
    return name


def library_requires(backend: CoqBackend, extra: tuple[str, ...] = ()) -> list[str]:
    """The preamble of a query file: the reals, then every module of the library."""
    lines = ["From Coq Require Import Reals.", "Open Scope R_scope.", *extra]
    return lines + [f"Require {m}." for m in backend.modules()]


def run_groups(backend: CoqBackend, requires: list[str], groups: list[list[str]],
               *, jobs: int = JOBS, stem: str = "Query") -> Optional[list[str]]:
    """Run command groups over up to ``jobs`` parallel ``coqc`` processes.

    Returns each group's output in order, or None when some ``coqc`` failed
    (e.g. a name that does not exist)."""
    if not groups:
        return []
    jobs = max(1, min(jobs, len(groups), os.cpu_count() or 1))
    parts = [list(range(k, len(groups), jobs)) for k in range(jobs)]
    out: dict[int, str] = {}
    with tempfile.TemporaryDirectory(prefix="pybridge-query-") as tmp:
        procs = []
        for k, idx in enumerate(parts):
            path = Path(tmp) / f"{stem}{k}.v"
            path.write_text("\n".join(requires + marked([groups[i] for i in idx])) + "\n")
            procs.append(subprocess.Popen(backend.coqc_args() + [str(path)], stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, text=True, cwd=tmp,
                                          env=coq_environment()))
        failed = False
        for idx, proc in zip(parts, procs):
            stdout, _ = proc.communicate()
            if proc.returncode != 0:
                failed = True
                continue
            for i, chunk in zip(idx, split_marked(stdout, len(idx))):
                out[i] = chunk
    return None if failed else [out[i] for i in range(len(groups))]


# ---------------------------------------------------------------- describe


def _locate(backend: CoqBackend, requires: list[str], names: list[str]) -> dict[str, Optional[str]]:
    """The full name of each constant Coq can locate (None: unknown), in one cheap run."""
    chunks = run_groups(backend, requires, [[f"Locate {n}."] for n in names], jobs=1, stem="Locate")
    if chunks is None:
        raise ProverUnavailable("coqc cannot load the compiled library (run make -C coq)")
    out: dict[str, Optional[str]] = {}
    for n, c in zip(names, chunks):
        words = c.split()
        full = words[1] if len(words) >= 2 and words[0] == "Constant" else None
        out[n] = full if full and _NAME_RE.fullmatch(full) else None
    return out


def _existing(backend: CoqBackend, requires: list[str], names: list[str]) -> set[str]:
    return {n for n, f in _locate(backend, requires, names).items() if f is not None}


def _ask_each(backend: CoqBackend, requires: list[str], names: list[str]) -> dict[str, TheoremInfo]:
    """``Check`` and ``Print Assumptions`` per name, over parallel ``coqc`` runs (the slow way)."""
    groups = [[f"Check {n}.", f"Print Assumptions {n}."] for n in names]
    chunks = run_groups(backend, requires, groups)
    if chunks is None:
        raise ProverUnavailable("coqc failed while describing theorems")
    return {n: TheoremInfo(n, parse_check(c), parse_assumptions(c[c.find("Axioms:"):] if "Axioms:" in c else c))
            for n, c in zip(names, chunks)}


def _ask(backend: CoqBackend, names: list[str], closure: bool = True) -> dict[str, TheoremInfo]:
    """Locate every name, then statements and axioms of the existing ones: through their
    coq-dpdgraph closure (one run, the lemma graph's method), else one by one."""
    requires = library_requires(backend)
    full = _locate(backend, requires, names)
    present = [n for n in names if full[n] is not None]
    out = {n: TheoremInfo(n, None, ()) for n in names if full[n] is None}
    if not present:
        return out
    if closure:
        from pybridge.coq.dpdgraph import closure_facts

        try:
            types, axioms = closure_facts(backend, [full[n] or n for n in present], default_cache_dir())
        except ProverUnavailable:
            pass
        else:
            for n in present:
                f = full[n] or n
                out[n] = TheoremInfo(n, types[f], axioms[f])
            return out
    out.update(_ask_each(backend, requires, present))
    return out


#: answers kept for this many compiled libraries (older files are removed)
KEEP = 4


def _cache_path(backend: CoqBackend, directory: Path) -> Path:
    return directory / f"coq-describe-{backend.library_digest()}.json"


def _load_cache(path: Path) -> dict[str, TheoremInfo]:
    try:
        raw = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    out = {}
    if isinstance(raw, dict):
        for name, v in raw.items():
            if (isinstance(v, dict) and (v.get("statement") is None or isinstance(v.get("statement"), str))
                    and isinstance(v.get("assumptions"), list)):
                out[name] = TheoremInfo(name, v["statement"], tuple(str(a) for a in v["assumptions"]))
    return out


def _save_cache(path: Path, infos: dict[str, TheoremInfo]) -> None:
    doc = {n: {"statement": t.statement, "assumptions": list(t.assumptions)} for n, t in sorted(infos.items())}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(doc, indent=1))
        olds = sorted(path.parent.glob("coq-describe-*.json"), key=lambda f: f.stat().st_mtime)
        for old in olds[:-KEEP]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # a cache that cannot be written is skipped


def parse_print(chunk: str) -> Optional[str]:
    """The body of a definition as ``Print`` shows it (``name = body : type``), on one line."""
    head, eq, rest = chunk.partition(" =")
    if not eq:
        return None
    body = rest.split("\n     : ", 1)[0]
    return " ".join(body.split()) or None


def _ask_definitions(backend: CoqBackend, names: list[str]) -> dict[str, TheoremInfo]:
    requires = library_requires(backend)
    chunks = run_groups(backend, requires, [[f"Print {n}."] for n in names], jobs=1, stem="Print")
    if chunks is None:
        present = _existing(backend, requires, names)
        if present == set(names):
            raise ProverUnavailable("coqc failed while printing definitions")
        found = _ask_definitions(backend, [n for n in names if n in present]) if present else {}
        return {n: found.get(n, TheoremInfo(n, None, ())) for n in names}
    return {n: TheoremInfo(n, parse_print(c), ()) for n, c in zip(names, chunks)}


def _cached(backend: CoqBackend, names: list[str], key: str,
            ask: Callable[[CoqBackend, list[str]], dict[str, TheoremInfo]], cache: bool) -> dict[str, TheoremInfo]:
    for n in names:
        check_name(n)
    path = _cache_path(backend, default_cache_dir()) if cache else None
    known = _load_cache(path) if path is not None else {}
    todo = [n for n in dict.fromkeys(names) if key + n not in known]
    if todo:
        for n, info in ask(backend, todo).items():
            known[key + n] = info
        if path is not None:
            _save_cache(path, known)
    return {n: TheoremInfo(n, known[key + n].statement, known[key + n].assumptions) for n in names}


def definitions(backend: CoqBackend, names: list[str], *, cache: bool = True) -> dict[str, TheoremInfo]:
    """The body of each named definition (the statements file's Props), as ``Print`` shows it;
    ``statement=None`` for names Coq does not know. Cached like :func:`describe`."""
    return _cached(backend, names, "print:", _ask_definitions, cache)


def describe(backend: CoqBackend, names: list[str], *, cache: bool = True,
             closure: bool = True) -> dict[str, TheoremInfo]:
    """Statement (as ``Check`` prints it) and assumptions (as ``Print Assumptions``) of each name.

    Names Coq does not know get ``statement=None``. ``closure``: axioms through the
    names' coq-dpdgraph closure in one run (False: ``Print Assumptions`` name by
    name). Answers are cached per compiled library (``cache=False``: ask Coq afresh)."""
    key = "check:" if closure else "check-each:"
    return _cached(backend, names, key, lambda b, ns: _ask(b, ns, closure), cache)
