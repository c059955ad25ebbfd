"""The formal library: no gaps, allowed assumptions only, non-vacuous, map in sync."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from pybridge.coq import CoqBackend
from pybridge.coq.protocol import parse_assumptions
from pybridge.prover import ALLOWED_AXIOMS, PRIMITIVE_INT_AXIOMS
from pybridge.results import all_theorem_names, load_results, markdown_table

ROOT = Path(__file__).resolve().parents[2]
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


THEORY_FILES = sorted(THEORIES.rglob("*.v"))
PAPER = THEORIES / "spec" / "Paper.v"
#: What a file that only defines may not contain (proofs, tactics, assumptions).
PROOF_WORDS = re.compile(
    r"\b(Lemma|Theorem|Corollary|Proposition|Fact|Remark|Example|Proof|Qed|Defined|Admitted"
    r"|Ltac|Instance|Program|Obligation)\b|" + FORBIDDEN.pattern
)
#: `From Absorb Require Import X Y.` and `From Absorb.decide Require Import X.` (any folder).
ABSORB_IMPORT = re.compile(r"From\s+Absorb(?:\.\w+)*\s+Require\s+(?:Import|Export)?\s*([^.]*)\.")


@pytest.mark.parametrize("path", THEORY_FILES, ids=lambda p: str(p.relative_to(THEORIES)))
def test_no_gaps_in_library(path: Path) -> None:
    found = FORBIDDEN.findall(strip_comments(path.read_text()))
    assert found == [], f"{path.name} contains {found}"


@pytest.mark.parametrize("path", THEORY_FILES, ids=lambda p: str(p.relative_to(THEORIES)))
def test_every_file_says_what_it_proves(path: Path) -> None:
    assert path.read_text().lstrip().startswith("(** *"), f"{path.name} has no header comment"


def test_every_theory_file_is_built() -> None:
    listed = {
        line.strip()
        for line in (ROOT / "coq" / "_CoqProject").read_text().splitlines()
        if line.strip().endswith(".v")
    }
    on_disk = {f"theories/{p.relative_to(THEORIES).as_posix()}" for p in THEORY_FILES}
    assert on_disk == listed


def test_file_base_names_unique() -> None:
    """Short imports (`From Absorb Require Import Ridge`) resolve by base name."""
    stems = [p.stem for p in THEORY_FILES]
    assert sorted(stems) == sorted(set(stems))


def absorb_imports(text: str) -> list[str]:
    """Base names of the library modules a Coq file requires."""
    names: list[str] = []
    for group in ABSORB_IMPORT.findall(strip_comments(text)):
        names += [n.rsplit(".", 1)[-1] for n in group.split()]
    return names


def proof_words_in_closure(start: Path) -> dict[str, list[str]]:
    """Proof words in ``start`` and in every library file it imports, transitively."""
    by_stem = {p.stem: p for p in THEORY_FILES}
    seen: dict[str, list[str]] = {}
    todo = [start]
    while todo:
        path = todo.pop()
        if path.stem in seen:
            continue
        text = path.read_text()
        seen[path.stem] = [m.group(0) for m in PROOF_WORDS.finditer(strip_comments(text))]
        todo += [by_stem[n] for n in absorb_imports(text)]
    return {stem: words for stem, words in seen.items() if words}


def test_paper_imports_only_definitions() -> None:
    """No proof hides in the statements file or in what it imports."""
    assert absorb_imports(PAPER.read_text()), "Paper.v imports no definitions?"
    assert proof_words_in_closure(PAPER) == {}


def test_definition_check_catches_a_lemma(tmp_path: Path) -> None:
    """The check above fails on a file importing a file with proofs in it."""
    spec = tmp_path / "Spec.v"
    spec.write_text("From Absorb Require Import BlockDefs Blocks.\nDefinition X : Prop := True.\n")
    found = proof_words_in_closure(spec)
    assert "Blocks" in found and "Lemma" in found["Blocks"]
    assert "Spec" not in found and "BlockDefs" not in found


def test_definition_check_follows_folder_imports(tmp_path: Path) -> None:
    """`From Absorb.tools Require Import Blocks` is followed like a short import."""
    spec = tmp_path / "Spec.v"
    spec.write_text("From Absorb.tools Require Import Blocks.\nDefinition X : Prop := True.\n")
    assert "Blocks" in proof_words_in_closure(spec)


def paper_map() -> list[dict]:
    return tomllib.loads((ROOT / "coq" / "results.toml").read_text())["result"]


def coq_prefix(result_id: str) -> str:
    """The prefix of a result's Paper.v names: ``R8'`` -> ``R8p``, ``R11-stretch`` -> ``R11_stretch``
    (a prime or a hyphen is no Coq identifier)."""
    return result_id.replace("'", "p").replace("-", "_")


def test_coq_prefix() -> None:
    assert coq_prefix("R8'") == "R8p" and coq_prefix("R10") == "R10"
    assert coq_prefix("R11-stretch") == "R11_stretch"


def test_every_result_has_paper_statements_proved_first() -> None:
    """`statements` name Paper.v definitions; `theorems` starts with their proofs."""
    paper_text = strip_comments(PAPER.read_text())
    for r in paper_map():
        stmts = r.get("statements", [])
        assert stmts, f"{r['id']} has no statement in Paper.v"
        for stmt, proof in zip(stmts, r["theorems"]):
            assert stmt.startswith("Absorb.spec.Paper."), stmt
            short = stmt.rsplit(".", 1)[-1]
            assert short.startswith(coq_prefix(r["id"]) + "_"), stmt
            assert re.search(rf"Definition {short} : Prop :=", paper_text), stmt
            assert proof == f"Absorb.results.PaperProofs.{short.lower()}", (stmt, proof)


def test_paper_statements_proved_with_allowed_axioms(backend: CoqBackend) -> None:
    """Each statement's proof proves exactly it, with the allowed axioms only."""
    pairs = [(s, p) for r in paper_map() for s, p in zip(r["statements"], r["theorems"])]
    infos = backend.describe([p for _, p in pairs] + [s for s, _ in pairs])
    for stmt, proof in pairs:
        assert infos[stmt].exists, f"{stmt} is not in the compiled library"
        info = infos[proof]
        assert info.exists, f"{proof} is not in the compiled library"
        assert info.statement == "Paper." + stmt.rsplit(".", 1)[-1], (proof, info.statement)
        assert set(info.assumptions) <= ALLOWED_AXIOMS, (proof, info.disallowed)
        assert not set(info.assumptions) & PRIMITIVE_INT_AXIOMS, proof


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
    name = "Absorb.spec.BlockDefs.no_such_lemma_here"
    info = backend.describe([name])[name]
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
    assert ids == ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R8'", "R9", "R10",
                   "R11", "R11-stretch", "R11'"]
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


