"""Exact decisions: planted subsets, generic weights, the paper's counterexample,
rank-deficient systems against brute force, skips, biases, bad input."""

from __future__ import annotations

import random
from fractions import Fraction as F
from itertools import combinations

import pytest
from helpers import RELU, block, examples, mat, matmul, planted, random_points, relu, residual, structured_wide
from hypothesis import given, settings
from hypothesis import strategies as st

from pybridge.decision import Functional, check_generic, decide, search_subset, verify_nosub
from pybridge.decision.subset_search import _System
from pybridge.errors import InputError
from pybridge.exact.linalg import invert
from pybridge.exact.modular import IntMatrix, identity_int, scale_matrix
from pybridge.model import Activation, Instance


@pytest.mark.parametrize("d,n,seed", [(1, 3, 0), (2, 5, 1), (3, 8, 2), (6, 20, 3), (10, 40, 4)])
def test_planted_subset_found_and_witness_equal(d, n, seed):
    A, B, S = planted(d, n, seed)
    dec = decide(Instance(RELU, A, B))
    assert dec.verdict == "absorbable"
    assert dec.result == "R5" and dec.theorem == "Absorb.results.FlipSigns.odd_part_absorbable"
    w = dec.witness
    # the subset found satisfies the condition exactly
    cond = [[sum((B[k][i] * A[i][l] for i in w.subset), F(0)) for l in range(d)] for k in range(d)]
    assert cond == [[F(-1 if k == l else 0) for l in range(d)] for k in range(d)]
    for x in random_points(d, 6, seed):
        assert block(w.W_up, w.W_down, x) == residual(None, A, B, x)


def test_generic_random_not_absorbable():
    rng = random.Random(7)
    d, n = 5, 30
    A = mat([[rng.randint(-9, 9) for _ in range(d)] for _ in range(n)])
    B = mat([[rng.randint(-9, 9) for _ in range(n)] for _ in range(d)])
    dec = decide(Instance(RELU, A, B))
    assert dec.verdict == "not_absorbable"
    assert dec.generic is True
    assert dec.theorem == "Absorb.results.ReluSubmatrix.relu_absorbable_generic_submatrix"
    assert dec.evidence.nosub_cert is not None and dec.evidence.generic_cert is not None


def test_paper_counterexample_is_decided_by_r8():
    dec = decide(Instance(RELU, mat([[1], [2]]), mat([[1, 1]])))
    assert dec.verdict == "absorbable" and dec.result == "R8"
    assert dec.width_info is not None and dec.width_info.block is not None
    # ... although it IS absorbable: x + relu(x) + relu(2x) = 4 relu(x) - relu(-x)
    for x in (F(-3), F(-1, 2), F(0), F(5, 3)):
        assert x + relu(x) + relu(2 * x) == 4 * relu(x) - relu(-x)


@pytest.mark.parametrize("name,module", [("gelu", "GeluRidge"), ("gelu_tanh", "GeluTanhRidge"),
                                         ("silu", "SiluRidge")])
def test_smooth_generic_without_subset_not_absorbable(name, module):
    """R5 (=>) for GELU, GELU_tanh, SiLU (ridge uniqueness proved in the library)."""
    rng = random.Random(8)
    A = mat([[rng.randint(-9, 9) for _ in range(3)] for _ in range(10)])
    B = mat([[rng.randint(-9, 9) for _ in range(10)] for _ in range(3)])
    dec = decide(Instance(Activation(name), A, B))
    assert dec.verdict == "not_absorbable"
    assert dec.theorem.startswith(f"Absorb.ridge.{module}.")


def test_gelu_planted_is_absorbable():
    A, B, _ = planted(3, 9, 5)
    assert decide(Instance(Activation("silu"), A, B)).verdict == "absorbable"


def brute_force(A, B, d, n):
    target = [[F(-1 if k == l else 0) for l in range(d)] for k in range(d)]
    for r in range(n + 1):
        for S in combinations(range(n), r):
            if [[sum((B[k][i] * A[i][l] for i in S), F(0)) for l in range(d)] for k in range(d)] == target:
                return True
    return False


@settings(max_examples=examples(60), deadline=None)
@given(
    d=st.integers(1, 2),
    n=st.integers(1, 9),
    data=st.data(),
)
def test_search_matches_brute_force(d, n, data):
    """Small integer entries give rank-deficient systems with many free variables."""
    vals = st.integers(-2, 2)
    A = mat([[data.draw(vals) for _ in range(d)] for _ in range(n)])
    B = mat([[data.draw(vals) for _ in range(n)] for _ in range(d)])
    out = search_subset(scale_matrix(A), scale_matrix(B), identity_int(d))
    assert out.status in ("found", "none")
    assert (out.status == "found") == brute_force(A, B, d, n)


