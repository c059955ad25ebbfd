"""Cross-checks independent of Coq: exact evaluation, Z3, homogeneity, linearization."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pybridge.decision.crosscheck import (
    block_value,
    crosscheck,
    odd_part_identity_holds,
    symbolic_identity,
    z3_identity,
    z3_subset,
)
from pybridge.generate import generate
from pybridge.io import instance_from_json
from pybridge.model import Activation, Decision, Instance, Witness

F = Fraction


def flip_witness(inst: Instance, subset: tuple[int, ...]) -> Witness:
    """R5 (<=): negate the rows of W_up in S; output bias absorbs sum_{i in S} b_i c_i."""
    s = set(subset)
    up = tuple(tuple(-x for x in r) if i in s else r for i, r in enumerate(inst.W_up))
    b_down = None
    if inst.b_up is not None:
        base = inst.b_down or tuple(F(0) for _ in range(inst.d))
        b_down = tuple(
            base[r] + sum(inst.W_down[r][i] * inst.b_up[i] for i in s) for r in range(inst.d)
        )
    return Witness(subset, up, inst.W_down, b_down)


def absorbable(w: Witness) -> Decision:
    return Decision("absorbable", "R5", "Absorb.results.FlipSigns.odd_part_absorbable", "planted", witness=w)


def test_paper_identity_exact() -> None:
    # x + relu(x) + relu(2x) = 4 relu(x) - relu(-x)   (paper.md R5 counterexample)
    inst = instance_from_json('{"activation": "relu", "W_up": [[1], [2]], "W_down": [[1, 1]]}')
    w = Witness((), ((F(1),), (F(-1),)), ((F(4), F(-1)),))
    for x in (F(-3), F(0), F(5, 7)):
        assert block_value(inst, [x]) == block_value(inst, [x], up=w.W_up, down=w.W_down, skip=False)
    assert z3_identity(inst, w, 20.0) == "proved"
    assert z3_subset(inst, 20.0) == "none"  # no S: the submatrix test alone says nothing


@pytest.mark.parametrize("skip,bias", [(False, False), (True, False), (False, True), (True, True)])
def test_planted_relu_witness_exact_and_z3(skip: bool, bias: bool) -> None:
    g = generate(Activation("relu"), 3, 7, absorbable=True, seed=5, skip=skip, bias=bias)
    cc = crosscheck(g.instance, absorbable(flip_witness(g.instance, g.subset)))
    assert cc.method == "exact rational evaluation"
    assert cc.witness_equal is True and cc.max_abs_diff == "0" and cc.witness_is_flip is True
    assert cc.z3_identity == "proved"
    assert cc.z3_subset == "exists"  # with biases too: R9's condition is the same submatrix test
    assert cc.consistent is True


def test_tampered_witness_detected() -> None:
    g = generate(Activation("relu"), 3, 7, absorbable=True, seed=9)
    w = flip_witness(g.instance, g.subset)
    bad = Witness(w.subset, w.W_up, ((w.W_down[0][0] + 1,) + w.W_down[0][1:],) + w.W_down[1:])
    cc = crosscheck(g.instance, absorbable(bad))
    assert cc.witness_equal is False and cc.max_abs_diff != "0"
    assert cc.z3_identity == "refuted"
    assert cc.consistent is False
    wrong_subset = flip_witness(g.instance, g.subset[1:])
    assert crosscheck(g.instance, absorbable(wrong_subset)).witness_equal is False
    relabelled = Witness(g.subset[1:], w.W_up, w.W_down)
    cc = crosscheck(g.instance, absorbable(relabelled))
    assert cc.witness_equal is True and cc.witness_is_flip is False and cc.consistent is False


SMOOTH = ["gelu", "gelu_tanh", "silu", "quick_gelu", "gelu_fast"]


@pytest.mark.parametrize("name", SMOOTH)
def test_smooth_activations_exact_symbolic_check_and_float_screening(name: str) -> None:
    g = generate(Activation(name), 3, 6, absorbable=True, seed=2, bias=True)
    cc = crosscheck(g.instance, absorbable(flip_witness(g.instance, g.subset)))
    assert cc.method == "symbolic identity (SymPy, exact); float64 screening as an extra"
    assert cc.symbolic_identity == "proved", cc.symbolic_note
    assert "simplifies to 0" in cc.symbolic_note and cc.consistent is True
    assert cc.witness_equal is True and cc.z3_identity == "skipped"   # the float screening, kept
    bad = flip_witness(g.instance, ())
    cc = crosscheck(g.instance, absorbable(bad))
    assert cc.witness_equal is False and cc.symbolic_identity == "refuted" and cc.consistent is False


@pytest.mark.parametrize("name", SMOOTH + ["relu"])
def test_odd_part_identity_proved_by_sympy(name: str) -> None:
    assert odd_part_identity_holds(name) is not None


def test_sympy_refuses_a_false_odd_part_identity(monkeypatch) -> None:
    """The symbolic step is not vacuous: an odd extra term z^3/4 or a constant -1/4 is refused
    (an even term such as z^2 would keep the identity, and is rightly accepted)."""
    import sympy as sp

    import pybridge.decision.crosscheck as cx

    def fake(name: str):
        z = sp.Symbol("z", real=True)
        return z, {"odd_extra": z / (1 + sp.exp(-z)) + sp.Rational(1, 4) * z**3,
                   "even_extra": z / (1 + sp.exp(-z)) + sp.Rational(1, 4) * z**2,
                   "offset": z / (1 + sp.exp(-z)) - sp.Rational(1, 4)}[name]

    monkeypatch.setattr(cx, "sympy_activation", fake)
    assert cx.odd_part_identity_holds.__wrapped__("odd_extra") is None
    assert cx.odd_part_identity_holds.__wrapped__("even_extra") is not None
    assert cx.odd_part_identity_holds.__wrapped__("offset") is None     # sigma(0) != 0


def test_symbolic_identity_tampered_witness_by_one_ulp_of_a_fraction() -> None:
    """A witness off by 1/10^12 in one W_down entry passes the float screening's tolerance
    but not the exact symbolic check."""
    g = generate(Activation("gelu"), 3, 6, absorbable=True, seed=7)
    w = flip_witness(g.instance, g.subset)
    nudged = ((w.W_down[0][0] + F(1, 10**12),) + w.W_down[0][1:],) + w.W_down[1:]
    cc = crosscheck(g.instance, absorbable(Witness(w.subset, w.W_up, nudged)))
    assert cc.symbolic_identity == "refuted" and cc.consistent is False


@pytest.mark.parametrize("name", ["gelu", "silu"])
def test_generic_not_absorbable_smooth_gets_the_exact_subset_search(name: str) -> None:
    g = generate(Activation(name), 3, 9, seed=4)
    cc = crosscheck(g.instance, Decision("not_absorbable", "R5", "x", "no S"))
    assert cc.z3_subset == "none" and cc.consistent is True
    planted = generate(Activation(name), 3, 9, absorbable=True, seed=4)
    cc = crosscheck(planted.instance, Decision("not_absorbable", "R5", "x", "wrong claim"))
    assert cc.z3_subset == "exists" and cc.consistent is False


def test_relu_witness_also_checked_symbolically_up_to_positive_scaling() -> None:
    # x + relu(x) + relu(2x) = 4 relu(x) - relu(-x): rows x and 2x are one ridge for ReLU
    inst = instance_from_json('{"activation": "relu", "W_up": [[1], [2]], "W_down": [[1, 1]]}')
    w = Witness((), ((F(1),), (F(-1),)), ((F(4), F(-1)),))
    assert symbolic_identity(inst, w)[0] == "proved"
    w_bad = Witness((), ((F(1),), (F(-1),)), ((F(3), F(-1)),))
    assert symbolic_identity(inst, w_bad)[0] == "refuted"


def test_generic_not_absorbable_relu_z3_finds_no_subset() -> None:
    g = generate(Activation("relu"), 3, 9, seed=4)
    cc = crosscheck(g.instance, Decision("not_absorbable", "R5", "x", "no S"))
    assert cc.z3_subset == "none" and cc.consistent is True
    planted = generate(Activation("relu"), 3, 9, absorbable=True, seed=4)
    cc = crosscheck(planted.instance, Decision("not_absorbable", "R5", "x", "wrong claim"))
    assert cc.z3_subset == "exists" and cc.consistent is False


@pytest.mark.parametrize("act", [Activation("relu_pow", 2), Activation("relu_pow", 3), Activation("reglu")])
def test_homogeneous_residual_block_is_not_homogeneous(act: Activation) -> None:
    g = generate(act, 3, 4, seed=1)
    cc = crosscheck(g.instance, Decision("not_absorbable", "R2", "x", "homogeneous"))
    assert cc.homogeneity is not None and "!=" in cc.homogeneity and cc.consistent is True


@pytest.mark.parametrize("name", ["swiglu", "geglu"])
def test_gated_linearization(name: str) -> None:
    g = generate(Activation(name), 4, 6, seed=3)
    cc = crosscheck(g.instance, Decision("not_absorbable", "R3", "x", "gated"))
    assert cc.linearization is not None and cc.consistent is True
