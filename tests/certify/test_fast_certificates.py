"""Block (partial) certificates, FLINT/BLAS linear algebra mod p, random primes, bounded
meet in the middle, and ``scan(jobs=N)`` (issue 10). Speed is measured in bench/, not here."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from fractions import Fraction as F
from math import prod

import numpy as np
import pytest
from helpers import RELU, evidence_entry_changed, generic_instance, mat, rebound

from pybridge.certify.agreement import agreement
from pybridge.certify.kinds import CertificateKind
from pybridge.certify.pipeline import build_certificate, certify
from pybridge.coq import CoqBackend
from pybridge.decision import decide
from pybridge.decision import subset_search as ss
from pybridge.decision.genericity import check_generic, sorted_certificate
from pybridge.decision.subset_search import (
    BlockNoSubsetCertificate,
    _System,
    block_indices,
    search_subset,
    verify_nosub,
)
from pybridge.exact.modular import (
    PRIMES,
    identity_int,
    is_prime,
    random_primes,
    rank_mod,
    rref_mod,
    scale_matrix,
    solve_mod,
    solve_square_blas,
)
from pybridge.model import Instance
from pybridge.prover import ProverOutcome

# ---------------------------------------------------------------- linear algebra mod p


def test_random_primes_are_primes_from_a_large_pool():
    ps = random_primes(20)
    assert len(set(ps)) == 20 and all(2**30 <= p < 2**31 and is_prime(p) for p in ps)
    assert all(is_prime(p) for p in PRIMES) and not is_prime(2**31 - 3) and not is_prime(561)
    small = random_primes(5, 2**19, 2**20)
    assert all(2**19 <= p < 2**20 and is_prime(p) for p in small)


@pytest.mark.parametrize("n", [1, 7, 130])
def test_blas_solve_agrees_with_flint(n):
    p = random_primes(1, 2**19, 2**20, rng=random.Random(n))[0]
    rng = np.random.default_rng(n)
    m = rng.integers(0, p, size=(n, n))
    b = rng.integers(0, p, size=n)
    x = solve_square_blas(m, b, p)
    assert x is not None
    exact = (m.astype(object).dot(x.astype(object)) - b.astype(object)) % p
    assert not np.any(exact)
    assert np.array_equal(x, solve_mod(m, b, p))


def test_blas_solve_singular_is_none():
    p = 1048573
    m = np.array([[1, 2, 3], [2, 4, 6], [0, 1, 1]])
    assert solve_square_blas(m, np.array([1, 1, 1]), p) is None
    with pytest.raises(ValueError):
        solve_square_blas(m, np.array([1, 1, 1]), PRIMES[0])


def test_flint_rank_and_rref():
    p = PRIMES[0]
    m = np.array([[1, 2, 3], [2, 4, 6], [0, 1, 1], [1, 3, 4]])
    assert rank_mod(m, p) == 2
    red, piv = rref_mod(m, p)
    assert piv == [0, 1] and red[0, 0] == 1 and red[1, 1] == 1 and not red[2:].any()
    _, piv2 = rref_mod(np.array([[0, 0, 1]]), p, ncols=2)
    assert piv2 == []


def test_scale_matrix_exact_for_floats_and_fractions():
    A = scale_matrix([[F(1, 3), 0.5, 2], [F(-7, 6), 1e-30, 0]])
    assert A.den % 6 == 0
    assert F(A.rows[0][0], A.den) == F(1, 3) and F(A.rows[1][1], A.den) == F(1e-30)


# ---------------------------------------------------------------- block no-subset certificates


def test_block_certificate_reads_only_the_block_and_is_a_full_certificate():
    inst = generic_instance(8, 40, 41)
    A, B, T = scale_matrix(inst.W_up), scale_matrix(inst.W_down), identity_int(8)
    out = search_subset(A, B, T)
    assert out.status == "none" and isinstance(out.certificate, BlockNoSubsetCertificate)
    R = out.certificate.block
    assert R == block_indices(8, 40) and len(R) ** 2 >= 41 and len(R) < 8
    for f in out.certificate.functionals:
        assert all(k in R for k, _ in f.rows)
        assert all(v == 0 for _, row in f.rows for j, v in enumerate(row) if j not in R)
    # written in full coordinates, it is also a certificate for the whole system
    assert verify_nosub(_System(A, B, T, out.certificate.p), out.certificate)


def test_block_search_tries_a_small_prime_first(monkeypatch):
    """The block certificate's prime is below 2^10 (its residues pack six to a literal); when
    the block system is singular modulo it, the search goes on with a prime near the float LU's
    bound and still certifies."""
    small, big = ss.block_primes(41)
    assert 2**9 <= small < 2**10 and big > 2**18
    inst = generic_instance(8, 40, 41)
    A, B, T = scale_matrix(inst.W_up), scale_matrix(inst.W_down), identity_int(8)
    out = search_subset(A, B, T)
    assert out.certificate is not None and out.certificate.p < 2**10
    real, primes = ss.solve_square_blas, []

    def singular_mod_small(m, e, p):
        primes.append(p)
        return None if p < 2**10 else real(m, e, p)

    monkeypatch.setattr(ss, "solve_square_blas", singular_mod_small)
    out = search_subset(A, B, T)
    assert out.status == "none" and isinstance(out.certificate, BlockNoSubsetCertificate)
    assert len(primes) == 2 and primes[0] < 2**10 < primes[1] == out.certificate.p
    assert verify_nosub(_System(A, B, T, out.certificate.p), out.certificate)


def test_planted_prime_multiples_do_not_block_genericity():
    """W_up scaled by the product of the three formerly fixed primes (d = 3, n = 5)."""
    inst = generic_instance(3, 5, 42)
    big = prod(PRIMES[:3])
    scaled = Instance(RELU, tuple(tuple(v * big for v in r) for r in inst.W_up), inst.W_down)
    gen = check_generic(scale_matrix(scaled.W_up), scale_matrix(scaled.W_down))
    assert gen.generic and gen.certificate is not None
    dec = decide(scaled)
    assert dec.verdict in ("not_absorbable", "absorbable")


def test_meet_in_the_middle_is_bounded(monkeypatch):
    """d = 1, n = 18, every b_i a_i = 0 mod the first prime tried: the search gives up on that
    prime after a bounded number of candidates and decides with the next one."""
    P = PRIMES[0]
    n = 18
    A = mat([[P * (i + 1)] for i in range(n)])
    B = mat([[F(1, P) if i % 2 else F(2, P) for i in range(n)]])  # b_i a_i > 0: no S with sum = -1
    real = ss.random_primes
    calls = []

    def planted(count, *args, **kw):
        calls.append(count)
        return [P] + real(count - 1, *args, **kw) if len(calls) == 1 else real(count, *args, **kw)

    monkeypatch.setattr(ss, "random_primes", planted)
    out = ss._search_subset(scale_matrix(A), scale_matrix(B), identity_int(1))
    assert out.status == "none" and out.certificate.p != P
    monkeypatch.setattr(ss, "random_primes", lambda count, *a, **k: [P] * count)
    out = ss._search_subset(scale_matrix(A), scale_matrix(B), identity_int(1))
    assert out.status == "unknown" and "candidate subsets" in out.reason


def test_sorted_genericity_certificate_detects_parallel_rows():
    inst = generic_instance(4, 12, 43)
    A, B = scale_matrix(inst.W_up), scale_matrix(inst.W_down)
    assert sorted_certificate(A, B, (0, 1, 2, 3)) is not None
    rows = list(A.rows)
    rows[5] = tuple(3 * v for v in rows[2])
    assert sorted_certificate(type(A)(tuple(rows), A.den), B, (0, 1, 2, 3)) is None


# ---------------------------------------------------------------- Coq: partial certificates


@pytest.fixture(scope="module")
def coq(backend: CoqBackend) -> CoqBackend:
    assert (backend.theories / "certify" / "Certify.vo").exists()
    return backend


@pytest.mark.coq
def test_partial_certificate_accepted_and_covers_weights_outside_the_block(coq):
    inst = generic_instance(8, 40, 44)
    dec = decide(inst)
    cert = build_certificate(inst, dec)
    assert cert is not None and cert.kind is CertificateKind.GENERIC_NOT_ABSORBABLE_PARTIAL
    R = cert.extract.block
    assert len(R) < 8 and re.search(r"forall A B : mat, agrees_up(_mod n R dA p RAp| n R dA RA) A", cert.source)
    assert cert.extract.weights_sha256 in cert.source and cert.extract.extract_sha256 in cert.source
    res = certify(inst, dec, coq)
    assert res.accepted, res.message
    assert "agree exactly" in res.message
    # a weight outside the block changed: the certified statement still covers it
    up = [list(r) for r in inst.W_up]
    up[3][7] += 5
    other = replace(inst, W_up=tuple(tuple(r) for r in up))
    assert agreement(other, cert.extract) is None
    # but the certificate was written from inst's weights (its header records their digest):
    # a decision rebound to other is refused (issue 20: nothing written for other weights)
    res = certify(other, rebound(dec, other), coq)
    assert res.rejected and "recorded digest of the weights" in res.message


@pytest.mark.coq
def test_partial_certificate_with_disagreeing_entries_rejected(coq):
    inst = generic_instance(8, 40, 45)
    dec = decide(inst)
    R = build_certificate(inst, dec).extract.block
    up = [list(r) for r in inst.W_up]
    up[3][R[1]] += 1
    other = replace(inst, W_up=tuple(tuple(r) for r in up))
    res = certify(other, rebound(dec, other), coq)
    assert res.outcome is ProverOutcome.REJECTED and "disagree" in res.message
    down = [list(r) for r in inst.W_down]
    down[R[0]][11] -= 1
    other = replace(inst, W_down=tuple(tuple(r) for r in down))
    res = certify(other, rebound(dec, other), coq)
    assert res.outcome is ProverOutcome.REJECTED and "W_down" in res.message


@pytest.mark.coq
def test_partial_certificate_with_tampered_block_data_rejected_by_coq(coq):
    """Evidence altered inside the block and the weights altered to match: the functional
    no longer annihilates the data, and Coq rejects."""
    inst = generic_instance(8, 40, 46)
    dec = decide(inst)
    R = build_certificate(inst, dec).extract.block
    res = certify(*evidence_entry_changed(inst, dec, 2, R[0], lambda v: v + 1), coq)
    assert not res.accepted


@pytest.mark.coq
def test_prime_multiple_weights_certified(coq, monkeypatch):
    """W_up a multiple of the formerly fixed first prime: decided and certified; scaled by the
    product of three such primes it is decided and certified on residues (its 93-bit
    numerators do not matter there); without the residue form they exceed the 63-bit
    encoding of the other certificates: not certified, said so."""
    inst = generic_instance(3, 5, 47)
    one = Instance(RELU, tuple(tuple(v * PRIMES[0] for v in r) for r in inst.W_up), inst.W_down)
    dec = decide(one)
    assert dec.verdict == "not_absorbable"
    res = certify(one, dec, coq)
    assert res.accepted, res.message
    big = prod(PRIMES[:3])
    three = Instance(RELU, tuple(tuple(v * big for v in r) for r in inst.W_up), inst.W_down)
    dec = decide(three)
    assert dec.verdict == "not_absorbable"
    res = certify(three, dec, coq)
    assert res.accepted, res.message
    monkeypatch.setattr("pybridge.certify.generic.residue_form", lambda *a: None)
    res = certify(three, dec, coq)
    assert res.outcome is ProverOutcome.NOT_CERTIFIED and "63-bit" in res.message


# ---------------------------------------------------------------- scan --jobs


def test_scan_jobs_matches_sequential(tmp_path):
    import sys

    from pybridge.api import scan

    root = __import__("pathlib").Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root / "bench"))
    try:
        from make_gpt2_checkpoint import write_safetensors
    finally:
        sys.path.pop(0)
    rng = np.random.default_rng(5)
    d, n = 6, 24
    tensors = {}
    for i in range(3):
        tensors[f"h.{i}.mlp.c_fc.weight"] = (rng.standard_normal((d, n)) * 0.02).astype(np.float32)
        tensors[f"h.{i}.mlp.c_fc.bias"] = np.zeros(n, dtype=np.float32)
        tensors[f"h.{i}.mlp.c_proj.weight"] = (rng.standard_normal((n, d)) * 0.02).astype(np.float32)
        tensors[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d, dtype=np.float32)
    write_safetensors(tmp_path / "model.safetensors", tensors)
    (tmp_path / "config.json").write_text('{"model_type": "gpt2", "n_layer": 3, "activation_function": "gelu_new"}')
    seen = []
    one = scan(tmp_path, prove=False)
    two = scan(tmp_path, prove=False, jobs=2, progress=lambda k, t, name: seen.append((k, t)))
    assert [lr.layer for lr in one.layers] == [lr.layer for lr in two.layers]
    assert [lr.report.decision.verdict for lr in one.layers] == [lr.report.decision.verdict for lr in two.layers]
    assert all(lr.report.decision.verdict == "not_absorbable" for lr in two.layers)
    assert seen[-1] == (3, 3)
