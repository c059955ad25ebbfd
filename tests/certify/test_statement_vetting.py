"""Nothing crafted gets through (issue 20, items 1 and 2): a decision is bound to its weights,
and the statement a certificate proves is checked by Coq against the one pybridge writes from
the instance alone."""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction as F

import pytest
from helpers import RELU, generic_instance, planted

from pybridge.certify import pipeline
from pybridge.certify.driver import write_driver
from pybridge.certify.kinds import Certificate
from pybridge.certify.pipeline import ForeignDecision, build_certificate, certify, certify_many
from pybridge.certify.statement import StatementMismatch, expected_statement
from pybridge.checking import check
from pybridge.coq import CoqBackend
from pybridge.decision import decide
from pybridge.decision.identity import weights_digest
from pybridge.errors import InputError
from pybridge.exact.arrays import ArrayMatrix
from pybridge.model import Instance
from pybridge.prover import ProverOutcome


def _absorbable(seed: int = 1) -> Instance:
    A, B, _ = planted(3, 8, seed)
    return Instance(RELU, A, B)


def _skip_pair() -> tuple[Instance, Instance]:
    """Two blocks with the same non-identity skip P: the first absorbable, the second not."""
    P = ((F(2), F(0), F(0)), (F(1), F(1), F(0)), (F(0), F(0), F(3)))
    A, B, _ = planted(3, 8, 5)  # x + B relu(Ax) absorbable; P x + (P B) relu(Ax) then too (R1)
    PB = tuple(tuple(sum(P[i][k] * B[k][j] for k in range(3)) for j in range(8)) for i in range(3))
    absorbable = Instance(RELU, A, PB, skip=P)
    g = generic_instance(3, 8, 7)
    return absorbable, Instance(RELU, g.W_up, g.W_down, skip=P)


# ------------------------------------------------------------------ item 1: the digest


def test_digest_is_of_the_exact_weights():
    inst = generic_instance(3, 6, 1)
    same = Instance(RELU, tuple(map(tuple, inst.W_up)), tuple(map(tuple, inst.W_down)))
    assert weights_digest(inst) == weights_digest(same) == decide(inst).weights_sha256
    bumped = [list(r) for r in inst.W_up]
    bumped[5][2] += F(1, 10**30)  # one entry, by a hair
    assert weights_digest(replace(inst, W_up=tuple(map(tuple, bumped)))) != weights_digest(inst)
    assert weights_digest(replace(inst, b_down=(F(0),) * 3)) != weights_digest(inst)  # zeros != none
    assert weights_digest(replace(inst, skip=tuple(tuple(F(int(i == j)) for j in range(3))
                                                   for i in range(3)))) != weights_digest(inst)


def test_digest_of_array_weights_equals_the_fraction_one():
    np = pytest.importorskip("numpy")
    up = np.array([[0.5, -1.25], [3.0, 0.125], [1.5, 2.0]], dtype=np.float32)
    down = np.array([[1.0, -0.5, 0.25], [2.0, 0.75, -3.0]], dtype=np.float64)
    lazy = Instance(RELU, ArrayMatrix(up), ArrayMatrix(down))
    plain = Instance(RELU, tuple(tuple(F(float(v)) for v in r) for r in up),
                     tuple(tuple(F(float(v)) for v in r) for r in down))
    assert weights_digest(lazy) == weights_digest(plain)


def test_foreign_decision_refused_without_the_prover():
    inst, other = generic_instance(3, 8, 2), _absorbable()
    assert decide(inst).verdict == "not_absorbable" and decide(other).verdict == "absorbable"
    with pytest.raises(InputError, match="other weights"):
        check(inst, decision=decide(other), prove=False)
    with pytest.raises(ForeignDecision):
        build_certificate(inst, decide(other))

    class NoProver:
        name = "none"

        def check_files(self, *a, **k):  # pragma: no cover - must not be reached
            raise AssertionError("the prover ran on a foreign decision")

    res = certify(inst, decide(other), NoProver())
    assert res is not None and res.outcome is ProverOutcome.REJECTED and "other weights" in res.message
    res = certify(inst, replace(decide(inst), weights_sha256=None), NoProver())
    assert res is not None and res.rejected and "no digest" in res.message