def test_rank_deficient_n24_exact():
    """d = 1, n = 24: one equation, 23 free variables; a subset sum with a unique solution."""
    a = [F(1)] * 24
    b = [F(2 ** i) for i in range(24)]  # sum_{i in S} 2^i = -1 impossible
    dec = decide(Instance(RELU, mat([[v] for v in a]), mat([b])))
    # all rows on one line: one ridge, and every d = 1 ReLU block is absorbable at width >= 2 (R8)
    assert (dec.verdict, dec.result) == ("absorbable", "R8")
    out = search_subset(scale_matrix(mat([[v] for v in a])), scale_matrix(mat([b])), identity_int(1))
    assert out.status in ("none", "unknown")
    b[5] = F(-1)  # now S = {5} works
    out = search_subset(scale_matrix(mat([[v] for v in a])), scale_matrix(mat([b])), identity_int(1))
    assert out.status == "found" and out.subset == (5,)


def test_rank_deficient_with_solution_among_many():
    A = mat([[1, 0], [0, 1], [1, 0], [0, 1], [1, 1], [2, 0]])
    B = mat([[-1, 0, 0, 0, 0, 0], [0, 0, 0, -1, 0, 0]])
    out = search_subset(scale_matrix(A), scale_matrix(B), identity_int(2))
    assert out.status == "found" and set(out.subset) == {0, 3}


def test_skip_reduction_planted():
    """P x + B relu(A x) with B = P B~ and B~ planted: absorbable with W_down' = B."""
    d, n = 3, 9
    A, Bt, S = planted(d, n, 11)
    P = mat([[2, 1, 0], [0, 1, -1], [1, 0, 3]])
    B = matmul(P, Bt)
    dec = decide(Instance(RELU, A, B, skip=P))
    assert dec.verdict == "absorbable"
    assert dec.skip_inverse == invert(P)
    assert dec.reduced_down == Bt
    w = dec.witness
    for x in random_points(d, 5, 3):
        assert block(w.W_up, w.W_down, x) == residual(P, A, B, x)


def test_skip_generic_not_absorbable():
    rng = random.Random(12)
    d, n = 3, 10
    A = mat([[rng.randint(-9, 9) for _ in range(d)] for _ in range(n)])
    B = mat([[rng.randint(-9, 9) for _ in range(n)] for _ in range(d)])
    P = mat([[1, 2, 0], [0, 1, 0], [0, 0, 5]])
    assert decide(Instance(RELU, A, B, skip=P)).verdict == "not_absorbable"


def test_classification_verdicts():
    A = mat([[1, 2], [3, 4], [5, 7]])
    B = mat([[1, 0, 2], [0, 1, 1]])
    for name, res in (("swiglu", "R3"), ("geglu", "R3"), ("reglu", "R3")):
        dec = decide(Instance(Activation(name), A, B, W_gate=A))
        assert (dec.verdict, dec.result) == ("not_absorbable", res)
        assert dec.theorem == f"Absorb.results.ImpossibilityInstances.{name}_not_absorbable"
    dec = decide(Instance(Activation("relu_pow", 2), A, B))
    assert (dec.verdict, dec.result) == ("not_absorbable", "R2")
    dec = decide(Instance(Activation("swiglu"), A, B, W_gate=A, b_up=(F(1), F(0), F(0))))
    assert dec.verdict == "outside_hypotheses" and dec.result == "R7"


def test_bias_with_subset_absorbable_and_witness_equal():
    d, n = 2, 6
    A, B, S = planted(d, n, 21)
    c = tuple(F(i - 2, 3) for i in range(n))
    b0 = (F(1, 2), F(-3))
    dec = decide(Instance(RELU, A, B, b_up=c, b_down=b0))
    assert dec.verdict == "absorbable" and dec.result == "R7"
    w = dec.witness
    for x in random_points(d, 6, 4):
        assert block(w.W_up, w.W_down, x, bias_up=list(w.b_up), bias_down=list(w.b_down)) == \
            residual(None, A, B, x, bias_up=list(c), bias_down=list(b0))


