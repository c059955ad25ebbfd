"""Post-LayerNorm blocks with biases (ReLU, GELU family) and GELU-family bias-free blocks,
decided through C·P (R9 for a singular skip: ReluBiasSkip, EvenBiasSkip); checked against
brute force over every subset S and against exact genericity of the augmented rows."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction as F
from itertools import combinations

import pytest

from pybridge.decision import decide
from pybridge.decision.postnorm import BIAS_HOOK, REASONS, augmented_rows, decide_postln
from pybridge.decision.sublayer import CERT_POSTLN, decide_sublayer
from pybridge.generate import generate, generate_postln
from pybridge.model import Activation, Instance, Norm

EPS = F(1, 10**12)
FAMILY = ("relu", "gelu", "gelu_tanh", "silu", "quick_gelu", "gelu_fast")


def layernorm(d: int, gamma=None) -> Norm:
    return Norm("post", "layernorm", False, tuple(gamma or (F(1),) * d), None, EPS)


def with_biases(inst: Instance, seed: int) -> Instance:
    rng = random.Random(seed)
    return replace(inst, b_up=tuple(F(rng.randint(-9, 9), rng.randint(1, 4)) for _ in range(inst.n)),
                   b_down=tuple(F(rng.randint(-9, 9)) for _ in range(inst.d)))


def centered_zero(inst: Instance, S: tuple[int, ...]) -> bool:
    """C (I + B_S A_S) = 0, exactly."""
    d = inst.d
    M = [[F(int(k == l)) + sum((F(inst.W_down[k][i]) * F(inst.W_up[i][l]) for i in S), F(0)) for l in range(d)]
         for k in range(d)]
    return all(M[k][l] == sum((M[t][l] for t in range(d)), F(0)) / d for k in range(d) for l in range(d))


@pytest.mark.parametrize("act", FAMILY)
def test_biased_generic_blocks_not_absorbable(act: str) -> None:
    inst = with_biases(generate(Activation(act), 3, 5, seed=7).instance, 1)
    assert not any(centered_zero(inst, S) for r in range(6) for S in combinations(range(5), r))
    pd = decide_postln(inst, layernorm(3))
    assert (pd.verdict, pd.hook) == ("not_absorbable", BIAS_HOOK), pd.reason
    name = "postln_relu_bias_generic" if act == "relu" else "even_postln_bias_generic"
    assert name in pd.reason and pd.theorem.endswith(name)
    sub = decide_sublayer(inst, layernorm(3), decide(inst))
    assert (sub.verdict, sub.certificate, sub.theorem) == ("not_absorbable", CERT_POSTLN, pd.theorem)


@pytest.mark.parametrize("act", ("relu", "gelu", "silu"))
def test_biased_postln_only_blocks_absorbable(act: str) -> None:
    gen = generate_postln(Activation(act), 4, 6, seed=5)
    inst = with_biases(gen.instance, 2)
    pd = decide_postln(inst, layernorm(4))
    assert pd.verdict == "absorbable" and pd.subset is not None and centered_zero(inst, pd.subset)
    assert "any" in pd.reason and pd.theorem.endswith("cert_postln_bias_absorbable")
    # zeros in gamma do not matter for absorbable
    assert decide_postln(inst, layernorm(4, (F(0), F(1), F(1), F(1)))).verdict == "absorbable"


def test_gelu_family_bias_free_not_absorbable() -> None:
    for act in FAMILY[1:]:
        inst = generate(Activation(act), 4, 6, seed=3).instance
        pd = decide_postln(inst, layernorm(4))
        assert pd.verdict == "not_absorbable" and "even_postln_generic_pm" in pd.reason


def test_augmented_rows_exact() -> None:
    inst = Instance(Activation("relu"), ((F(1, 2), F(-1)), (F(3), F(1, 3))), ((F(1), F(0)), (F(0), F(1))),
                    b_up=(F(1, 6), F(0)))
    aug = augmented_rows(inst)
    assert aug.den == 6 and [list(r) for r in aug.rows] == [[3, -6, 1], [18, 2, 0]]


def test_biased_undecided_reasons() -> None:
    A = ((F(1), F(-1)), (F(2), F(-2)))
    B = ((F(1), F(2)), (F(0), F(1)))
    # rows of W_up parallel but biases in the ratio: augmented rows parallel, not generic with biases
    par = Instance(Activation("relu"), A, B, b_up=(F(1), F(2)), b_down=(F(1), F(1)))
    pd = decide_postln(par, layernorm(2))
    assert pd.verdict == "undecided" and "not generic" in pd.reason and "(W_up, b_up)" in pd.reason
    # the same rows with biases out of ratio: generic with biases (lines), decided
    ok = replace(par, b_up=(F(1), F(1)))
    assert decide_postln(ok, layernorm(2)).verdict == "not_absorbable"
    # a zero row of W_up with a bias (a constant unit): not generic with biases
    zero = replace(ok, W_up=((F(0), F(0)), (F(2), F(-2))))
    pd = decide_postln(zero, layernorm(2))
    assert pd.verdict == "undecided" and "row 0 of W_up is zero" in pd.reason
    # a zero gamma: only sufficiency, so no not-absorbable verdict
    pd = decide_postln(ok, layernorm(2, (F(1), F(0))))
    assert pd.verdict == "undecided" and pd.reason == REASONS["zero_gamma"]
    # eps not positive
    pd = decide_postln(ok, Norm("post", "layernorm", False, (F(1), F(1)), None, F(0)))
    assert pd.verdict == "undecided" and pd.reason == REASONS["eps"]
    # gated stays undecided
    gated = Instance(Activation("swiglu"), A, B, W_gate=A, b_up=(F(1), F(1)))
    assert decide_postln(gated, layernorm(2)).verdict == "undecided"
