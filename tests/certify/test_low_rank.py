"""A low-rank ``W_up``: not absorbable below ``2 (d - rank W_up)`` (issue 20: stride-0 views).

``pybridge.exact.low_rank`` finds rows spanning ``W_up`` (screened modulo a prime, verified
exactly) and the null vectors; ``CertifyLowRank.cert_low_rank_relu`` / ``cert_low_rank_pm``
check them. Coq accepts the verdicts (ReLU, GELU, rank 0, 1, 2, float32 and huge integer
weights), rejects tampered null vectors, and the claim is refused for weights whose rows
leave the span; rows independent over Q but dependent modulo the screening prime never
get the bound.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F

import numpy as np
import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from pybridge.activations import resolve
from pybridge.certify.pipeline import certify, certify_many
from pybridge.decision import decide
from pybridge.decision.width_route import library_has
from pybridge.exact.arrays import ArrayMatrix
from pybridge.exact.low_rank import SCREEN_PRIME, digits_bound, find_low_rank, span_pivots
from pybridge.exact.modular import IntMatrix
from pybridge.model import Instance

pytestmark = pytest.mark.skipif(not library_has("certify/CertifyLowRank.v"),
                                reason="certify/CertifyLowRank.v not in the library")


def _inst(A: np.ndarray, B: np.ndarray, activation: str = "relu") -> Instance:
    if A.dtype == object:
        return Instance(resolve(activation), [[F(int(x)) for x in r] for r in A], [[F(int(x)) for x in r] for r in B])
    return Instance(resolve(activation), ArrayMatrix(A, exact=True), ArrayMatrix(B, exact=True))


def _low_rank(d: int, n: int, rho: int, seed: int, floats: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``W_up = C V`` with ``rho`` random rows ``V`` (rows of ``W_up`` itself when ``floats``:
    row ``i < rho`` is ``V_i``, the others exact float32 multiples or sums)."""
    rng = np.random.default_rng(seed)
    if floats:
        V = (rng.standard_normal((max(rho, 1), d)) * 0.02).astype(np.float32)
        A = np.zeros((n, d), dtype=np.float32)
        for i in range(n):
            if rho:
                A[i] = V[i % rho] * np.float32(2.0 ** rng.integers(-2, 3))
        B = (rng.standard_normal((d, n)) * 0.02).astype(np.float32)
        return A, B
    V = rng.integers(-9, 10, (rho, d))
    C = rng.integers(-3, 4, (n, rho))
    return C @ V, rng.integers(-9, 10, (d, n))


def test_low_rank_checked_by_coq(backend) -> None:
    """Rank 0, 1, 2; ReLU, GELU, GELU_tanh; float32 and integer weights: each verdict accepted
    by Coq with its statement vetted (one coqc run for all)."""
    d, n = 12, 14
    cases = [("relu", 1, True), ("gelu", 2, False), ("relu", 0, True), ("gelu_tanh", 1, True)]
    pairs = []
    for activation, rho, floats in cases:
        inst = _inst(*_low_rank(d, n, rho, 1, floats), activation=activation)
        dec = decide(inst)
        assert dec.verdict == "not_absorbable", dec.reason
        assert dec.width_info is not None and dec.width_info.reason == "low_rank", dec.reason
        lr = dec.width_info.low_rank
        assert lr is not None and lr.rho == rho and lr.free == d - rho
        assert f"width {n} < 2 (d - rank W_up) = {2 * (d - rho)}" in dec.reason
        lemma = "cert_low_rank_relu" if activation == "relu" else "cert_low_rank_pm"
        assert dec.theorem is not None and dec.theorem.endswith(lemma)
        pairs.append((inst, dec))
    for case, res in zip(cases, certify_many(pairs, backend, timeout=300)):
        assert res is not None and res.accepted, (case, res and res.message)
        assert "statement vetted" in res.message


