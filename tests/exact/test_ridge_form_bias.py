"""Canonical ridge forms with biases, classes by sign (GELU family; paper.md R9, Coq's
PmBiasCanonical.pm_bias_ridge_form_canonical): exact hand-computed G, L, offset, and an
exact identity check with activations satisfying sigma(z) - sigma(-z) = z.

The canonical form only uses sigma(-z) = sigma(z) - z, so it must equal the block for
every such sigma: the polynomials z/2 + z^2, z/2 - z^4 and ReLU are exact on Fractions
(GELU itself is checked in floats)."""

from __future__ import annotations

import math
import random
from fractions import Fraction as F

from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from pybridge.exact.ridge_form import canonical_form
from pybridge.exact.width import condition_for, explicit_block

SIGMAS = {
    "square": lambda z: z / 2 + z * z,
    "quartic": lambda z: z / 2 - z ** 4,
    "relu": lambda z: z if z > 0 else F(0),
}


def fr(rows):
    return tuple(tuple(F(v) for v in r) for r in rows)


def block_value(sigma, up, c, down, b0, x):
    """``x + down sigma(up x + c) + b0``."""
    d, n = len(down), len(up)
    h = [sigma(sum((up[i][q] * x[q] for q in range(d)), F(0)) + c[i]) for i in range(n)]
    return [x[p] + sum((down[p][i] * h[i] for i in range(n)), F(0)) + b0[p] for p in range(d)]


def form_value(sigma, form, x):
    """``L x + offset + sum_(c, b) b sigma(c) + sum_t G[:, t] sigma(u_t . x + s_t)``."""
    d = form.d
    out = []
    for p in range(d):
        v = sum((form.L[p][q] * x[q] for q in range(d)), F(0)) + form.offset[p]
        v += sum((b[p] * sigma(c) for c, b in form.constants), F(0))
        v += sum((form.G[p][t] * sigma(sum((form.U[t][q] * x[q] for q in range(d)), F(0)) + form.shift[t])
                  for t in range(form.k)), F(0))
        out.append(v)
    return out


def points(d, count=12, seed=0):
    rng = random.Random(seed)
    return [[F(rng.randint(-40, 40), rng.randint(1, 9)) for _ in range(d)] for _ in range(count)]


# ---------------------------------------------------------------- hand-computed


# d = 2. Rows (a_i, c_i; b_i): 0: (1,0; 1) b (1,0); 1: (-1,0; -1) b (2,1), opposite of 0;
# 2: duplicate of 0, b (0,1); 3: (0,1; 2) b (1,1); 4: a = 0, c = 3, b (1,-1) (a constant);
# 5: b = 0 (dropped); 6: (0,1; -1) b (1,0); 7: (0,-1; 1) b (-1,0), opposite of 6: G = 0 (flat).
UP = [[1, 0], [-1, 0], [1, 0], [0, 1], [0, 0], [1, 1], [0, 1], [0, -1]]
C = [1, -1, 1, 2, 3, 0, -1, 1]
DOWN = [[1, 2, 0, 1, 1, 0, 1, -1], [0, 1, 1, 1, -1, 0, 0, 0]]
B0 = [5, 7]


def test_hand_computed_signs_form_with_biases():
    form = canonical_form(UP, DOWN, "signs", C, B0)
    assert form.k == 2
    assert form.U == fr([[1, 0], [0, 1]]) and form.shift == (F(1), F(2))
    # G_0 = b_0 + b_1 + b_2 = (3, 2); G_1 = b_3 = (1, 1).
    assert form.G == fr([[3, 1], [2, 1]])
    # L = I - b_1 (1,0)^T - b_7 (0,1)^T = [[1-2, 0+1], [0-1, 1]]
    assert form.L == fr([[-1, 1], [-1, 1]])
    # offset = b0 - b_1 s_0 - b_7 s_6 = (5, 7) - (2, 1) - (1, 0)
    assert form.offset == (F(2), F(6))
    assert form.constant_rows == (4,) and form.constants == ((F(3), (F(1), F(-1))),)
    assert form.flat == fr([[0, 1]])
    assert form.cls == (0, 0, 0, 1, -1, -1, 2, 2)
    assert form.lam == tuple(F(v) for v in (1, -1, 1, 1, 0, 0, 1, -1))
    for name, sigma in SIGMAS.items():
        for x in points(2):
            assert form_value(sigma, form, x) == block_value(sigma, fr(UP), fr([C])[0], fr(DOWN), fr([B0])[0], x), name


def test_lines_and_signs_differ_on_scaled_rows():
    """(1, 1) and (2, 2) are one ReLU class (a line) but two GELU classes (not +-equal)."""
    up, c, down = [[1], [2]], [1, 2], [[1, 1]]
    assert canonical_form(up, down, "lines", c).k == 1
    form = canonical_form(up, down, "signs", c)
    assert form.k == 2 and form.G == fr([[1, 1]]) and form.L == fr([[1]]) and form.offset == (F(0),)


def test_all_classes_cancel():
    """x + gelu(x + 1) - gelu(-x - 1) = 2x + 1: one flat class, k = 0."""
    form = canonical_form([[1], [-1]], [[1, -1]], "signs", [1, -1])
    assert form.k == 0 and form.G == ((),) and form.flat == fr([[1]])
    assert form.L == fr([[2]]) and form.offset == (F(1),)


