"""The paper view: each result's statement in mathematics, its Coq statements and status.

The mathematics is ``templates/paper.toml`` (KaTeX source, one entry per result
of ``../shared/paper.md``, R1-R10 with R8'); which Coq names state a result,
and so its status, come only from ``coq/results.toml`` and the compiled library
(the lemma graph). A result of the paper that ``results.toml`` does not list yet
is shown as missing; a result ``results.toml`` lists that the paper file lacks
is shown after the others, with its title only.

Status, as ``pybridge prove`` computes it, but read from the graph: ``missing``
when no theorem is listed or one is not in the library; ``partial`` when one
rests on an axiom outside :data:`pybridge.prover.ALLOWED_AXIOMS`, when no
concrete instance is listed (or one is absent) or ``missing`` text is given;
else ``proved``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Literal, Optional

import networkx as nx

from pybridge.prover import ALLOWED_AXIOMS
from pybridge.site.graph import theorem_node

Status = Literal["proved", "partial", "missing"]


@dataclass(frozen=True)
class PaperStatement:
    """One result as the paper states it (from ``templates/paper.toml``)."""

    id: str
    name: str
    tex: str
    text: str


@dataclass(frozen=True)
class PaperResult:
    """One row of the paper view."""

    id: str
    name: str
    title: str
    tex: str
    text: str
    status: Status
    note: str
    statements: tuple[str, ...] = ()
    theorems: tuple[str, ...] = ()
    instances: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()
    listed: bool = True

    def to_json(self) -> dict:
        return {
            "id": self.id, "name": self.name, "title": self.title, "tex": self.tex,
            "text": self.text, "status": self.status, "note": self.note,
            "statements": list(self.statements), "theorems": list(self.theorems),
            "instances": list(self.instances), "absent": list(self.absent),
            "listed": self.listed,
        }


def load_paper(path: Optional[Path] = None) -> list[PaperStatement]:
    """The paper's results in order (``templates/paper.toml`` unless ``path``)."""
    if path is None:
        text = resources.files("pybridge").joinpath("templates/paper.toml").read_text("utf-8")
    else:
        text = path.read_text("utf-8")
    data = tomllib.loads(text)
    return [PaperStatement(r["id"], r.get("name", ""), r.get("tex", ""), r.get("text", ""))
            for r in data.get("result", [])]


def load_setting() -> str:
    """The paper's setting in one paragraph (shown above the results)."""
    text = resources.files("pybridge").joinpath("templates/paper.toml").read_text("utf-8")
    return str(tomllib.loads(text).get("setting", {}).get("text", ""))


def _listed(coq_dir: Path) -> list[dict]:
    toml = coq_dir / "results.toml"
    if not toml.is_file():
        return []
    return list(tomllib.loads(toml.read_text("utf-8")).get("result", []))


def _status(g: nx.DiGraph, entry: dict, theorems: list[str], instances: list[str],
            absent: list[str]) -> tuple[Status, str]:
    missing_text = str(entry.get("missing", "")).strip()
    if not theorems and not absent:
        return "missing", missing_text or "no Coq theorem yet"
    if absent:
        return "missing", "not in the compiled library: " + ", ".join(absent)
    bad = sorted({a for t in theorems for a in g.nodes[t].get("axioms", ())
                  if a not in ALLOWED_AXIOMS})
    if bad:
        return "partial", "rests on disallowed assumptions: " + ", ".join(bad)
    if not instances:
        return "partial", "no concrete instance shows the hypotheses can hold"
    if missing_text:
        return "partial", missing_text
    return "proved", str(entry.get("remark", "")).strip()


def paper_results(g: nx.DiGraph, coq_dir: Path,
                  paper: Optional[list[PaperStatement]] = None) -> list[PaperResult]:
    """Every result of the paper and of ``results.toml``, in the paper's order."""
    paper = load_paper() if paper is None else paper
    listed = {str(r.get("id")): r for r in _listed(coq_dir)}
    order = [p.id for p in paper] + [i for i in listed if i not in {p.id for p in paper}]
    by_id = {p.id: p for p in paper}
    out: list[PaperResult] = []
    for rid in order:
        p = by_id.get(rid, PaperStatement(rid, "", "", ""))
        entry = listed.get(rid)
        if entry is None:
            out.append(PaperResult(rid, p.name, p.name, p.tex, p.text, "missing",
                                   "not yet in coq/results.toml", listed=False))
            continue
        names = [theorem_node(g, str(t)) for t in entry.get("theorems", ())]
        stated = [theorem_node(g, str(t)) for t in entry.get("statements", ())]
        inst = [theorem_node(g, str(t)) for t in entry.get("instances", ())]
        absent = [t for t in names + stated if t not in g]
        present = [t for t in names + stated if t in g]
        status, note = _status(g, entry, present, [i for i in inst if i in g], absent)
        absent_inst = [i for i in inst if i not in g]
        if status == "proved" and absent_inst:
            status, note = "partial", "instance not in the library: " + ", ".join(absent_inst)
        out.append(PaperResult(
            rid, p.name or str(entry.get("title", "")), str(entry.get("title", "")), p.tex, p.text,
            status, note, tuple(t for t in stated if t in g), tuple(t for t in names if t in g),
            tuple(i for i in inst if i in g), tuple(absent),
        ))
    return out
