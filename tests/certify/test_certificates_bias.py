"""Partial (block) certificates for generic blocks with biases (R9):
``CertifyBias.cert_bias_not_absorbable_partial`` / ``_below_partial`` through
``pybridge/certify/bias.py``. Speed is measured in bench/, not here."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from fractions import Fraction as F

import numpy as np
import pytest
from helpers import evidence_entry_changed, generic_instance, rebound

from pybridge.certify.agreement import agreement
from pybridge.certify.bias import find_block
from pybridge.certify.pipeline import build_certificate, certify
from pybridge.decision import decide
from pybridge.decision.identity import weights_digest
from pybridge.exact.modular import scale_matrix
from pybridge.model import Activation, Instance
from pybridge.prover import ProverOutcome


def biased(act: str, d: int, n: int, seed: int) -> Instance:
    """Random rational weights and biases (generic with overwhelming probability)."""
    rng = random.Random(seed)
    inst = generic_instance(d, n, seed)
    return replace(inst, activation=Activation(act),
                   b_up=tuple(F(rng.randint(-9, 9), rng.randint(1, 3)) for _ in range(n)),
                   b_down=tuple(F(rng.randint(-9, 9)) for _ in range(d)))


def _up_changed(inst: Instance, i: int, j: int, delta: int) -> Instance:
    up = [list(r) for r in inst.W_up]
    up[i][j] += delta
    return replace(inst, W_up=tuple(tuple(r) for r in up))


def test_partial_bias_certificate_shape():
    inst = biased("gelu", 8, 40, 50)
    dec = decide(inst)
    assert (dec.verdict, dec.result) == ("not_absorbable", "R9")
    cert = build_certificate(inst, dec)
    R = cert.extract.block
    assert len(R) == 7 and "cert_bias_not_absorbable_partial" in cert.source
    # small integers repeat ratios: genericity on a few more indices, the block on residues
    assert re.search(r"forall \(A : mat\) \(c : vec\) \(B : mat\) \(b0 : vec\), "
                     r"agrees_up(_mod n R dA p RAp| n R dA RA) A", cert.source)
    assert cert.extract.weights_sha256 in cert.source and cert.extract.extract_sha256 in cert.source
    assert agreement(inst, cert.extract) is None
    # the extract: columns R of W_up, rows R of W_down, exactly
    A, B = scale_matrix(inst.W_up), scale_matrix(inst.W_down)
    assert cert.extract.A.rows == tuple(tuple(r[j] for j in R) for r in A.rows)
    assert cert.extract.B.rows == tuple(B.rows[k] for k in R)
    # below n: genericity on the block alone, no functional
    low = build_certificate(inst, decide(inst, width=39))
    assert "cert_bias_not_absorbable_below_partial" in low.source and "check_nosub" not in low.source


def test_parallel_rows_with_distinct_biases_fall_back_to_the_full_certificate():
    """Rows 2 and 5 of W_up parallel, biases not in proportion: generic with biases, not
    generic on any block; the full certificate (augmented rows) is written."""
    inst = biased("relu", 8, 40, 51)
    up = [list(r) for r in inst.W_up]
    up[5] = [2 * v for v in up[2]]
    c = list(inst.b_up)
    c[5] = 2 * c[2] + 1
    inst = replace(inst, W_up=tuple(tuple(r) for r in up), b_up=tuple(c))
    dec = decide(inst)
    assert (dec.verdict, dec.result) == ("not_absorbable", "R9")
    assert find_block(inst, dec.evidence.A, dec.evidence.B, dec.evidence.nosub_cert) is None
    cert = build_certificate(inst, dec)
    assert cert.extract is None and "(cert_bias_not_absorbable relu" in cert.source


@pytest.mark.parametrize("act", ["relu", "gelu"])
def test_partial_bias_certificate_accepted_for_any_biases(backend, act):
    inst = biased(act, 8, 40, 52)
    dec = decide(inst)
    res = certify(inst, dec, backend)
    assert res.accepted, res.message
    assert "agree exactly" in res.message and "any biases" in res.message
    # other biases, and a weight outside the block: the certified statement covers them
    R = build_certificate(inst, dec).extract.block
    other = replace(_up_changed(inst, 3, 7, 5), b_up=tuple(x + 1 for x in inst.b_up),
                    b_down=tuple(-x for x in inst.b_down))
    assert 7 not in R and agreement(other, build_certificate(inst, dec).extract) is None
    # the decision and the certificate's header are bound to inst's weights: rebound to other's,
    # the certificate is refused (issue 20) although its statement would cover other
    res = certify(other, replace(dec, weights_sha256=weights_digest(other)), backend)
    assert res.rejected and "recorded digest of the weights" in res.message


def test_partial_bias_certificate_below_n_accepted(backend):
    inst = biased("gelu", 8, 40, 53)
    dec = decide(inst, width=12)
    assert dec.verdict == "not_absorbable"
    res = certify(inst, dec, backend)
    assert res.accepted, res.message
    assert "width 12 < n" in res.message


def test_partial_bias_certificate_with_disagreeing_entries_rejected(backend):
    inst = biased("gelu", 8, 40, 54)
    dec = decide(inst)
    R = build_certificate(inst, dec).extract.block
    changed = _up_changed(inst, 3, R[1], 1)
    res = certify(changed, rebound(dec, changed), backend)
    assert res.outcome is ProverOutcome.REJECTED and "disagree" in res.message and f"W_up[3][{R[1]}]" in res.message
    down = [list(r) for r in inst.W_down]
    down[R[0]][11] -= 1
    changed = replace(inst, W_down=tuple(tuple(r) for r in down))
    res = certify(changed, rebound(dec, changed), backend)
    assert res.outcome is ProverOutcome.REJECTED and f"W_down[{R[0]}][11]" in res.message


def test_partial_bias_certificate_tampered_rejected_by_coq(backend):
    """Evidence altered inside the block and the weights altered to match (so the agreement
    check passes): the functional no longer annihilates the data and Coq rejects; an empty
    functional list and a claim about another block are rejected too."""
    inst = biased("gelu", 8, 40, 55)
    dec = decide(inst)
    R = build_certificate(inst, dec).extract.block
    res = certify(*evidence_entry_changed(inst, dec, 2, R[0], lambda v: v + 1), backend)
    assert res.outcome is ProverOutcome.REJECTED, res.message
    cert = build_certificate(inst, dec)
    src, data = cert.source, "RAp CBp" if cert.extract.residues is not None else "RA CB"
    for old, new in ((f"1 {data} (id_rows (length R)) p F FS = true", f"1 {data} (id_rows (length R)) p F [] = true"),
                     ("Definition R : list nat := [0%nat;", "Definition R : list nat := [1%nat;")):
        assert old in src
        out = backend.check_file(src.replace(old, new, 1), stem="CertBias", timeout=120)
        assert out.outcome is ProverOutcome.REJECTED


# ---------------------------------------------------------------- coded entries (CertifyBiasCoded)


def float32_biased(act: str, d: int, n: int, seed: int, tiny: bool = False) -> Instance:
    """float32 N(0, 0.02) weights and biases; with ``tiny``, float32(1e-30) next to 1.0 in
    W_up and 1e-30 in W_down (about 150-bit numerators over one denominator)."""
    rng = np.random.default_rng(seed)
    a = rng.normal(0, 0.02, size=(n, d)).astype(np.float32)
    b = rng.normal(0, 0.02, size=(d, n)).astype(np.float32)
    if tiny:
        a[0, 0], a[0, 1], b[1, 2] = np.float32(1e-30), np.float32(1.0), np.float32(1e-30)
    c = rng.normal(0, 0.02, size=n).astype(np.float32)
    b0 = rng.normal(0, 0.02, size=d).astype(np.float32)
    return Instance(Activation(act), tuple(tuple(F(float(v)) for v in r) for r in a),
                    tuple(tuple(F(float(v)) for v in r) for r in b),
                    b_up=tuple(F(float(v)) for v in c), b_down=tuple(F(float(v)) for v in b0))


@pytest.mark.parametrize("tiny", [False, True])
def test_residue_partial_bias_certificate_accepted(backend, tiny):
    """float32 weights, by default: the block modulo the certificate's primes
    (``CertifyResidues``), whatever the numerators' size (beyond 63 bits with ``tiny``)."""
    inst = float32_biased("gelu", 8, 40, 60, tiny)
    dec = decide(inst)
    assert (dec.verdict, dec.result) == ("not_absorbable", "R9")
    cert = build_certificate(inst, dec)
    assert "(cert_bias_not_absorbable_partial_mod gelu" in cert.source
    assert cert.extract.residues is not None and "Definition E : int" not in cert.source
    res = certify(inst, dec, backend)
    assert res.accepted, res.message
    assert "modulo the checks' primes" in res.message and "agree exactly" in res.message


