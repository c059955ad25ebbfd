"""Blocks with biases and a non-identity skip P: R1 with biases
(``SkipReductionBias.skip_reduction_ungated_bias``) reduces them to the identity skip with
``W_down``, ``b_down`` multiplied by ``P^-1``; the verdict is the reduced block's, and any explicit
block is the user's (``W_down``, ``b_down`` multiplied back by ``P``)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from helpers import mat, rebound

from pybridge.certify.kinds import CannotCertify
from pybridge.certify.pipeline import build_certificate, certify, certify_many
from pybridge.decision import decide
from pybridge.decision.classify import reduced_bias_instance
from pybridge.decision.crosscheck import crosscheck
from pybridge.exact.linalg import matmul
from pybridge.model import Activation, Instance
from pybridge.prover import ProverOutcome

P = mat([[2, 1], [0, 1]])  # inverse [[1/2, -1/2], [0, 1]]
THEOREM_NOTE = "SkipReductionBias.skip_reduction_ungated_bias"


def skip_bias(act: str, up, reduced_down, c, b0_reduced) -> Instance:
    """The user's block ``P x + (P B~) sigma(A x + c) + P b0~`` for a chosen reduced block."""
    B = matmul(P, mat(reduced_down))
    b0 = tuple(sum(P[i][j] * F(b0_reduced[j]) for j in range(2)) for i in range(2))
    return Instance(Activation(act), mat(up), B, skip=P, b_up=tuple(F(v) for v in c), b_down=b0)


def planted(act: str) -> Instance:
    """B~[:, S] A[S, :] = -I for S = {0, 1}: absorbable at width n (R7 after R1)."""
    return skip_bias(act, [[1, 0], [0, 1], [1, 1]], [[-1, 0, 5], [0, -1, 3]], [1, -1, 2], [3, 1])


def generic(act: str) -> Instance:
    return Instance(Activation(act), mat([[1, 0], [0, 1]]), mat([[1, 2], [3, 1]]), skip=P,
                    b_up=(F(1), F(-1)), b_down=(F(3), F(1)))


def non_generic(act: str) -> Instance:
    """Rows 0 and 1 have augmented rows in one class: (1, 0, 1), (2, 0, 2) on a line (ReLU),
    (1, 0, 1), (-1, 0, -1) equal up to sign (GELU): not generic with biases."""
    t = 2 if act == "relu" else -1
    return skip_bias(act, [[1, 0], [t, 0], [0, 1]], [[1, -1, 0], [0, 0, 1]], [1, t, -1], [1, 0])


@pytest.mark.parametrize("act", ["relu", "gelu"])
def test_reduced_instance_is_exact(act):
    i = planted(act)
    red = reduced_bias_instance(i)
    assert red.skip is None
    assert red.W_down == mat([[-1, 0, 5], [0, -1, 3]])
    assert red.b_down == (F(3), F(1))
    assert red.W_up == i.W_up and red.b_up == i.b_up


@pytest.mark.parametrize("act", ["relu", "gelu"])
def test_planted_absorbable_witness_is_the_users_block(act):
    i = planted(act)
    dec = decide(i)
    assert (dec.verdict, dec.result, dec.theorem) == (
        "absorbable", "R7", "Absorb.results.Biases.odd_part_absorbable_bias")
    assert THEOREM_NOTE in dec.reason and "after skip reduction with biases (R1" in dec.reason
    assert dec.skip_inverse == mat([[F(1, 2), F(-1, 2)], [0, 1]])
    assert dec.reduced_down == mat([[-1, 0, 5], [0, -1, 3]])
    w = dec.witness
    assert w is not None and w.subset == (0, 1)
    assert w.W_down == i.W_down  # P (P^-1 B) = B exactly
    assert w.W_up == mat([[-1, 0], [0, -1], [1, 1]]) and w.b_up == (F(-1), F(1), F(2))
    # b0 + sum_S b_i c_i with the user's b0 = P (3, 1) = (7, 1) and columns b_0 = (-2, 0), b_1 = (-1, -1)
    assert w.b_down == (F(7) - 2 + 1, F(1) + 0 + 1)
    cc = crosscheck(i, dec, use_z3=False)
    assert cc.witness_equal is True
    if act == "relu":
        assert cc.method == "exact rational evaluation"


@pytest.mark.parametrize("act", ["relu", "gelu"])
def test_generic_not_absorbable(act):
    i = generic(act)
    dec = decide(i)
    assert (dec.verdict, dec.result, dec.generic) == ("not_absorbable", "R9", True)
    assert dec.theorem is not None and dec.theorem.endswith("_bias_absorbable_generic_submatrix")
    assert THEOREM_NOTE in dec.reason
    below = decide(i, width=1)
    assert below.verdict == "not_absorbable" and below.theorem.endswith("_generic_not_absorbable_below")
    # the old verdict is gone
    assert "no formal theorem covers" not in dec.reason


@pytest.mark.parametrize("act", ["relu", "gelu"])
def test_non_generic_several_widths(act):
    i = non_generic(act)
    red = reduced_bias_instance(i)
    verdicts = []
    for m in range(0, 5):
        dec = decide(i, width=m)
        ref = decide(red, width=m)
        assert (dec.verdict, dec.result, dec.theorem, dec.width) == (ref.verdict, ref.result, ref.theorem, ref.width)
        assert THEOREM_NOTE in dec.reason and dec.generic is False
        verdicts.append(dec.verdict)
        if dec.verdict == "absorbable":
            blk = dec.width_info.block
            rblk = ref.width_info.block
            assert blk.W_down == matmul(P, rblk.W_down)  # the user's block, not the reduced one
            if act == "relu":
                assert crosscheck(i, dec, use_z3=False).witness_equal is True
    assert "not_absorbable" in verdicts and "absorbable" in verdicts
    least = decide(i, min_width=True)
    assert least.width == decide(red, min_width=True).width
    assert verdicts.index("absorbable") == least.width
    if act == "relu":
        assert crosscheck(i, least, use_z3=False).witness_equal is True


