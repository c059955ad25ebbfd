"""Coded certificate data (``+- m 2^e``, CodedData.v): numerators beyond 63 bits.

A float32 block holding 1e-30 next to 1 needs about 150-bit numerators over one
denominator per matrix; its certificates write the entries as codes and Coq
computes their residues. Accepted when right, rejected when tampered with.
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction as F

import numpy as np
import pytest
from helpers import RELU, evidence_entry_changed, examples, generic_instance
from hypothesis import given, settings
from hypothesis import strategies as st

from pybridge.certify.coded import code, coding, decode, split
from pybridge.certify.kinds import CertificateKind
from pybridge.certify.pipeline import build_certificate, certify
from pybridge.coq import CoqBackend
from pybridge.decision import decide
from pybridge.model import Activation, Instance
from pybridge.prover import ProverOutcome


def float32_block(d: int, n: int, seed: int) -> Instance:
    """float32 N(0, 0.02) weights with float32(1e-30) next to 1.0 in W_up and 1e-30 in W_down."""
    rng = np.random.default_rng(seed)
    a = rng.normal(0, 0.02, size=(n, d)).astype(np.float32)
    b = rng.normal(0, 0.02, size=(d, n)).astype(np.float32)
    a[0, 0], a[0, 1], b[1, 2] = np.float32(1e-30), np.float32(1.0), np.float32(1e-30)
    A = tuple(tuple(F(float(v)) for v in r) for r in a)
    B = tuple(tuple(F(float(v)) for v in r) for r in b)
    return Instance(RELU, A, B)


def float32_planted(d: int, n: int, seed: int, S: tuple[int, ...]) -> Instance:
    """float32 weights, absorbable with subset S: A_S = diag(2^-100, 1, ...), B_S = -A_S^-1
    (both exact in float32), and float32(1e-30) next to 1.0 in a row outside S."""
    rng = np.random.default_rng(seed)
    a = rng.normal(0, 0.02, size=(n, d)).astype(np.float32)
    b = rng.normal(0, 0.02, size=(d, n)).astype(np.float32)
    for t, i in enumerate(S):
        a[i, :], b[:, i] = 0, 0
        a[i, t] = np.float32(2.0**-100) if t == 0 else np.float32(1.0)
        b[t, i] = -np.float32(2.0**100) if t == 0 else np.float32(-1.0)
    row = next(i for i in range(n) if i not in S)
    a[row, 0], a[row, 1] = np.float32(1e-30), np.float32(1.0)
    A = tuple(tuple(F(float(v)) for v in r) for r in a)
    B = tuple(tuple(F(float(v)) for v in r) for r in b)
    return Instance(RELU, A, B)


# ---------------------------------------------------------------- the encoding


@pytest.mark.parametrize("v", [0, 1, -1, 2**100, -(2**100) * 3, 12345 << 70, -7, 2**61 - 1])
def test_code_roundtrip(v):
    base = 128
    c = code(v, base)
    assert c >= 0 and decode(c, base) == v
    mag, e = split(v)
    assert abs(v) == mag * 2**e and (v == 0 or mag % 2 == 1)


def test_coding_choice():
    # small integers: plain numerators are denser, no coding
    assert coding([((1, -512, 7), (3, 4, 5))]) is None
    # numerators beyond 63 bits but dyadic: coded, exactly
    rows = ((2**146, 3 * 2**20, -(2**5)), (0, 1, -(2**146)))
    c = coding([rows])
    assert c is not None
    assert tuple(tuple(decode(x, c.base) for x in r) for r in c.matrices[0]) == rows
    # not dyadic and beyond 63 bits: neither encoding fits
    assert coding([((3**80, 1),)]) is None


def test_coding_float32_weights_two_per_literal():
    """float32 N(0, 0.02) weights over one denominator: 40-odd-bit numerators, codes of at
    most 31 bits (two per literal); the NumPy path and the exact path agree."""
    rng = np.random.default_rng(9)
    vals = [F(float(v)) for v in rng.normal(0, 0.02, size=600).astype(np.float32)]
    den = max(v.denominator for v in vals)
    rows = tuple(tuple(int(v * den) for v in vals[i:i + 30]) for i in range(0, 600, 30))
    assert max(abs(v) for r in rows for v in r).bit_length() > 32
    c = coding([rows])
    assert c is not None and max(x for r in c.matrices[0] for x in r).bit_length() <= 31
    assert tuple(tuple(decode(x, c.base) for x in r) for r in c.matrices[0]) == rows
    big = coding([rows + ((2**70,) + (0,) * 29,)])  # beyond int64: the exact path
    assert big is not None
    assert tuple(tuple(decode(x, big.base) for x in r) for r in big.matrices[0][:-1]) == rows


def test_float32_block_numerators_exceed_63_bits(monkeypatch):
    """Written on residues by default (CertifyResidues: the numerators' size does not matter);
    as codes when the residue form is not available."""
    inst = float32_block(4, 10, 5)
    dec = decide(inst)
    assert dec.verdict == "not_absorbable"
    assert dec.evidence is not None and dec.evidence.A.max_abs() >= 2**100
    cert = build_certificate(inst, dec)
    assert cert is not None and cert.kind is CertificateKind.GENERIC_NOT_ABSORBABLE_PARTIAL
    assert "cert_generic_not_absorbable_partial_mod" in cert.source and "Definition E : int" not in cert.source
    monkeypatch.setattr("pybridge.certify.generic.residue_form", lambda *a: None)
    cert = build_certificate(inst, dec)
    assert cert is not None and cert.kind is CertificateKind.GENERIC_NOT_ABSORBABLE_PARTIAL
    assert "cert_generic_not_absorbable_partial_coded" in cert.source
    assert "Definition E : int" in cert.source and "agrees_up_coded n R dA E RA A" in cert.source


# ---------------------------------------------------------------- Coq verdicts


@pytest.fixture(scope="module")
def coq(backend: CoqBackend) -> CoqBackend:
    assert (backend.theories / "certify" / "CertifyCoded.vo").exists()
    return backend


@pytest.mark.coq
def test_float32_block_with_tiny_entry_certified(coq):
    inst = float32_block(4, 10, 5)
    dec = decide(inst)
    res = certify(inst, dec, coq)
    assert res is not None and res.accepted, res.message
    assert "not absorbable" in res.message and "agree exactly" in res.message


@pytest.mark.coq
def test_float32_block_with_tiny_entry_smooth_activation(coq):
    inst = replace(float32_block(4, 10, 6), activation=Activation("gelu_tanh"))
    dec = decide(inst)
    assert dec.verdict == "not_absorbable"
    res = certify(inst, dec, coq)
    assert res is not None and res.accepted, res.message


@pytest.mark.coq
def test_coded_certificate_accepted(coq, monkeypatch):
    """The coded form (the residue form unavailable) of a block with 150-bit numerators."""
    monkeypatch.setattr("pybridge.certify.generic.residue_form", lambda *a: None)
    inst = float32_block(4, 10, 5)
    dec = decide(inst)
    res = certify(inst, dec, coq)
    assert res is not None and res.accepted, res.message
    cert = build_certificate(inst, dec)
    assert cert is not None and "agrees_up_coded" in cert.source


@pytest.mark.coq
def test_coded_certificate_with_tampered_code_rejected_by_coq(coq, monkeypatch):
    """One code of the block changed in the Coq source (its sign bit flipped): the data now
    stand for other weights, the functional no longer annihilates them, and Coq rejects."""
    monkeypatch.setattr("pybridge.certify.generic.residue_form", lambda *a: None)
    inst = float32_block(4, 10, 5)
    cert = build_certificate(inst, decide(inst))
    assert cert is not None
    line = next(x for x in cert.source.splitlines() if x.startswith("Definition RA : list (list int) := rows_of"))
    m = re.search(r" (0x[0-9a-f]{5,}) ", line)
    assert m is not None
    bad = line[:m.start(1)] + hex(int(m.group(1), 16) ^ 1) + line[m.end(1):]
    source = cert.source.replace(line, bad)
    assert source != cert.source
    res = coq.check_file(source, stem=cert.stem, timeout=120)
    assert not res.accepted


@pytest.mark.coq
def test_coded_certificate_with_tampered_evidence_rejected_by_coq(coq):
    """The block altered (one numerator times 2^40) with the weights altered to match, the
    old functional kept: the certificate is written in codes and Coq rejects it."""
    inst = float32_block(4, 10, 5)
    dec = decide(inst)
    ev = dec.evidence
    assert ev is not None
    inst2, dec2 = evidence_entry_changed(inst, dec, 2, 1, lambda v: v * 2**40 if v else 2**90)
    res = certify(inst2, dec2, coq)
    assert res is not None and not res.accepted
    assert res.outcome is not ProverOutcome.NOT_CERTIFIED, res.message


@pytest.mark.coq
def test_plain_numerators_keep_the_fast_path(coq):
    inst = generic_instance(8, 40, 44)
    cert = build_certificate(inst, decide(inst))
    assert cert is not None and "Definition E : int" not in cert.source
    assert "_coded" not in cert.source


@pytest.mark.coq
def test_float32_planted_absorbable_with_tiny_entries_certified(coq):
    inst = float32_planted(3, 8, 3, (1, 4, 6))
    dec = decide(inst)
    assert dec.verdict == "absorbable" and dec.witness is not None
    assert set(dec.witness.subset) == {1, 4, 6}
    cert = build_certificate(inst, dec)
    assert cert is not None and cert.kind is CertificateKind.ABSORBABLE
    assert "cert_absorbable_coded" in cert.source and "check_submatrix_coded" in cert.source
    res = certify(inst, dec, coq)
    assert res is not None and res.accepted, res.message
    assert "absorbable" in res.message


@pytest.mark.coq
def test_float32_planted_wrong_subset_rejected(coq):
    inst = float32_planted(3, 8, 3, (1, 4, 6))
    dec = decide(inst)
    assert dec.witness is not None
    bad = tuple(sorted(set(dec.witness.subset) ^ {0}))
    res = certify(inst, replace(dec, witness=replace(dec.witness, subset=bad)), coq)
    assert res is not None and not res.accepted
    assert res.outcome is ProverOutcome.REJECTED, res.message


@pytest.mark.coq
def test_float32_planted_perturbed_weight_rejected(coq):
    """The tiny entry of A_S (2^-100) doubled in the evidence, the subset kept: Coq rejects."""
    inst = float32_planted(3, 8, 3, (1, 4, 6))
    dec = decide(inst)
    ev = dec.evidence
    assert ev is not None
    res = certify(*evidence_entry_changed(inst, dec, 1, 0, lambda v: v * 2, match_weights=False), coq)
    assert res is not None and res.outcome is ProverOutcome.REJECTED, res.message


@pytest.mark.coq
def test_float32_planted_absorbable_with_tiny_biases_certified(coq):
    """Biases (R7) with float32(1e-30) next to 1: the biases are coded too."""
    base = float32_planted(3, 8, 4, (0, 2, 5))
    c = tuple(F(float(v)) for v in np.array([1e-30, 1.0, -0.5, 0, 0.25, 1e-3, 2.0, 3.0], dtype=np.float32))
    b0 = tuple(F(float(v)) for v in np.array([1e-30, -1.0, 0.125], dtype=np.float32))
    inst = replace(base, b_up=c, b_down=b0)
    dec = decide(inst)
    assert dec.verdict == "absorbable", dec
    cert = build_certificate(inst, dec)
    assert cert is not None and cert.kind is CertificateKind.ABSORBABLE_BIAS
    assert "cert_absorbable_bias_coded" in cert.source and "vec_of_coded dc E Lc" in cert.source
    res = certify(inst, dec, coq)
    assert res is not None and res.accepted, res.message


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(1, 40), st.integers(1, 9), st.integers(0, 61), st.booleans(), st.integers(0, 2**32))
def test_packing_by_numpy_is_the_packing_by_python_ints(rows, cols, bits, unsigned, seed):
    """The NumPy packer writes the same literals as the Python one, and the coding choice
    read from arrays is the one read from rows (byte-identical certificates)."""
    from pybridge.certify.coded import _literals, _width
    from pybridge.certify.encoding import pack_fields, pack_int64

    rng = np.random.default_rng(seed)
    hi = 2**bits
    arr = rng.integers(0 if unsigned else -hi + 1, hi, size=(rows, cols), dtype=np.int64)
    w = _width(arr, unsigned=unsigned)
    assert w == _width(arr.tolist(), unsigned=unsigned)
    k = 63 // w
    if k >= 2:
        off = 0 if unsigned else 1 << (w - 1)
        assert pack_int64(arr, w, k, off) == pack_fields(arr.ravel().tolist(), w, k, off)
    assert _literals([arr], w) == _literals([arr.tolist()], w)
