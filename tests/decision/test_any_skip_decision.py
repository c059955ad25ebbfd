"""Singular skips decided without R1 (``pybridge.decision.any_skip``), decision side, no Coq.

Planted ``S`` with ``B_S A_S = -P`` for ``P`` of rank 1 and rank ``d - 1``, generic blocks with
no ``S``, non-generic blocks (never a generic verdict), the zero skip, R2/R3 with a singular
nonzero skip, other widths (``undecided``), and the invertible route unchanged.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction as F

import pytest
from helpers import mat, residual

from pybridge.decision import decide
from pybridge.decision.any_skip import singular_skip, zero_skip
from pybridge.decision.classify import decide as decide_by_r1
from pybridge.exact.linalg import rank
from pybridge.io import instance_from_json
from pybridge.model import Activation, Instance

RELU = Activation("relu")


def _sub_product(A, B, S) -> tuple:
    d = len(B)
    return tuple(tuple(sum((B[k][i] * A[i][l] for i in S), F(0)) for l in range(d)) for k in range(d))


def planted_singular(d: int, n: int, r: int, seed: int) -> tuple[tuple, tuple, tuple, tuple[int, ...]]:
    """Random integer ``A``, ``B``; ``P = -B_S A_S`` for a random ``S`` of size ``r < d``: rank ``r``."""
    rng = random.Random(seed)
    while True:
        A = mat([[rng.randint(-4, 4) for _ in range(d)] for _ in range(n)])
        B = mat([[rng.randint(-4, 4) for _ in range(n)] for _ in range(d)])
        S = tuple(sorted(rng.sample(range(n), r)))
        P = tuple(tuple(-v for v in row) for row in _sub_product(A, B, S))
        if rank(P) == r:
            return A, B, P, S


@pytest.mark.parametrize("act", ["relu", "gelu", "silu", "quick_gelu"])
@pytest.mark.parametrize("d, r", [(3, 1), (3, 2), (4, 3), (2, 1)])
def test_planted_singular_skip_is_absorbable(act: str, d: int, r: int) -> None:
    A, B, P, _ = planted_singular(d, 5, r, seed=10 * d + r)
    inst = Instance(Activation(act), A, B, skip=P)
    assert singular_skip(inst) and rank(P) == r < d
    dec = decide(inst)
    assert dec.verdict == "absorbable" and dec.result == "R5", dec.reason
    assert dec.theorem == "Absorb.results.PostNormGeneric.odd_skip_absorbable"
    assert dec.skip_inverse is None and dec.weights_sha256 is not None
    S = dec.witness.subset
    # the S found (maybe another than the planted one) has P + B_S A_S = 0 exactly
    assert all(P[k][l] + _sub_product(A, B, S)[k][l] == 0 for k in range(d) for l in range(d))
    if act == "relu":  # the witness is the user's block, exactly (ReLU evaluates exactly)
        w = dec.witness
        for x in ([F(1), F(-2), F(3), F(1, 2)][:d], [F(-1)] * d, [F(5, 3)] + [F(0)] * (d - 1)):
            assert residual(P, A, B, x) == residual([[F(0)] * d for _ in range(d)], w.W_up, w.W_down, x)


def test_planted_with_biases() -> None:
    A, B, P, _ = planted_singular(3, 4, 2, seed=7)
    inst = Instance(RELU, A, B, skip=P, b_up=(F(1), F(-2), F(1, 3), F(0)), b_down=(F(1), F(0), F(-5)))
    dec = decide(inst)
    assert dec.verdict == "absorbable" and dec.result == "R9"
    assert dec.theorem == "Absorb.bias.ReluBiasSkip.odd_skip_absorbable_bias"
    w = dec.witness
    for x in ([F(1), F(-2), F(3)], [F(-1), F(1, 2), F(0)]):
        want = residual(P, A, B, x, bias_up=list(inst.b_up), bias_down=list(inst.b_down))
        got = residual([[F(0)] * 3 for _ in range(3)], w.W_up, w.W_down, x, bias_up=list(w.b_up),
                       bias_down=list(w.b_down))
        assert want == got


@pytest.mark.parametrize("act, theorem", [
    ("relu", "Absorb.results.PostNormGeneric.relu_skip_absorbable_iff"),
    ("gelu_tanh", "Absorb.bias.EvenBiasSkip.even_skip_absorbable_iff"),
])
def test_generic_singular_skip_not_absorbable(act: str, theorem: str) -> None:
    # a = e_1, b = e_1, P = e_1 e_1^T: P + B_S A_S is P or 2P, never 0
    inst = Instance(Activation(act), mat([[1, 0]]), mat([[1], [0]]), skip=mat([[1, 0], [0, 0]]))
    dec = decide(inst)
    assert dec.verdict == "not_absorbable" and dec.generic and dec.theorem == theorem, dec.reason
    assert dec.evidence is not None and dec.evidence.nosub_cert is not None
    # random generic d = 4 blocks with a rank-2 skip
    rng = random.Random(3)
    A = mat([[rng.randint(-9, 9) for _ in range(4)] for _ in range(6)])
    B = mat([[rng.randint(-9, 9) for _ in range(6)] for _ in range(4)])
    u, v = mat([[1, 2, 0, -1], [0, 1, 1, 3]]), mat([[2, 0, 1, 1], [1, -1, 0, 2]])
    P = tuple(tuple(u[0][k] * v[0][l] + u[1][k] * v[1][l] for l in range(4)) for k in range(4))
    dec = decide(Instance(Activation(act), A, B, skip=P))
    assert rank(P) == 2 and dec.verdict == "not_absorbable" and dec.theorem == theorem


def test_biased_generic_not_absorbable_and_not_generic() -> None:
    base = Instance(RELU, mat([[1, 0]]), mat([[1], [0]]), skip=mat([[1, 0], [0, 0]]), b_up=(F(1),), b_down=(F(2), F(3)))
    dec = decide(base)
    assert dec.verdict == "not_absorbable" and dec.result == "R9"
    assert dec.theorem == "Absorb.bias.ReluBiasSkip.relu_bias_skip_absorbable_iff"
    # a zero row of W_up (a constant unit): not generic with biases, never a generic verdict
    flat = replace(base, W_up=mat([[1, 0], [0, 0]]), W_down=mat([[1, 1], [0, 0]]), b_up=(F(1), F(2)))
    dec = decide(flat)
    assert dec.verdict == "outside_hypotheses" and "row 1 of W_up is zero" in dec.reason


@pytest.mark.parametrize("A, B, why", [
    ([[1, 0], [2, 0]], [[1, 1], [0, 0]], "parallel"),       # a_2 = 2 a_1
    ([[1, 0], [0, 1]], [[1, 0], [0, 0]], "column 1"),       # b_2 = 0
])
def test_non_generic_singular_skip_gets_no_generic_verdict(A, B, why: str) -> None:
    inst = Instance(RELU, mat(A), mat(B), skip=mat([[1, 0], [0, 0]]))
    dec = decide(inst)
    assert dec.verdict == "outside_hypotheses" and dec.generic is False, dec.reason
    assert "not generic" in dec.reason


def test_zero_skip_is_residual_free() -> None:
    zero = mat([[0, 0], [0, 0]])
    for act, bias, thm in [("relu", False, "cert_zero_skip_absorbable"), ("relu_pow", False, "cert_zero_skip_absorbable"),
                           ("swiglu", False, "cert_zero_skip_absorbable_gated"),
                           ("gelu", True, "cert_zero_skip_absorbable_bias"),
                           ("swiglu", True, "cert_zero_skip_absorbable_gated_bias")]:
        a = Activation(act, degree=2) if act == "relu_pow" else Activation(act)
        kw = dict(b_up=(F(1),), b_down=(F(0), F(1))) if bias else {}
        inst = Instance(a, mat([[1, 2]]), mat([[3], [4]]), W_gate=mat([[1, 1]]) if a.gated else None, skip=zero, **kw)
        assert zero_skip(inst)
        dec = decide(inst)
        assert dec.verdict == "absorbable" and dec.theorem == "Absorb.certify.CertifyAnySkip." + thm, (act, dec)
        assert decide(inst, width=2).verdict == "undecided"


def test_r2_r3_hold_for_a_singular_nonzero_skip() -> None:
    P = mat([[1, 1], [1, 1]])
    gated = Instance(Activation("swiglu"), mat([[1, 2]]), mat([[3], [4]]), W_gate=mat([[1, 1]]), skip=P)
    dec = decide(gated)
    assert dec.verdict == "not_absorbable" and dec.result == "R3" and "singular and nonzero" in dec.reason
    sq = Instance(Activation("relu_pow", degree=2), mat([[1, 2]]), mat([[3], [4]]), skip=P)
    assert decide(sq).result == "R2" and decide(sq).verdict == "not_absorbable"
    biased = replace(gated, b_up=(F(1),))
    assert decide(biased).verdict == "outside_hypotheses"


def test_other_widths_are_undecided_with_the_reason() -> None:
    inst = Instance(RELU, mat([[1, 0]]), mat([[-1], [0]]), skip=mat([[1, 0], [0, 0]]))
    assert decide(inst).verdict == "absorbable"
    dec = decide(inst, width=3)
    assert dec.verdict == "undecided" and "width 3 != n = 1" in dec.reason and dec.width == 3
    dec = decide(inst, min_width=True)
    assert dec.verdict == "undecided" and "least absorbing width" in dec.reason


def test_invertible_skips_keep_the_r1_route() -> None:
    """The identity and invertible skips: exactly classify's decision (R1), reason included."""
    rng = random.Random(5)
    A = mat([[rng.randint(-4, 4) for _ in range(3)] for _ in range(5)])
    B = mat([[rng.randint(-4, 4) for _ in range(5)] for _ in range(3)])
    P = mat([[2, 1, 0], [0, 1, 0], [1, 0, 3]])
    for inst in (Instance(RELU, A, B), Instance(RELU, A, B, skip=P),
                 Instance(RELU, A, B, skip=P, b_up=(F(1),) * 5)):
        assert not singular_skip(inst)
        mine, r1 = decide(inst), decide_by_r1(inst)
        assert mine == r1 and mine.reason == r1.reason and mine.weights_sha256 == r1.weights_sha256
    assert decide(Instance(RELU, A, B, skip=P)).skip_inverse is not None