def test_not_absorbable_on_reduced_block_is_not_absorbable_on_users_block_numerically():
    """A wrong back-mapping (forgetting P) would give a block that differs from the user's."""
    i = non_generic("relu")
    dec = decide(i, min_width=True)
    from dataclasses import replace

    wrong = replace(dec, width_info=decide(reduced_bias_instance(i), min_width=True).width_info)
    assert crosscheck(i, wrong, use_z3=False).witness_equal is False


def test_generic_partial_certificates_accepted(backend):
    """R9's partial certificates (all weights agreeing with an index block) glued by
    cert_skip_bias_partial: width n and below, ReLU and GELU (one coqc run)."""
    pairs = []
    for act in ("relu", "gelu"):
        i = generic(act)
        for dec in (decide(i), decide(i, width=1)):
            cert = build_certificate(i, dec)
            assert "cert_skip_bias_partial" in cert.source and "check_reduced_down_rows" in cert.source
            pairs.append((i, dec))
    for (_, dec), res in zip(pairs, certify_many(pairs, backend)):
        assert res is not None and res.outcome == ProverOutcome.ACCEPTED, (dec.reason, res and res.message)


def test_generic_partial_certificate_rechecks_the_extract(backend):
    """The partial certificate carries columns R of W_up: they are compared exactly with the
    user's W_up (and rows R of P^-1 W_down with the exact reduction) before Coq runs; a
    W_up changed at an extracted entry is rejected, the decision being for other weights."""
    i = generic("relu")
    dec = decide(i)
    cert = build_certificate(i, dec)
    assert cert.extract is not None and cert.extract_of is not None
    res = certify(i, dec, backend)
    assert res.accepted and "the reduced weights (W_up, P^-1 W_down) agree exactly" in res.message
    R = cert.extract.block
    up = [list(r) for r in i.W_up]
    up[1][R[0]] += 1
    other = Instance(i.activation, tuple(tuple(r) for r in up), i.W_down, skip=i.skip, b_up=i.b_up, b_down=i.b_down)
    bad = certify(other, rebound(dec, other), backend)
    assert bad.outcome is ProverOutcome.REJECTED
    assert bad.message == f"the certificate's extracted entries disagree with the reduced weights (W_up, P^-1 W_down) " \
                          f"(W_up[1][{R[0]}])"


def test_generic_partial_tampered_rejected(backend):
    i = generic("relu")
    cert = build_certificate(i, decide(i))
    old = "Definition dBs : Z := (1)%Z."
    assert old in cert.source
    res = backend.check_file(cert.source.replace(old, "Definition dBs : Z := (2)%Z."), stem=cert.stem, timeout=120)
    assert not res.accepted and '"check_reduced_down_rows ' in res.message


def test_unexpected_reduced_statement_not_glued():
    from pybridge.certify.skip_bias import _rewrite_statement

    with pytest.raises(CannotCertify):
        _rewrite_statement("forall (A : mat), agrees_up_coded n R dA E RA A -> "
                           "~ absorbable_ungated_bias relu d n n identity A c B b0")
    with pytest.raises(CannotCertify):
        _rewrite_statement("absorbable_ungated_bias relu d n n identity (mat_of_rows dA RA) (vec_of dc Lc) "
                           "(mat_of_cols dB CB) (vec_of dc Lc)")


def test_planted_certificate_accepted(backend):
    pairs = []
    for act in ("relu", "gelu"):
        i = planted(act)
        dec = decide(i)
        cert = build_certificate(i, dec)
        assert "Theorem verdict : absorbable_ungated_bias" in cert.source
        assert "(mat_of_rows dPs RPs)" in cert.source and "cert_skip_bias_reduce" in cert.source
        pairs.append((i, dec))
    for res in certify_many(pairs, backend):  # one coqc run
        assert res is not None and res.outcome == ProverOutcome.ACCEPTED, res and res.message


@pytest.mark.slow
def test_width_certificates_accepted(backend):
    """R8 with biases after R1: a not-absorbable width and the least width (absorbable /\\ not
    below), ReLU and GELU (one coqc run)."""
    pairs = []
    for act in ("relu", "gelu"):
        i = non_generic(act)
        pairs += [(i, decide(i, width=1)), (i, decide(i, min_width=True))]
    for (_, dec), res in zip(pairs, certify_many(pairs, backend)):
        assert res is not None and res.outcome == ProverOutcome.ACCEPTED, (dec.reason, res and res.message)


@pytest.mark.parametrize("old,new,check", [
    ("Definition dbs : Z := (1)%Z.", "Definition dbs : Z := (2)%Z.", "\"check_reduced_bias "),
    ("Definition dQs : Z := (2)%Z.", "Definition dQs : Z := (3)%Z.", "\"check_inverse "),
    ("Definition dBs : Z := (1)%Z.", "Definition dBs : Z := (2)%Z.", "\"check_reduced_down "),
])
def test_tampered_certificate_rejected(backend, old, new, check):
    i = planted("relu")
    cert = build_certificate(i, decide(i))
    assert old in cert.source
    res = backend.check_file(cert.source.replace(old, new), stem=cert.stem, timeout=120)
    assert not res.accepted and check in res.message


def test_gated_and_homogeneous_with_skip_and_biases_unchanged():
    i = Instance(Activation("swiglu"), mat([[1], [2]]), mat([[1, 1]]),
                 W_gate=mat([[1], [1]]), skip=mat([[2]]), b_up=(F(1), F(0)))
    assert decide(i).verdict == "outside_hypotheses"