@pytest.mark.parametrize("tiny", [False, True])
def test_coded_partial_bias_certificate_accepted(backend, tiny, monkeypatch):
    """float32 weights, the residue form unavailable: codes (two per literal) instead of
    46-bit numerators; with 1e-30 next to 1 the numerators exceed 63 bits and codes are the
    only encoding."""
    monkeypatch.setattr("pybridge.certify.bias.residue_form", lambda *a: None)
    inst = float32_biased("gelu", 8, 40, 60, tiny)
    dec = decide(inst)
    assert (dec.verdict, dec.result) == ("not_absorbable", "R9")
    if tiny:
        assert max(dec.evidence.A.max_abs(), dec.evidence.B.max_abs()).bit_length() > 63
    cert = build_certificate(inst, dec)
    assert "(cert_bias_not_absorbable_partial_coded gelu" in cert.source
    assert "agrees_up_coded n R dA E RA A" in cert.source
    res = certify(inst, dec, backend)
    assert res.accepted, res.message
    assert "coded" in res.message and "agree exactly" in res.message


def test_coded_partial_bias_certificate_below_n_accepted(backend):
    inst = float32_biased("relu", 8, 40, 61, tiny=True)
    dec = decide(inst, width=12)
    cert = build_certificate(inst, dec)
    assert "(cert_bias_not_absorbable_below_partial_coded relu" in cert.source
    res = certify(inst, dec, backend)
    assert res.accepted, res.message


