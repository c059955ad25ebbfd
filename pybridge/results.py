"""The paper's results and the status of their formal proofs.

The map from result ids to Coq names is ``coq/results.toml`` (the only place it
lives): per result its statements (definitions in the statements file, ``Paper.v``;
the key may be absent), the theorems proving them and concrete instances. This
module reads it and asks the prover for each theorem's statement and
assumptions, and for each statement's definition.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pybridge.prover import ProverBackend, TheoremInfo

Status = Literal["proved", "partial", "missing"]


@dataclass(frozen=True)
class ResultEntry:
    id: str
    title: str
    theorems: tuple[str, ...]
    missing: str
    instances: tuple[str, ...] = ()
    remark: str = ""
    #: the result's statements in the statements file (``Paper.v`` definitions); may be empty
    statements: tuple[str, ...] = ()


@dataclass(frozen=True)
class ResultStatus:
    entry: ResultEntry
    status: Status
    note: str
    theorems: tuple[TheoremInfo, ...]
    #: the statements' definitions as Coq prints them (``statement``: the unfolded Prop)
    statements: tuple[TheoremInfo, ...] = ()

    def to_json(self) -> dict:
        return {
            "id": self.entry.id,
            "title": self.entry.title,
            "status": self.status,
            "note": self.note,
            "instances": list(self.entry.instances),
            "statements": [
                {"name": t.name, "exists": t.exists, "text": t.statement} for t in self.statements
            ],
            "theorems": [
                {
                    "name": t.name,
                    "exists": t.exists,
                    "statement": t.statement,
                    "assumptions": list(t.assumptions),
                    "disallowed_assumptions": list(t.disallowed),
                }
                for t in self.theorems
            ],
        }


def load_results(path: Path) -> list[ResultEntry]:
    """Read ``results.toml``."""
    data = tomllib.loads(path.read_text())
    return [
        ResultEntry(
            r["id"],
            r["title"],
            tuple(r.get("theorems", ())),
            r.get("missing", "").strip(),
            tuple(r.get("instances", ())),
            r.get("remark", "").strip(),
            tuple(r.get("statements", ())),
        )
        for r in data["result"]
    ]


def all_theorem_names(entries: list[ResultEntry]) -> list[str]:
    names: list[str] = []
    for e in entries:
        names += [t for t in e.theorems if t not in names]
    return names


def all_statement_names(entries: list[ResultEntry]) -> list[str]:
    names: list[str] = []
    for e in entries:
        names += [t for t in e.statements if t not in names]
    return names


def _definitions(backend: ProverBackend, names: list[str]) -> dict[str, TheoremInfo]:
    """Bodies of the statements, when the backend can print definitions."""
    ask = getattr(backend, "definitions", None)
    if not names:
        return {}
    if ask is None:
        return {n: TheoremInfo(n, None, ()) for n in names}
    return ask(names)


def assess(entries: list[ResultEntry], backend: ProverBackend) -> list[ResultStatus]:
    """Status of each result against the compiled library."""
    infos = backend.describe(all_theorem_names(entries)) if entries else {}
    stmt_names = all_statement_names(entries)
    defs = _definitions(backend, stmt_names)
    out = []
    for e in entries:
        ts = tuple(infos[t] for t in e.theorems)
        ss = tuple(defs[t] for t in e.statements)
        absent = [t.name for t in ts if not t.exists]
        bad = sorted({a for t in ts for a in t.disallowed})
        status: Status
        if not ts:
            status, note = "missing", e.missing or "no Coq theorem yet"
        elif absent:
            status, note = "missing", "not in the compiled library: " + ", ".join(absent)
        elif bad:
            status, note = "partial", "rests on disallowed assumptions: " + ", ".join(bad)
        elif not e.instances:
            status, note = "partial", "no concrete instance shows the hypotheses can hold"
        elif e.missing:
            status, note = "partial", e.missing
        else:
            status, note = "proved", e.remark
        out.append(ResultStatus(e, status, note, ts, ss))
    return out


def short_name(name: str) -> str:
    """``Absorb.results.FlipSigns.odd_part_absorbable`` -> ``FlipSigns.odd_part_absorbable``."""
    parts = name.split(".")
    return ".".join(parts[-2:]) if len(parts) > 2 else name


def markdown_table(statuses: list[ResultStatus]) -> str:
    """The README's table of results (kept in sync with ``prove`` by the tests)."""
    lines = ["| id | result | statement | status | Coq theorems | notes |", "|---|---|---|---|---|---|"]
    for s in statuses:
        stmts = ", ".join(f"`{short_name(t)}`" for t in s.entry.statements) or "-"
        names = ", ".join(f"`{short_name(t.name)}`" for t in s.theorems) or "-"
        note = s.note.replace("|", "\\|").replace("\n", " ")
        lines.append(f"| {s.entry.id} | {s.entry.title} | {stmts} | {s.status} | {names} | {note} |")
    return "\n".join(lines) + "\n"