def test_other_widths_and_the_bound(backend) -> None:
    """``--width m``: refuted and Coq-checked below ``2 (d - rho)``, never at or above it."""
    d, n = 10, 6
    inst = _inst(*_low_rank(d, n, 2, 3))
    decs = [decide(inst, width=m) for m in (1, 9, 15)]
    for dec in decs:
        assert dec.verdict == "not_absorbable" and dec.width_info is not None, dec.reason
        assert dec.width_info.reason == "low_rank", dec.reason
    for res in certify_many([(inst, dec) for dec in decs], backend, timeout=300):
        assert res is not None and res.accepted, res and res.message
    dec = decide(inst, width=16)
    assert dec.width_info is None or dec.width_info.reason != "low_rank", dec.reason


def test_tampered_null_vectors_rejected(backend) -> None:
    inst = _inst(*_low_rank(12, 14, 2, 5, floats=False))
    dec = decide(inst)
    info = dec.width_info
    assert info is not None and info.low_rank is not None
    lr = info.low_rank
    bad_w = ((lr.W[0][0] + 1,) + lr.W[0][1:],) + lr.W[1:]
    for bad in (replace(lr, W=bad_w), replace(lr, D=lr.D + 1), replace(lr, P=(lr.P[0], lr.P[0])),
                replace(lr, W=lr.W[:-1])):
        res = certify(inst, replace(dec, width_info=replace(info, low_rank=bad)), backend, timeout=300)
        assert res is not None and not res.accepted, bad


def test_claim_refused_when_the_rows_leave_the_span(backend) -> None:
    """The rank-1 decision of one layer offered for the same layer with one row moved off the
    line (rank 2): the claim names rows that do not span the user's W_up and is refused."""
    A, B = _low_rank(12, 14, 1, 7)
    dec = decide(_inst(A, B))
    assert dec.width_info is not None and dec.width_info.reason == "low_rank"
    A2 = A.copy()
    A2[5, 3] += np.float32(0.5)
    moved = _inst(A2, B)
    res = certify(moved, replace(dec, weights_sha256=decide(moved).weights_sha256), backend, timeout=300)
    assert res is not None and not res.accepted


def test_huge_numerators(backend) -> None:
    """Integer weights beyond 63 bits (``2**70`` times a row): Z literals, checked by Coq."""
    A, B = _low_rank(8, 9, 1, 2, floats=False)
    A = A.astype(object) * (2**70 + 1)
    inst = _inst(A, B.astype(object))
    dec = decide(inst)
    assert dec.width_info is not None and dec.width_info.reason == "low_rank", dec.reason
    res = certify(inst, dec, backend, timeout=300)
    assert res is not None and res.accepted, res and res.message


def test_rows_dependent_only_modulo_the_screening_prime(backend) -> None:
    """Rows crafted against the screening prime (``a_1 = a_0 + p e_1``: equal mod ``p``,
    independent over Q) are never taken as rank 1; their rank-2 bound is Coq-checked (the
    claim's own span check takes its pivots modulo another prime)."""
    p = SCREEN_PRIME
    d, n = 6, 5
    A = np.zeros((n, d), dtype=np.int64)
    A[0] = [1, 2, 0, 0, 0, 0]
    A[1] = [1, 2 + p, 0, 0, 0, 0]
    A[2:] = A[0]
    Ai = IntMatrix.from_numerators(A, 1)
    lr = find_low_rank(Ai, 4, seed=0)
    assert lr is not None and lr.rho == 2
    assert span_pivots(A, [0]) is None
    # the rows [0, 1] span W_up; modulo p they are dependent, so the pivots come from another prime
    found = span_pivots(A, [0, 1])
    assert found is not None and found[1] != 0
    inst = _inst(A, np.ones((d, n), dtype=np.int64))
    dec = decide(inst)
    assert dec.width_info is not None and dec.width_info.low_rank is not None, dec.reason
    assert dec.width_info.low_rank.rho == 2
    res = certify(inst, dec, backend, timeout=120)
    assert res is not None and res.accepted, res and res.message