def test_json_with_a_singular_skip_is_read_and_decided() -> None:
    doc = '{"activation": "relu", "W_up": [[1, 2], [3, 4]], "W_down": [[1, 0], [0, 1]], "skip": [[1, 2], [2, 4]]}'
    inst = instance_from_json(doc)
    assert singular_skip(inst)
    assert decide(inst).verdict in ("absorbable", "not_absorbable", "outside_hypotheses")


def test_huge_singular_skip_entries_are_exact() -> None:
    big = F(2**200 + 1, 3)
    P = ((big, 2 * big), (F(1, 2**90), F(2, 2**90)))  # rank 1: second column = 2 * first
    A = mat([[1, 2]])
    B = ((-big,), (-F(1, 2**90),))  # b a^T = -P
    dec = decide(Instance(RELU, A, B, skip=P))
    assert dec.verdict == "absorbable" and dec.witness.subset == (0,)


def test_arrays_and_npz_with_a_singular_skip_are_read(tmp_path) -> None:
    import numpy as np

    import pybridge
    from pybridge.checking import load

    up, down, skip = np.array([[1.0, 0.0]]), np.array([[-0.5], [0.0]]), np.array([[0.5, 0.0], [0.0, 0.0]])
    inst = pybridge.from_arrays(up, down, skip=skip)
    assert singular_skip(inst) and decide(inst).verdict == "absorbable"
    path = tmp_path / "w.npz"
    np.savez(path, W_up=up, W_down=down, skip=skip)
    inst = load(path, "gelu")
    assert singular_skip(inst) and inst.skip == ((F(1, 2), F(0)), (F(0), F(0)))
    assert decide(inst).verdict == "absorbable"