# ------------------------------------------------- Coq names pybridge writes or reports

#: A Coq definition's head, for finding the file that defines a name.
_DEF_HEAD = re.compile(
    r"^\s*(?:Lemma|Theorem|Corollary|Example|Definition|Fixpoint|Let|Inductive|Record)\s+([A-Za-z_][\w']*)",
    re.M,
)
#: Checker and certificate lemmas the certificate writers apply by their short name.
_CERT_NAME = re.compile(r"^(?:cert|check)_[a-z0-9_]*[a-z0-9]$")


def full_name_of(short: str) -> list[str]:
    """``Absorb.folder.File.short`` for each library file that defines ``short``."""
    out = []
    for path in THEORY_FILES:
        if short in _DEF_HEAD.findall(strip_comments(path.read_text())):
            rel = path.relative_to(THEORIES).with_suffix("")
            out.append("Absorb." + ".".join(rel.parts) + "." + short)
    return out


def certificate_template_names() -> list[str]:
    """Full names of the checkers and ``cert_*`` lemmas in pybridge's certificate templates."""
    from pybridge.certify.kinds import CertificateKind
    from pybridge.certify.uses import literal_identifiers

    shorts = {k.lemma for k in CertificateKind}
    for module in sorted((ROOT / "pybridge" / "coq").glob("certificates*.py")):
        source = module.read_text()
        shorts |= {i for i in literal_identifiers(source) if _CERT_NAME.match(i)}
    names = []
    for short in sorted(shorts):
        found = full_name_of(short)
        assert len(found) == 1, f"certificate template name {short}: defined in {found or 'no file'}"
        names += found
    return names


def registry_names() -> list[str]:
    """Every Coq name the activation registry and the decision routes report."""
    from pybridge.activations import REGISTRY, qualified
    from pybridge.decision import width_route

    names = [n for spec in REGISTRY.values() for n in spec.coq_names]
    names += [*width_route.BELOW_THEOREM.values(), width_route.RELU_BIAS_GROUPED]
    names += ["Absorb.results.Biases.odd_part_absorbable_bias", "Absorb.results.FlipSigns.odd_part_absorbable"]
    return [qualified(n) for n in names]


def test_qualified_refuses_short_names() -> None:
    from pybridge.activations import qualified

    assert qualified("Absorb.results.FlipSigns.odd_part_absorbable") == "Absorb.results.FlipSigns.odd_part_absorbable"
    for bad in ("FlipSigns.odd_part_absorbable", "Absorb.FlipSigns.odd_part_absorbable", "odd_part_absorbable"):
        with pytest.raises(ValueError):
            qualified(bad)


def test_full_name_of_finds_the_folder() -> None:
    assert full_name_of("relu_dim1_absorbable") == ["Absorb.decide.R8Absorbable.relu_dim1_absorbable"]
    assert full_name_of("no_such_lemma_here") == []


def test_registry_and_certificate_names_exist(backend: CoqBackend) -> None:
    """Each Coq name pybridge reports or writes into a certificate is in the compiled
    library under that full name (one describe run)."""
    names = sorted(set(registry_names() + certificate_template_names()))
    assert len(names) >= 40
    infos = backend.describe(names)
    absent = [n for n in names if not infos[n].exists]
    assert not absent, absent