def test_foreign_skip_decision_refused():
    absorbable, generic = _skip_pair()
    assert decide(absorbable).verdict == "absorbable"
    with pytest.raises(InputError, match="other weights"):
        check(absorbable, decision=decide(generic), prove=False)
    with pytest.raises(InputError, match="other weights"):
        check(generic, decision=decide(absorbable), prove=False)


@pytest.mark.coq
def test_forged_digest_rejected_by_the_statement_check(backend: CoqBackend):
    """The digest field copied from the instance's own decision onto another's: the certificate
    is written from the other weights, and the vetting rejects it (in Python or in Coq)."""
    inst, other = generic_instance(3, 8, 2), _absorbable()
    forged = replace(decide(other), weights_sha256=weights_digest(inst))
    rep = check(inst, decision=forged, crosscheck=False, backend=backend)
    assert not rep.checked and rep.prover is not None and rep.prover.rejected, rep.prover
    # the skip case: an absorbable skip block given a generic block's not-absorbable decision
    absorbable, generic = _skip_pair()
    forged = replace(decide(generic), weights_sha256=weights_digest(absorbable))
    res = certify(absorbable, forged, backend)
    assert res is not None and res.rejected, res.message


# ------------------------------------------------------------------ item 2: statements vetted


def _serving(monkeypatch: pytest.MonkeyPatch, make) -> None:
    """A patched writer: the pipeline's dispatcher returns ``make(instance, decision)``."""
    real = pipeline._dispatch
    monkeypatch.setattr(pipeline, "_dispatch", lambda i, d: make(real(i, d), i, d))


@pytest.mark.coq
def test_swapped_certificate_rejected(backend: CoqBackend, monkeypatch: pytest.MonkeyPatch):
    """Another instance's (valid) certificate of the same kind: Coq compiles it, and the
    vetting rejects it, because its verdict is about other data."""
    inst, other = _absorbable(1), _absorbable(2)
    theirs = build_certificate(other, decide(other))
    assert theirs is not None
    assert backend.check_file(theirs.source, stem=theirs.stem, timeout=120).accepted
    _serving(monkeypatch, lambda cert, i, d: theirs)
    res = certify(inst, decide(inst), backend)
    assert res is not None and res.rejected
    assert "expected to have type" in res.message and "Slot_" in res.message, res.message[-600:]


@pytest.mark.coq
def test_true_statement_rejected(backend: CoqBackend, monkeypatch: pytest.MonkeyPatch):
    inst = _absorbable(1)

    def trivial(cert: Certificate, i, d) -> Certificate:
        src = re.sub(r"Theorem verdict : .*?Qed\.", "Theorem verdict : True.\nProof. exact I. Qed.",
                     cert.source, count=1, flags=re.S)
        return replace(cert, source=src)

    _serving(monkeypatch, trivial)
    res = certify(inst, decide(inst), backend)
    assert res is not None and res.rejected and "statement not vetted" in res.message


@pytest.mark.coq
def test_redefined_predicate_rejected_by_coq(backend: CoqBackend, monkeypatch: pytest.MonkeyPatch):
    """The statement's text is exactly the expected one, but the certificate redefines
    ``absorbable_ungated`` as ``True`` first: only Coq's check of the statement catches it."""
    inst = _absorbable(1)
    dec = decide(inst)
    sigma = "relu"

    def fake(cert: Certificate, i, d) -> Certificate:
        stmt = re.search(r"Theorem verdict : (.*?)\.\nProof\.", cert.source, re.S).group(1)
        body = cert.source.split("Theorem verdict : ", 1)[0]
        src = (body + "Definition absorbable_ungated (s : Rdefinitions.R -> Rdefinitions.R) (d n m : nat) (P A B : mat) "
               ": Prop := True.\n"
               f"Theorem verdict : {stmt}.\nProof. exact I. Qed.\nEnd Cert.\n"
               "Print Assumptions Cert.verdict.\n")
        assert sigma in stmt
        return replace(cert, source=src)

    _serving(monkeypatch, fake)
    cert = build_certificate(inst, dec)
    assert cert is not None
    assert backend.check_file(cert.source, stem="Fake", timeout=120).accepted  # it does compile
    expected_statement(inst, dec, cert)  # and its text is the expected one
    res = certify(inst, dec, backend)
    assert res is not None and res.rejected and "expected to have type" in res.message