def test_generic_and_absorbable_layers_untouched() -> None:
    """Full-rank layers never get the bound (their null space is 0); an absorbable layer
    (``W_down = -W_up^T`` on a basis: rank d) stays absorbable."""
    rng = np.random.default_rng(0)
    A = rng.integers(-9, 10, (12, 6))
    lr = find_low_rank(IntMatrix.from_numerators(A, 1), 16, seed=0)
    assert lr is not None and lr.rho == 6 and lr.free == 0
    assert find_low_rank(IntMatrix.from_numerators(A, 1), 5, seed=0) is None
    dec = decide(_inst(A, rng.integers(-9, 10, (6, 12))), width=3)
    assert dec.width_info is None or dec.width_info.reason != "low_rank", dec.reason
    A = np.vstack([np.eye(4, dtype=np.int64), rng.integers(-9, 10, (2, 4))])
    B = np.hstack([-np.eye(4, dtype=np.int64), np.zeros((4, 2), dtype=np.int64)])
    dec = decide(_inst(A, B))
    assert dec.verdict == "absorbable", dec.reason


@settings(max_examples=examples(20), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rho=st.integers(0, 3), d=st.integers(4, 9), n=st.integers(1, 12))
def test_low_rank_found_exactly(seed: int, rho: int, d: int, n: int) -> None:
    """The rows found span ``W_up`` exactly, the null vectors satisfy ``D V_f = V_P W_f``, the
    rank is the true rank (SymPy) and the digit bound bounds the certificate's digits."""
    import sympy

    A, _ = _low_rank(d, n, rho, seed, floats=False)
    lr = find_low_rank(IntMatrix.from_numerators(A, 1), 16, seed=seed)
    true_rank = sympy.Matrix(A.tolist()).rank()
    assert lr is not None and lr.rho == true_rank
    V = np.array(lr.V, dtype=object).reshape(lr.rho, d)
    assert digits_bound(V, lr.free) >= lr.digits  # the budget is checked before any adjugate
    free = [f for f in range(d) if f not in lr.P]
    for b, f in enumerate(free):
        lhs = V[:, f] * lr.D
        rhs = sum((V[:, lr.P[s]] * lr.W[b][s] for s in range(lr.rho)), np.zeros(lr.rho, dtype=object))
        assert list(lhs) == list(rhs)


def test_wide_layer_checked_in_one_pass(backend) -> None:
    """Two equal rows in dimension 3000 (a 24 KB layer; the width route's exhaustive search
    builds dense ``d x d`` rational matrices, about a minute here): the bound decides it in
    seconds and Coq checks it in one pass over the columns of ``V``."""
    rng = np.random.default_rng(1)
    A = (rng.standard_normal((2, 3000)) * 0.02).astype(np.float32)
    A[1] = A[0]
    B = (rng.standard_normal((3000, 2)) * 0.02).astype(np.float32)
    inst = _inst(A, B)
    dec = decide(inst)
    assert dec.verdict == "not_absorbable" and dec.width_info is not None, dec.reason
    assert dec.width_info.reason == "low_rank", dec.reason
    res = certify(inst, dec, backend, timeout=120)
    assert res is not None and res.accepted, res and res.message


def test_certificate_size_bounds_the_route(monkeypatch) -> None:
    """A rank bound whose null vectors would make a certificate past ``MAX_DIGITS`` (Coq would
    read it for minutes) is not used: the layer goes to the other routes."""
    from pybridge.decision import width_route

    inst = _inst(*_low_rank(12, 14, 2, 5, floats=False))
    dec = decide(inst)
    assert dec.width_info is not None and dec.width_info.low_rank is not None
    monkeypatch.setattr(width_route, "LOW_RANK_MAX_DIGITS", dec.width_info.low_rank.digits - 1)
    dec = decide(inst)
    assert dec.width_info is None or dec.width_info.reason != "low_rank", dec.reason
