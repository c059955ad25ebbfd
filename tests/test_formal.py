"""The formal library: no gaps, allowed assumptions only, non-vacuous, map in sync."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pybridge.prover import ALLOWED_AXIOMS, PRIMITIVE_INT_AXIOMS, CoqBackend, parse_assumptions
from pybridge.results import all_theorem_names, assess, load_results, markdown_table

ROOT = Path(__file__).resolve().parent.parent
THEORIES = ROOT / "coq" / "theories"
FORBIDDEN = re.compile(
    r"\b(Admitted|admit|Axiom|Axioms|Parameter|Parameters|Conjecture|Hypothesis|Hypotheses)\b"
)


def strip_comments(text: str) -> str:
    """Coq source without its (possibly nested) comments and string literals."""
    out, depth, i = [], 0, 0
    while i < len(text):
        if text.startswith("(*", i):
            depth, i = depth + 1, i + 2
        elif depth and text.startswith("*)", i):
            depth, i = depth - 1, i + 2
        elif not depth and text[i] == '"':
            j = text.find('"', i + 1)
            i = len(text) if j < 0 else j + 1
        else:
            if not depth:
                out.append(text[i])
            i += 1
    return "".join(out)


def test_strip_comments_sees_through_nesting() -> None:
    src = 'Lemma a : True. (* Admitted (* nested *) admit *) Proof. exact I. Qed. Axiom x : "Admitted".'
    assert FORBIDDEN.findall(strip_comments(src)) == ["Axiom"]


@pytest.mark.parametrize("path", sorted(THEORIES.glob("*.v")), ids=lambda p: p.name)
def test_no_gaps_in_library(path: Path) -> None:
    found = FORBIDDEN.findall(strip_comments(path.read_text()))
    assert found == [], f"{path.name} contains {found}"


def test_every_theory_file_is_built() -> None:
    listed = {
        line.strip()
        for line in (ROOT / "coq" / "_CoqProject").read_text().splitlines()
        if line.strip().endswith(".v")
    }
    on_disk = {f"theories/{p.name}" for p in THEORIES.glob("*.v")}
    assert on_disk == listed


def test_parse_assumptions() -> None:
    text = (
        "Axioms:\nClassicalDedekindReals.sig_forall_dec\n  : forall P : nat -> Prop,\n"
        "    (forall n, {P n} + {~ P n}) -> Prop\nfoo : nat\n"
    )
    assert parse_assumptions(text) == ("ClassicalDedekindReals.sig_forall_dec", "foo")
    assert parse_assumptions("Closed under the global context") == ()


def test_every_mapped_theorem_exists_with_allowed_axioms(backend: CoqBackend) -> None:
    entries = load_results(ROOT / "coq" / "results.toml")
    names = all_theorem_names(entries) + [i for e in entries for i in e.instances]
    infos = backend.describe(names)
    for name in names:
        info = infos[name]
        assert info.exists, f"{name} is not in the compiled library"
        assert set(info.assumptions) <= ALLOWED_AXIOMS, (name, info.disallowed)
        assert not set(info.assumptions) & PRIMITIVE_INT_AXIOMS, name


def test_results_nonvacuous(backend: CoqBackend) -> None:
    """Every result with theorems names concrete Coq instances of its hypotheses."""
    for e in load_results(ROOT / "coq" / "results.toml"):
        if e.theorems:
            assert e.instances, f"{e.id} has theorems but no non-vacuity instance"


def test_describe_reports_absent_names(backend: CoqBackend) -> None:
    info = backend.describe(["Absorb.Blocks.no_such_lemma_here"])["Absorb.Blocks.no_such_lemma_here"]
    assert not info.exists


def test_a_false_lemma_is_rejected(backend: CoqBackend) -> None:
    """The checking path fails on a wrong proof (so acceptance means something)."""
    bad = (
        "From Coq Require Import Reals Lra.\nFrom Absorb Require Import ActivationDefs.\n"
        "Open Scope R_scope.\nLemma wrong : relu (-1) = 1.\nProof. unfold relu. "
        "rewrite Rmax_right; lra. Qed.\n"
    )
    assert not backend.check_file(bad, stem="Wrong", timeout=60).accepted


def _cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pybridge.cli", *args],
        capture_output=True, text=True, cwd=ROOT, env=env,
    )


def test_prove_json_matches_library(statuses: list) -> None:
    proc = _cli("prove", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    ids = [r["id"] for r in doc["results"]]
    assert ids == ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]
    for got, want in zip(doc["results"], statuses):
        assert got["status"] == want.status
        assert [t["name"] for t in got["theorems"]] == list(want.entry.theorems)
        for t in got["theorems"]:
            assert t["exists"] and t["statement"]
            assert not t["disallowed_assumptions"]


def test_readme_table_in_sync(statuses: list) -> None:
    readme = (ROOT / "README.md").read_text()
    start, end = "<!-- results-table:start -->\n", "<!-- results-table:end -->"
    block = readme[readme.index(start) + len(start) : readme.index(end)]
    assert block.strip() == markdown_table(statuses).strip()


def test_prove_unknown_option_is_one_line() -> None:
    proc = _cli("prove", "--bogus")
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "--bogus" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_prove_without_coq_is_one_line(tmp_path: Path) -> None:
    env = dict(os.environ, PATH=str(tmp_path))
    proc = _cli("prove", env=env)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "coqc" in proc.stderr