@pytest.mark.coq
def test_edited_data_rejected(backend: CoqBackend, monkeypatch: pytest.MonkeyPatch):
    """One weight of the certificate's data changed (the rest untouched)."""
    inst = _absorbable(1)

    def edited(cert: Certificate, i, d) -> Certificate:
        src, k = re.subn(r"Definition dA : Z := \((\d+)\)%Z\.",
                         lambda m: f"Definition dA : Z := ({2 * int(m.group(1))})%Z.", cert.source, count=1)
        assert k == 1
        return replace(cert, source=src)

    _serving(monkeypatch, edited)
    res = certify(inst, decide(inst), backend)
    assert res is not None and res.rejected


def test_wrong_verdict_kind_is_not_a_candidate():
    """A not-absorbable statement for an absorbable decision, a wrong width: refused in Python."""
    inst = _absorbable(1)
    dec = decide(inst)
    cert = build_certificate(inst, dec)
    assert cert is not None
    expected_statement(inst, dec, cert)
    negated = cert.source.replace("Theorem verdict : ", "Theorem verdict : ~ ", 1)
    with pytest.raises(StatementMismatch):
        expected_statement(inst, dec, replace(cert, source=negated))
    with pytest.raises(StatementMismatch):
        expected_statement(inst, replace(dec, width=5), cert)


def test_driver_names_are_fresh_and_data_from_the_instance():
    inst, other = _absorbable(1), _absorbable(2)
    dec = decide(inst)
    theirs = build_certificate(other, decide(other))
    exp = expected_statement(inst, dec, theirs)  # same form, other data: chosen by the text...
    drv = write_driver([(theirs.stem, theirs.source, exp)])
    mine = build_certificate(inst, dec).source
    data = [ln for ln in mine.splitlines() if ln.startswith(("Definition RA", "Definition CB"))]
    assert data and all(ln in drv.source for ln in data)  # ...but the driver writes the instance's data
    assert write_driver([(theirs.stem, theirs.source, exp)]).tag != drv.tag


@pytest.mark.coq
def test_partial_header_digest_checked(backend: CoqBackend, monkeypatch: pytest.MonkeyPatch):
    inst = generic_instance(3, 10, 2)
    cert = build_certificate(inst, decide(inst))
    assert cert is not None and cert.extract is not None
    _serving(monkeypatch, lambda c, i, d: replace(c, extract=replace(c.extract, weights_sha256="0" * 64)))
    res = certify(inst, decide(inst), backend)
    assert res is not None and res.rejected and "digest" in res.message


# ------------------------------------------------------------------ certificates on residues


def _float_block(seed: int) -> Instance:
    """float32 N(0, 1) weights, d = 6, n = 30 (two columns separate every row's ratio)."""
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(seed)
    a, b = (rng.standard_normal(s).astype(np.float32) for s in ((30, 6), (6, 30)))
    return Instance(RELU, ArrayMatrix(a), ArrayMatrix(b))


def _residue_pair() -> tuple[Instance, Instance]:
    inst, other = _float_block(2), _float_block(3)
    for x in (inst, other):
        cert = build_certificate(x, decide(x))
        assert cert is not None and cert.extract is not None and cert.extract.residues is not None
    return inst, other


@pytest.mark.coq
def test_residue_certificate_of_other_weights_rejected(backend: CoqBackend, monkeypatch: pytest.MonkeyPatch):
    """Another block's certificate on residues: with its own extract the agreement check
    rejects it; with this block's extract the claim's residues (written from this block)
    differ from the certificate's, and the vetting rejects it."""
    inst, other = _residue_pair()
    theirs = build_certificate(other, decide(other))
    mine = build_certificate(inst, decide(inst))
    _serving(monkeypatch, lambda cert, i, d: theirs)
    res = certify(inst, decide(inst), backend)
    assert res is not None and res.rejected and "disagree" in res.message, res.message[-300:]
    _serving(monkeypatch, lambda cert, i, d: replace(theirs, extract=mine.extract))
    res = certify(inst, decide(inst), backend)
    assert res is not None and res.rejected and "digests" in res.message, res.message[-300:]
    src = theirs.source  # the header's digests made this block's too: Coq compares the data
    for old, new in ((theirs.extract.weights_sha256, mine.extract.weights_sha256),
                     (theirs.extract.extract_sha256, mine.extract.extract_sha256)):
        src = src.replace(old, new)
    _serving(monkeypatch, lambda cert, i, d: replace(theirs, source=src, extract=mine.extract))
    res = certify(inst, decide(inst), backend)
    assert res is not None and res.rejected and "not vetted" in res.message, res.message[-300:]