def test_class_summing_to_zero_keeps_other_ridges():
    """Duplicates with b = 1 and -1 vanish; the opposite row of another class stays in L."""
    form = canonical_form([[1], [1], [2], [-2]], [[1, -1, 3, 1]], "signs", [0, 0, 1, -1], [4])
    # class (1, 0): G = 0 (flat, lam +1 both: nothing linear); class (2, 1): G = 3 + 1 = 4,
    # row 3 has sign -1: L = 1 - 1 * 2 = -1, offset = 4 - 1 * 1 = 3.
    assert form.k == 1 and form.U == fr([[2]]) and form.shift == (F(1),)
    assert form.G == fr([[4]]) and form.L == fr([[-1]]) and form.offset == (F(3),)
    assert form.flat == fr([[1]])


def test_zero_rows_and_zero_constants_dropped():
    """a = 0 and c = 0: sigma(0) = 0, nothing; b = 0: nothing; a = 0, c != 0: a constant."""
    form = canonical_form([[0, 0], [0, 0], [1, 2]], [[1, 1, 0], [2, 0, 0]], "signs", [0, -5, 3])
    assert form.k == 0 and form.L == fr([[1, 0], [0, 1]]) and form.offset == (F(0), F(0))
    assert form.constant_rows == (1,) and form.constants == ((F(-5), (F(1), F(0))),)
    assert form.cls == (-1, -1, -1)


def test_first_coordinate_zero_sign_from_later_entry():
    """(0, -1; 2) and (0, 1; -2) are opposite: the sign comes from the first nonzero entry."""
    form = canonical_form([[0, -1], [0, 1]], [[1, 0], [0, 1]], "signs", [2, -2])
    assert form.k == 1 and form.U == fr([[0, -1]]) and form.shift == (F(2),)
    assert form.G == fr([[1], [1]])
    # row 1 = -(row 0): L = I - (0,1)^T (0,-1) = [[1, 0], [0, 2]]; offset = -(0,1) * 2.
    assert form.L == fr([[1, 0], [0, 2]]) and form.offset == (F(0), F(-2))


def test_explicit_block_carries_the_constants():
    """The witness block's output bias is b_down + sum b sigma(c); evaluable() writes it as rows."""
    form = canonical_form([[0], [1]], [[5, -1]], "signs", [2, 0])
    assert form.k == 1 and form.L == fr([[1]]) and form.G == fr([[-1]])
    data = condition_for(form, (), (0,))
    blk = explicit_block(form, data, 1)
    assert blk.sigma_constants == ((F(2), (F(5),)),) and len(blk.W_up) == 1
    up, b_up, down, b_down = blk.evaluable()
    assert len(up) == 2 and up[1] == (F(0),) and b_up[1] == F(2) and down == ((F(-1), F(5)),)
    for sigma in SIGMAS.values():
        for x in points(1):
            got = [v - x[0] for v in block_value(sigma, up, b_up, down, b_down, x)]
            assert got == block_value(sigma, fr([[0], [1]]), (F(2), F(0)), fr([[5, -1]]), (F(0),), x)


def _gelu(z: float) -> float:
    return 0.5 * z * (1.0 + math.erf(z / math.sqrt(2.0)))


def test_hand_case_with_real_gelu_floats():
    form = canonical_form(UP, DOWN, "signs", C, B0)
    for x in points(2, seed=3):
        xf = [float(v) for v in x]
        lhs = [xf[p] + sum(float(DOWN[p][i]) * _gelu(sum(UP[i][q] * xf[q] for q in range(2)) + C[i])
                           for i in range(8)) + B0[p] for p in range(2)]
        rhs = []
        for p in range(2):
            v = sum(float(form.L[p][q]) * xf[q] for q in range(2)) + float(form.offset[p])
            v += sum(float(b[p]) * _gelu(float(c)) for c, b in form.constants)
            v += sum(float(form.G[p][t]) * _gelu(sum(float(form.U[t][q]) * xf[q] for q in range(2))
                                                 + float(form.shift[t])) for t in range(form.k))
            rhs.append(v)
        assert all(abs(a - b) <= 1e-9 * max(1.0, abs(a)) for a, b in zip(lhs, rhs))


# ---------------------------------------------------------------- properties


def _pm_equal(x, y):
    return tuple(x) == tuple(y) or tuple(x) == tuple(-v for v in y)


small = st.integers(-2, 2)


@settings(max_examples=examples(80), deadline=None)
@given(st.integers(1, 2).flatmap(lambda d: st.tuples(
    st.just(d),
    st.lists(st.tuples(st.lists(small, min_size=d, max_size=d), small, st.lists(small, min_size=d, max_size=d)),
             min_size=1, max_size=6),
    st.lists(small, min_size=d, max_size=d))))
def test_signs_form_is_canonical_and_exact(case):
    """Random small blocks: the form equals the block exactly for three activations with the
    odd-part identity, and is canonical: u_t != 0, G[:, t] != 0, (u_t, s_t) pairwise not +-equal."""
    d, rows, b0 = case
    up = [r[0] for r in rows]
    c = [r[1] for r in rows]
    down = [[r[2][p] for r in rows] for p in range(d)]
    form = canonical_form(up, down, "signs", c, b0)
    aug = [tuple(form.U[t]) + (form.shift[t],) for t in range(form.k)]
    for t in range(form.k):
        assert any(form.U[t]) and any(form.kink(t))
        for s in range(t):
            assert not _pm_equal(aug[s], aug[t])
    for sigma in SIGMAS.values():
        for x in points(d, count=5):
            assert form_value(sigma, form, x) == block_value(sigma, fr(up), fr([c])[0], fr(down), fr([b0])[0], x)