def test_bias_without_subset():
    A = mat([[1, 2], [3, 5], [2, -1]])
    B = mat([[1, 1, 1], [2, 0, 1]])
    dec = decide(Instance(RELU, A, B, b_down=(F(1), F(0))))
    assert (dec.verdict, dec.result) == ("not_absorbable", "R9")  # ReLU: R9 (generic with biases)
    dec = decide(Instance(Activation("silu"), A, B, b_down=(F(1), F(0))))
    assert (dec.verdict, dec.result) == ("not_absorbable", "R9")  # SiLU: R9 (SiluAffineRidge.v)
    dec = decide(Instance(Activation("quick_gelu"), A, B, b_down=(F(1), F(0))))
    assert (dec.verdict, dec.result) == ("not_absorbable", "R9")  # quick_gelu: R9 (QuickGeluAffineRidge.v)


def test_genericity_exact():
    assert not check_generic(scale_matrix(mat([[1, 2], [2, 4]])), scale_matrix(mat([[1, 1], [1, 1]]))).generic
    assert not check_generic(scale_matrix(mat([[1, 2], [0, 0]])), scale_matrix(mat([[1, 1], [1, 1]]))).generic
    assert not check_generic(scale_matrix(mat([[1, 2], [1, 3]])), scale_matrix(mat([[1, 0], [1, 0]]))).generic
    g = check_generic(scale_matrix(mat([[1, 2], [1, 3], [F(1, 2), 7]])), scale_matrix(mat([[1, 0, 1], [1, 1, 0]])))
    assert g.generic and g.certificate is not None


def test_bad_input():
    A = mat([[1, 2], [3, 4]])
    B = mat([[1, 0], [0, 1]])
    with pytest.raises(InputError, match="skip must be"):
        decide(Instance(RELU, A, B, skip=mat([[1, 2, 3], [2, 4, 5]])))
    with pytest.raises(InputError, match="W_up"):
        decide(Instance(RELU, mat([[1, 2], [3]]), B))
    with pytest.raises(InputError, match="W_gate"):
        decide(Instance(Activation("swiglu"), A, B))


def test_nosub_certificate_verified_and_tamper_detected():
    rng = random.Random(30)
    d, n = 3, 12
    A = scale_matrix(mat([[rng.randint(-9, 9) for _ in range(d)] for _ in range(n)]))
    B = scale_matrix(mat([[rng.randint(-9, 9) for _ in range(n)] for _ in range(d)]))
    T = identity_int(d)
    out = search_subset(A, B, T)
    assert out.status == "none"
    system = _System(A, B, T, out.certificate.p)
    assert verify_nosub(system, out.certificate)
    f = out.certificate.functionals[0]
    k, row = f.rows[0]
    bad = Functional(f.pivot, ((k, (row[0] + 1,) + row[1:]),) + f.rows[1:])
    from dataclasses import replace
    assert not verify_nosub(system, replace(out.certificate, functionals=(bad,)))


def test_meet_in_the_middle_none_is_verified():
    """d = 2, n = 22: 4 equations, 18 free variables: meet in the middle."""
    rng = random.Random(31)
    A = mat([[rng.randint(1, 9) for _ in range(2)] for _ in range(22)])
    B = mat([[rng.randint(1, 9) for _ in range(22)] for _ in range(2)])  # all positive: no S
    out = search_subset(scale_matrix(A), scale_matrix(B), identity_int(2))
    assert out.status == "none" and len(out.certificate.free) == 22


def test_violated_equations_are_added():
    A, B = structured_wide()
    out = search_subset(scale_matrix(A), scale_matrix(B), identity_int(40))
    assert out.status == "none"
    dec = decide(Instance(RELU, A, B))
    assert dec.verdict == "not_absorbable" and dec.generic


def test_more_equations_when_rank_deficient_on_first_positions():
    """n = 40 > 24, d = 16: the first equations (rows 0..3) are all 0 = 0; more are taken."""
    rng = random.Random(41)
    d, n = 16, 40
    B = [[F(0) if k < 4 else F(rng.randint(-9, 9)) for _ in range(n)] for k in range(d)]
    A = [[F(rng.randint(-9, 9)) for _ in range(d)] for _ in range(n)]
    T = IntMatrix(tuple(tuple(int(k == l and k >= 4) for l in range(d)) for k in range(d)), 1)
    out = search_subset(scale_matrix(mat(A)), scale_matrix(mat(B)), T)
    assert out.status == "none"


@pytest.mark.parametrize("bad", [None, "relu", {"W_up": [[1]]}])
def test_decide_refuses_what_is_not_an_instance(bad):
    with pytest.raises(TypeError, match="decide expects an Instance"):
        decide(bad)  # type: ignore[arg-type]
