"""R8 decisions (canonical ridge forms, least absorbing width) against independent oracles.

The oracles do not use the ridge-form theory:
- *equality*: two bias-free ReLU blocks on R^2 are positively homogeneous and linear
  on every sector cut out by the lines ``a . x = 0`` of both; equal values at two
  independent points inside every sector prove equality everywhere (exact arithmetic);
- *refutation*: every width-``m`` block whose rows come from a candidate set (the
  directions of the block, both signs, and small integer vectors), with ``W_down``
  solved exactly, is tried; none may equal the block below the computed least width.
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations_with_replacement

import pytest

from pybridge.exact.linalg import rank
from pybridge.exact.ridge_form import canonical_form
from pybridge.exact.width import (
    condition_for,
    condition_holds,
    explicit_block,
    min_width,
)

F = Fraction

from helpers import block_value, random_block, sector_points, solvable  # noqa: E402


def relu(z: Fraction) -> Fraction:
    return z if z > 0 else F(0)


def test_paper_counterexample_min_width_two():
    form = canonical_form([[1], [2]], [[1, 1]], "lines")
    assert form.k == 1 and form.G == ((F(3),),) and form.L == ((F(1),),)
    mw = min_width(form)
    assert (mw.lower, mw.upper) == (2, 2)
    assert mw.data.T == (0,) and mw.data.r == 0
    blk = explicit_block(form, mw.data, 2)
    for x in (F(-3), F(-1), F(0), F(1, 2), F(5)):
        assert block_value(blk.W_up, blk.W_down, [x], blk.b_up, blk.b_down) == block_value(
            [[1], [2]], [[1, 1]], [x], residual=True)


def test_generic_with_subset_min_width_n():
    # b_0 a_0 = -1 (S = {0}) in d = 1: absorbable at width n = 1 (R5).
    form = canonical_form([[1]], [[-1]], "lines")
    assert min_width(form).upper == 1


def test_zero_and_cancelling_rows():
    # Rows 0 and 1 cancel (flat class), row 2 has b = 0: nothing left but x.
    form = canonical_form([[1, 0], [2, 0], [0, 1]], [[2, -1, 0], [0, 0, 0]], "lines")
    assert form.k == 0 and form.cls[2] == -1 and len(form.flat) == 1
    mw = min_width(form)
    # L = I, rank 2: width 4 (two pairs), T is empty since there are no ridges.
    assert (mw.lower, mw.upper) == (4, 4)


def test_opposite_rows_signs_kind():
    # GELU family: a and -a are one class; 2a is another.
    form = canonical_form([[1, 1], [-1, -1], [2, 2]], [[1, 1, 1], [0, 1, 0]], "signs")
    assert form.k == 2
    assert form.lam[:2] == (F(1), F(-1))
    # L = I - b_1 u^T for the flipped row.
    assert form.L == ((F(0), F(-1)), (F(-1), F(0)))


def test_condition_data_is_exact():
    rng = random.Random(7)
    for _ in range(30):
        A, B = random_block(rng, 3, 4)
        form = canonical_form(A, B, "lines")
        T = tuple(t for t in range(form.k) if rng.random() < 0.4)
        S = tuple(t for t in range(form.k) if t not in T and rng.random() < 0.5)
        data = condition_for(form, T, S)
        assert condition_holds(form, data)
        assert data.r == rank(
            [list(r) for r in _shift(form, S)] + [list(form.U[t]) for t in T]
        ) - rank([list(form.U[t]) for t in T])


def _shift(form, S):
    from pybridge.exact.width import shifted_linear

    return shifted_linear(form, S)


@pytest.mark.parametrize("seed", range(40))
def test_least_width_witness_equals_block_d2(seed):
    """The explicit block at the least width equals the residual block (sector oracle)."""
    rng = random.Random(seed)
    n = rng.randint(1, 4)
    A, B = random_block(rng, 2, n)
    form = canonical_form(A, B, "lines")
    mw = min_width(form)
    assert mw.exact
    blk = explicit_block(form, mw.data, mw.upper)
    pts = sector_points([[F(v) for v in r] for r in A] + list(blk.W_up))
    for x in pts:
        assert block_value(blk.W_up, blk.W_down, x, blk.b_up, blk.b_down) == block_value(
            A, B, x, residual=True), (A, B, x)


@pytest.mark.parametrize("seed", range(12))
def test_nothing_narrower_than_least_width_d2(seed):
    """No block of width least - 1 from the candidate rows equals the residual block."""
    rng = random.Random(1000 + seed)
    n = rng.randint(1, 3)
    A, B = random_block(rng, 2, n)
    form = canonical_form(A, B, "lines")
    mw = min_width(form)
    m = mw.upper - 1
    if m < 1 or m > 4:
        pytest.skip("least width outside the enumerated range")
    cands = {(F(1), F(0)), (F(0), F(1)), (F(1), F(1)), (F(1), F(-1)), (F(2), F(1)), (F(1), F(2))}
    cands |= {tuple(F(v) for v in r) for r in A if any(r)}
    cands |= {tuple(-v for v in c) for c in cands}
    cands_l = sorted(cands)
    pts = sector_points([[F(v) for v in r] for r in A] + cands_l)
    for rows in combinations_with_replacement(cands_l, m):
        assert not solvable(list(rows), A, B, pts), (A, B, rows)
    # And the least width itself is reached by some candidate block (the explicit one).
    blk = explicit_block(form, mw.data, mw.upper)
    assert solvable(list(blk.W_up), A, B, pts) or any(blk.b_up)


def test_d1_every_block_width_two():
    rng = random.Random(3)
    for _ in range(50):
        n = rng.randint(1, 6)
        A = [[rng.randint(-3, 3)] for _ in range(n)]
        B = [[rng.randint(-3, 3) for _ in range(n)]]
        assert min_width(canonical_form(A, B, "lines")).upper <= 2


def test_biases_explicit_block_matches():
    rng = random.Random(11)
    for _ in range(40):
        d, n = 2, rng.randint(1, 4)
        A, B = random_block(rng, d, n)
        c = [rng.randint(-2, 2) for _ in range(n)]
        b0 = [rng.randint(-2, 2) for _ in range(d)]
        form = canonical_form(A, B, "lines", b_up=c, b_down=b0)
        mw = min_width(form)
        blk = explicit_block(form, mw.data, mw.upper)
        for _ in range(25):
            x = [F(rng.randint(-40, 40), rng.randint(1, 7)) for _ in range(d)]
            assert block_value(blk.W_up, blk.W_down, x, blk.b_up, blk.b_down) == block_value(
                A, B, x, c, b0, residual=True)