@pytest.mark.coq
def test_residue_extract_naming_other_primes_rejected(backend: CoqBackend, monkeypatch: pytest.MonkeyPatch):
    """The extract says another prime than the certificate's data (or a pair outside the
    block, or the prime 1): the claim is written from the extract, and nothing is accepted."""
    inst, _ = _residue_pair()
    dec = decide(inst)
    cert = build_certificate(inst, dec)
    res0 = cert.extract.residues
    other_p = next(q for q in (509, 521, 523) if q != res0.p)
    for bad in (replace(res0, p=other_p), replace(res0, pg=res0.pg - 2), replace(res0, pair=(0, 29)),
                replace(res0, p=1)):
        _serving(monkeypatch, lambda c, i, d, bad=bad: replace(c, extract=replace(c.extract, residues=bad)))
        res = certify(inst, dec, backend)
        assert res is not None and res.rejected, (bad, res.message[-300:])
    with pytest.raises(StatementMismatch):
        expected_statement(inst, dec, replace(cert, extract=replace(cert.extract, residues=replace(res0, p=1))))


# ------------------------------------------------------------------ several in one run


@pytest.mark.coq
def test_certify_many_one_run(backend: CoqBackend):
    calls = []

    class Counting:
        name = backend.name

        def check_files(self, files, **kw):
            calls.append(len(files))
            return backend.check_files(files, **kw)

    a, g, o = _absorbable(1), generic_instance(3, 10, 2), _absorbable(3)
    undecided = replace(decide(o), verdict="undecided")
    out = certify_many([(a, decide(a)), (g, decide(g)), (o, undecided), (o, decide(a))], Counting(), timeout=120)
    assert calls == [3]  # one driver loading two certificates
    assert out[0] is not None and out[0].accepted and "vetted" in out[0].message
    assert out[1] is not None and out[1].accepted
    assert out[2] is None
    assert out[3] is not None and out[3].rejected and "other weights" in out[3].message


@pytest.mark.coq
def test_certify_many_isolates_a_bad_certificate(backend: CoqBackend, monkeypatch: pytest.MonkeyPatch):
    a, b = _absorbable(1), _absorbable(2)
    theirs = build_certificate(b, decide(b))
    _serving(monkeypatch, lambda cert, i, d: theirs)  # every instance gets b's certificate
    out = certify_many([(a, decide(a)), (b, decide(b))], backend, timeout=120)
    assert out[0] is not None and out[0].rejected
    assert out[1] is not None and out[1].accepted, out[1].message[-500:]


@pytest.mark.coq
@pytest.mark.parametrize("module, axiom", [("Classical_Prop", "classic"),
                                           ("ClassicalDedekindReals", "sig_forall_dec"),
                                           ("FunctionalExtensionality", "functional_extensionality_dep")])
def test_axiom_named_like_an_allowed_one_is_not_allowed(backend: CoqBackend, monkeypatch: pytest.MonkeyPatch,
                                                       module: str, axiom: str):
    """A certificate proves its (expected) verdict from an axiom it declares in a module named
    like the one of an allowed axiom: Coq prints it under the certificate's own path, so the
    verdict is refused (the statement is right, the proof is not)."""
    inst = _absorbable(1)
    dec = decide(inst)

    def spoof(cert: Certificate, i, d) -> Certificate:
        stmt = re.search(r"Theorem verdict : (.*?)\.\nProof\.", cert.source, re.S).group(1)
        body = cert.source.split("Theorem verdict : ", 1)[0]
        src = (body + f"Module {module}.\nAxiom {axiom} : {stmt}.\nEnd {module}.\n"
               f"Theorem verdict : {stmt}.\nProof. exact {module}.{axiom}. Qed.\nEnd Cert.\n"
               "Print Assumptions Cert.verdict.\n")
        return replace(cert, source=src)

    _serving(monkeypatch, spoof)
    res = certify(inst, dec, backend)
    assert res is not None and not res.accepted
    assert res.outcome == ProverOutcome.REJECTED, res.message
    assert f"{module}.{axiom}" in res.message and "Cert." in res.message, res.message[-800:]
