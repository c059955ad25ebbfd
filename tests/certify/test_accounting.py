"""Axioms counted part by part (``certify/accounting.py``): the driver proves a claim itself
from the certificate's ``exact`` term, prints the axioms of its local names, remembers the
library part, and checks the elaborated term holds no name it did not count. A term it
cannot read, or a name the certificate gives a meaning some other way, falls back to one
``Print Assumptions`` of the vetted theorem."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pybridge import load
from pybridge.certify import pipeline
from pybridge.certify.accounting import LITERAL_NAMES, ProofPlan, counted, proof_plan, term_names
from pybridge.certify.driver import Driver, write_driver
from pybridge.coq.backend import CoqBackend
from pybridge.decision import decide

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BODY = """From Absorb Require Import Blocks Certify.
Module Cert.
Definition d : nat := 2%nat.
Lemma gen_ok : check d = true.
Proof. vm_cast_no_check (eq_refl true). Qed.
Theorem verdict : claim d.
Proof. exact (cert_lemma relu d gen_ok). Qed.
End Cert.
"""


def test_plan_of_an_honest_term() -> None:
    abbreviation: dict[str, str] = {}
    plan = proof_plan(BODY, "verdict", "Slot_T_0.Cert", abbreviation, "T")
    assert plan == ProofPlan("( ext_0_T ext_1_T Slot_T_0.Cert.d Slot_T_0.Cert.gen_ok )",
                             ("Slot_T_0.Cert.d", "Slot_T_0.Cert.gen_ok"), ("cert_lemma", "relu"))
    assert abbreviation == {"cert_lemma": "ext_0_T", "relu": "ext_1_T"}


def test_literals_are_kept_and_their_constructors_counted() -> None:
    body = BODY.replace("exact (cert_lemma relu d gen_ok)", "exact (cert_lemma relu 2%nat [true; false] gen_ok)")
    plan = proof_plan(body, "verdict", "Slot_T_0.Cert", {}, "T")
    assert plan is not None and "(N.to_nat 2%N) (@cons bool true (@cons bool false (@nil bool)))" in plan.term
    assert set(plan.externals) == {"cert_lemma", "relu", *LITERAL_NAMES}
    assert all(counted(x, plan) for x in ("S", "O", "cons", "bool", "true"))


@pytest.mark.parametrize("term, declared", [
    ("(cert_lemma relu 2 gen_ok)", ""),  # a numeral in whatever scope is open
    ("(cert_lemma relu (d + 1) gen_ok)", ""),  # a notation
    ("(cert_lemma relu [d] gen_ok)", ""),  # a list of names
    ("(cert_lemma (fun x => x) gen_ok)", ""),  # a binder
    ("(Classical_Prop.classic _)", ""),  # a qualified name (a module of the certificate's own?)
    ("(cert_lemma relu cheat)", "Axiom cheat : forall P : Prop, P.\n"),  # a name given by an axiom
    ("(cert_lemma relu d gen_ok)", "Notation relu := d.\n"),  # a name given by a notation
])
def test_terms_not_counted(term: str, declared: str) -> None:
    abbreviation = {"earlier": "ext_0_T"}
    body = BODY.replace("Module Cert.\n", "Module Cert.\n" + declared).replace(
        "exact (cert_lemma relu d gen_ok)", f"exact {term}")
    assert proof_plan(body, "verdict", "Slot_T_0.Cert", abbreviation, "T") is None
    assert abbreviation == {"earlier": "ext_0_T"}  # nothing half-added


def test_printed_term_names_and_what_counts() -> None:
    plan = ProofPlan("", ("Slot_T_0.Cert.d", "Slot_T_0.Cert.gen_ok"), ("cert_lemma", "relu"))
    printed = "vetted_T_0 = \ncert_lemma relu Slot_T_0.Cert.d\n  (@Cert.gen_ok)\n     : Expected_T_0.claim\n"
    names = term_names(printed)
    assert names == ["cert_lemma", "relu", "Slot_T_0.Cert.d", "Cert.gen_ok"]
    assert all(counted(x, plan) for x in names)
    # a bare local name is some other constant (the slot is never imported); so is anything new
    assert not counted("gen_ok", plan) and not counted("Rplus", plan) and not counted("Other.d", plan)
    assert term_names("vetted_T_0 = \n(fun x : nat => x) 0\n     : T\n") is None  # a binder, a numeral
    assert term_names("vetted_T_0 = \ncert_lemma\n:\nT\n     : T\n") is None  # a cast
    assert term_names("no definition printed") is None


def test_an_error_on_the_library_lines_falls_back() -> None:
    drv = Driver("Vet_x", "", (), "T", library_lines=(10, 14))
    at = 'File "/tmp/pybridge-coq-abc/Vet_x.v", line {}, characters 0-4:\nError: no.'
    assert [pipeline._in_library_lines(at.format(k), drv) for k in (9, 10, 14, 15)] == [False, True, True, False]
    assert not pipeline._in_library_lines('File "./C0.v", line 12, characters 1-2:', drv)
    # the driver's own term from a certificate's proof: retried when it does not read there,
    # never when it reads and proves another statement (a swapped certificate)
    src = "\n".join(["x"] * 19 + ["Definition vetted_T_0 : Expected_T_0.claim := ltac:(exact (f a))."]) + "\n"
    drv = Driver("Vet_x", src, (), "T", library_lines=(10, 14))
    assert pipeline._in_library_lines(at.format(20) + " Syntax error: ')' expected.", drv)
    assert not pipeline._in_library_lines(
        at.format(20) + ' The term "f a" has type "P" while it is expected to have type "Q".', drv)


@pytest.mark.coq
def test_counted_axioms_are_the_walked_ones_and_the_library_part_is_remembered(
        backend: CoqBackend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYBRIDGE_CACHE_DIR", str(tmp_path))
    fresh = CoqBackend(backend.root)
    seen = []
    for name in ("relu_generic.json", "gelu_parallel_rows.json", "relu_generic.json"):
        inst = load(EXAMPLES / name)
        prep = pipeline._prepare(inst, decide(inst), fresh)
        res, drv, out = pipeline._run([prep], fresh, 120, None)
        assert res.accepted and drv.counted[0] is not None and out[0] is not None and out[0].accepted
        walked = pipeline._run([prep], fresh, 120, None, count=False)[2][0]
        assert walked is not None and walked.accepted
        axioms = [re.search(r"; axioms[^:]*: ([^;]*)", r.message).group(1) for r in (out[0], walked)]
        assert [sorted(a.split(", ")) for a in axioms][0] == [sorted(a.split(", ")) for a in axioms][1]
        seen.append(len(drv.learned))
    assert seen == [1, 1, 0]  # the third run's library part was known from the first
    again = write_driver([(prep.cert.stem, prep.cert.source, prep.expected)], memo=fresh.assumption_memo)
    assert "Print Assumptions vetted_" not in again.source and not again.learned
    # kept with the library's digest: another process (a new backend) knows it too
    assert CoqBackend(backend.root).assumption_memo == fresh.assumption_memo != {}
    assert list(tmp_path.glob("coq-axioms-*.json")) == [fresh._memo_path()]


def test_a_cache_that_is_not_a_memo_is_ignored(tmp_path: Path) -> None:
    from pybridge.coq.library_home import load_memo, save_memo

    path = tmp_path / "coq-axioms-x.json"
    for text in ("not json", "[1, 2]", '{"k": "not a list"}', '{"k": [1]}'):
        path.write_text(text)
        assert load_memo(path) == {}
    save_memo(path, {"a": ("Classical_Prop.classic",)})
    save_memo(path, {"b": ()})  # merged with what is there
    assert load_memo(path) == {"a": ("Classical_Prop.classic",), "b": ()}