def test_residue_partial_bias_certificate_tampered_rejected(backend):
    """On residues: a block entry doubled in the weights and the evidence (the agreement check
    passes, the old functional kept): Coq rejects; one residue changed in the source: Coq
    rejects."""
    inst = float32_biased("gelu", 8, 40, 62, tiny=True)
    dec = decide(inst)
    cert = build_certificate(inst, dec)
    R = cert.extract.block
    inst2, dec2 = evidence_entry_changed(inst, dec, 2, R[0], lambda v: v * 2)
    res = certify(inst2, dec2, backend)
    assert res.outcome is ProverOutcome.REJECTED, res.message
    assert "agrees_up_mod" in build_certificate(inst2, dec2).source
    src = cert.source
    line = next(x for x in src.splitlines() if x.startswith("Definition RAp : list (list int) := rows_of"))
    m = re.search(r" (0x[0-9a-f]{5,}) ", line)
    assert m is not None
    bad = line[:m.start(1)] + hex(int(m.group(1), 16) ^ 1) + line[m.end(1):]
    out = backend.check_file(src.replace(line, bad), stem="CertBias", timeout=120)
    assert out.outcome is ProverOutcome.REJECTED


def test_coded_partial_bias_certificate_tampered_rejected(backend, monkeypatch):
    """A changed code inside the block, and the weights changed to match (the agreement check
    passes): Coq rejects. A weight changed inside the block alone: the agreement check rejects."""
    monkeypatch.setattr("pybridge.certify.bias.residue_form", lambda *a: None)
    inst = float32_biased("gelu", 8, 40, 62, tiny=True)
    dec = decide(inst)
    cert = build_certificate(inst, dec)
    R = cert.extract.block
    inst2, dec2 = evidence_entry_changed(inst, dec, 2, R[0], lambda v: v * 2)  # still a code: mantissa kept
    res = certify(inst2, dec2, backend)
    assert res.outcome is ProverOutcome.REJECTED, res.message
    assert "coded" in build_certificate(inst2, dec2).source
    changed = _up_changed(inst, 3, R[1], F(1, 2**40))
    res = certify(changed, rebound(dec, changed), backend)
    assert res.outcome is ProverOutcome.REJECTED and "disagree" in res.message
    src = cert.source
    old = "Definition E : int := "
    assert old in src
    base = int(src.split(old, 1)[1].split("%", 1)[0])
    out = backend.check_file(src.replace(f"{old}{base}%", f"{old}{base * 2}%", 1), stem="CertBias", timeout=120)
    assert out.outcome is ProverOutcome.REJECTED


def test_agreement_on_array_views():
    """Weights read from a checkpoint (``ArrayMatrix``: integers from NumPy, no Fractions):
    the agreement check compares the integers exactly, and finds a changed entry."""
    from pybridge.exact.arrays import ArrayMatrix

    rng = np.random.default_rng(63)
    a = rng.normal(0, 0.02, size=(40, 8)).astype(np.float32)
    b = rng.normal(0, 0.02, size=(8, 40)).astype(np.float32)
    c = rng.normal(0, 0.02, size=40).astype(np.float32)
    inst = Instance(Activation("gelu"), ArrayMatrix(a), ArrayMatrix(b), b_up=tuple(F(float(v)) for v in c))
    dec = decide(inst)
    cert = build_certificate(inst, dec)
    R = cert.extract.block
    assert agreement(inst, cert.extract) is None
    a2, b2 = a.copy(), b.copy()
    a2[5, R[2]] = np.nextafter(a2[5, R[2]], np.float32(1))
    assert agreement(replace(inst, W_up=ArrayMatrix(a2)), cert.extract) == f"W_up[5][{R[2]}]"
    b2[R[1], 7] *= 2
    assert agreement(replace(inst, W_down=ArrayMatrix(b2)), cert.extract) == f"W_down[{R[1]}][7]"
    # both changed: W_up is reported first; outside the block nothing is compared
    assert agreement(replace(inst, W_up=ArrayMatrix(a2), W_down=ArrayMatrix(b2)), cert.extract) == f"W_up[5][{R[2]}]"
    outside = next(j for j in range(8) if j not in R)
    a3 = a.copy()
    a3[5, outside] = np.float32(1e-30)  # also changes the common denominator of W_up
    assert agreement(replace(inst, W_up=ArrayMatrix(a3)), cert.extract) is None
    a3[0, R[0]] = np.float32(1e-30)
    assert agreement(replace(inst, W_up=ArrayMatrix(a3)), cert.extract) == f"W_up[0][{R[0]}]"


