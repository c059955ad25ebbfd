"""Random exact instances: planted S exact, genericity, reproducibility, refusals."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from pybridge.errors import InputError
from pybridge.generate import generate, random_unimodular
from pybridge.io import instance_from_json, instance_to_json
from pybridge.model import Activation

RELU = Activation("relu")


def pairwise_independent(rows) -> bool:
    m = [sympy.Matrix([list(r)]) for r in rows]
    for i in range(len(m)):
        for j in range(i):
            if sympy.Matrix.vstack(m[i], m[j]).rank() < 2:
                return False
    return True


def planted_sum(inst, subset) -> sympy.Matrix:
    A = sympy.Matrix([list(r) for r in inst.W_up])
    B = sympy.Matrix([list(r) for r in inst.W_down])
    Bt = B if inst.skip is None else sympy.Matrix([list(r) for r in inst.skip]).inv() * B
    S = list(subset)
    return Bt[:, S] * A[S, :]


@settings(max_examples=examples(25), deadline=None)
@given(d=st.integers(1, 5), extra=st.integers(0, 5), seed=st.integers(0, 2**32 - 1), skip=st.booleans())
def test_planted_subset_gives_minus_identity(d: int, extra: int, seed: int, skip: bool) -> None:
    n = d + extra if d > 1 else 1  # in dimension 1 only one row can be generic
    g = generate(RELU, d, n, absorbable=True, seed=seed, skip=skip)
    assert len(g.subset) == d
    assert planted_sum(g.instance, g.subset) == -sympy.eye(d)
    assert all(any(r) for r in g.instance.W_up)
    assert all(any(g.instance.W_down[r][i] for r in range(d)) for i in range(n))
    if d > 1:
        assert pairwise_independent(g.instance.W_up)


def test_unimodular_inverse_is_exact_integer() -> None:
    import random

    m, inv = random_unimodular(random.Random(3), 12)
    assert sympy.Matrix(m) * sympy.Matrix(inv) == sympy.eye(12)


def test_seed_reproducible_and_random_generic() -> None:
    a = generate(Activation("gelu"), 3, 7, seed=42)
    b = generate(Activation("gelu"), 3, 7, seed=42)
    assert a.instance == b.instance and a.seed == 42 and a.subset == ()
    assert pairwise_independent(a.instance.W_up)
    assert generate(Activation("gelu"), 3, 7, seed=43).instance != a.instance


def test_gated_and_bias_and_json_round_trip() -> None:
    g = generate(Activation("swiglu"), 2, 3, seed=1, bias=True)
    inst = g.instance
    assert inst.W_gate is not None and len(inst.W_gate) == 3
    assert inst.b_up is not None and inst.b_gate is not None and inst.b_down is not None
    again = instance_from_json(json.dumps(instance_to_json(inst)))
    assert again.W_gate == inst.W_gate and again.b_down == inst.b_down
    assert all(isinstance(x, Fraction) for row in again.W_up for x in row)


@pytest.mark.parametrize(
    "act,d,n,planted,match",
    [
        (Activation("swiglu"), 2, 4, True, "R2/R3"),
        (Activation("relu_pow", 2), 2, 4, True, "R2/R3"),
        (RELU, 4, 3, True, "n >= d"),
        (RELU, 0, 3, False, "between"),
        (RELU, 1, 2, False, "pairwise independent"),
    ],
)
def test_refusals(act: Activation, d: int, n: int, planted: bool, match: str) -> None:
    with pytest.raises(InputError, match=match):
        generate(act, d, n, absorbable=planted, seed=0)


@settings(max_examples=examples(15), deadline=None)
@given(d=st.integers(2, 4), extra=st.integers(0, 6), seed=st.integers(0, 2**32 - 1),
       name=st.sampled_from(["relu", "gelu", "silu"]), skip=st.booleans(), bias=st.booleans())
def test_planted_instances_are_decided_absorbable(d, extra, seed, name, skip, bias) -> None:
    """End to end without Coq: the exact decision finds an S, the cross-check agrees."""
    from pybridge.api import check

    g = generate(Activation(name), d, d + extra, absorbable=True, seed=seed, skip=skip, bias=bias)
    report = check(g.instance, prove=False, z3_timeout=5.0)
    assert report.decision.verdict == "absorbable"
    assert report.crosscheck["witness_equal"] is True
    assert report.crosscheck["witness_is_flip"] is True
    assert report.crosscheck["consistent"] is True
