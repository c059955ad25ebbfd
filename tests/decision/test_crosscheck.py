"""Cross-checks independent of Coq: exact evaluation, Z3, homogeneity, linearization."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pybridge.decision.crosscheck import block_value, crosscheck, z3_identity, z3_subset
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
    assert cc.z3_subset == ("skipped" if bias else "exists")
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


@pytest.mark.parametrize("name", ["gelu", "gelu_tanh", "silu"])
def test_smooth_activations_float_screening(name: str) -> None:
    g = generate(Activation(name), 3, 6, absorbable=True, seed=2, bias=True)
    cc = crosscheck(g.instance, absorbable(flip_witness(g.instance, g.subset)))
    assert cc.method == "float64 screening"
    assert cc.witness_equal is True and cc.z3_identity == "skipped"
    bad = flip_witness(g.instance, ())
    assert crosscheck(g.instance, absorbable(bad)).witness_equal is False


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