def test_generic_with_biases_on_array_views():
    """R9's genericity with biases read from arrays (integers, no Fraction per entry):
    rows 2 and 5 of W_up parallel (5 = -2 x 2) are one class with biases in the same
    proportion, two classes otherwise; equal up to sign only for the factor -1."""
    from pybridge.decision.width_route import generic_with_biases
    from pybridge.exact.arrays import ArrayMatrix

    rng = np.random.default_rng(64)
    a = rng.normal(0, 0.02, size=(12, 6)).astype(np.float32)
    b = rng.normal(0, 0.02, size=(6, 12)).astype(np.float32)
    c = rng.normal(0, 0.02, size=12).astype(np.float32)
    a[5] = -2 * a[2]
    up, down = ArrayMatrix(a), ArrayMatrix(b)
    bias = [F(float(v)) for v in c]
    assert generic_with_biases(Instance(Activation("relu"), up, down, b_up=tuple(bias)), "lines")[0]
    bias[5] = -2 * bias[2]
    inst = Instance(Activation("relu"), up, down, b_up=tuple(bias))
    assert generic_with_biases(inst, "lines") == (False, "augmented rows 2 and 5 ((a_i, c_i)) are parallel")
    assert generic_with_biases(inst, "signs")[0]
    a[5], bias[5] = -a[2], -bias[2]
    inst = Instance(Activation("gelu"), ArrayMatrix(a), down, b_up=tuple(bias))
    assert generic_with_biases(inst, "signs") == (False, "augmented rows 2 and 5 ((a_i, c_i)) are equal up to sign")


def test_r9_decisions_name_the_method_that_was_run():
    """R9 on a generic biased block runs genericity (and, at width n, the subset search),
    not the ridge form and width search; a non-generic one runs the width search."""
    from pybridge.decision import classify, width_route

    inst = biased("gelu", 4, 12, 51)
    at_n, below = decide(inst), decide(inst, width=11)
    assert (at_n.result, below.result) == ("R9", "R9") and at_n.generic and below.generic
    assert at_n.method == f"{width_route.R9_METHOD}; {classify.METHOD}"
    assert below.method == width_route.R9_METHOD
    up = [list(r) for r in inst.W_up]
    up[3] = [-v for v in up[1]]  # (a_3, c_3) = -(a_1, c_1): one class up to sign (GELU family)
    b_up = list(inst.b_up)
    b_up[3] = -b_up[1]
    par = replace(inst, W_up=tuple(tuple(r) for r in up), b_up=tuple(b_up))
    dec = decide(par)
    assert not dec.generic and dec.method == width_route.METHOD


def test_agreement_refuses_an_extract_of_the_wrong_shape():
    """An extract missing a column (or with a repeated index) never 'agrees': a zip over the
    shorter list would have compared only what is there (audit of issue 21)."""
    from pybridge.exact.arrays import ArrayMatrix
    from pybridge.exact.modular import IntMatrix

    rng = np.random.default_rng(64)
    a = rng.normal(0, 0.02, size=(40, 8)).astype(np.float32)
    b = rng.normal(0, 0.02, size=(8, 40)).astype(np.float32)
    inst = Instance(Activation("gelu"), ArrayMatrix(a), ArrayMatrix(b), b_up=tuple(F(k, 7) for k in range(40)))
    cert = build_certificate(inst, decide(inst))
    ex = cert.extract
    assert agreement(inst, ex) is None
    short_A = IntMatrix(tuple(tuple(r[:-1]) for r in ex.A.rows), ex.A.den)
    assert agreement(inst, replace(ex, A=short_A)) == "the extract's shape does not fit the block it names"
    short_B = IntMatrix(tuple(tuple(r) for r in ex.B.rows[:-1]), ex.B.den)
    assert agreement(inst, replace(ex, B=short_B)) == "the extract's shape does not fit the block it names"
    if len(ex.block) >= 2:
        twice = (ex.block[0],) * len(ex.block)
        assert agreement(inst, replace(ex, block=twice)) is not None
