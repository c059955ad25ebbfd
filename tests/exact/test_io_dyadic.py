"""Exact integer forms of arrays (io/dyadic.py, ArrayMatrix.int_matrix, modular.scale_matrix)
agree with the Fraction path entry for entry, for every float dtype and corner value."""

from __future__ import annotations

import pickle
from fractions import Fraction

import numpy as np
import pytest
from helpers import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from pybridge.decision import decide
from pybridge.errors import InputError
from pybridge.exact.arrays import ArrayMatrix
from pybridge.exact.dyadic import dyadic_numerators
from pybridge.exact.modular import IntMatrix, identity_int, scale_matrix
from pybridge.exact.numbers import exact_array
from pybridge.model import Activation, Instance

FLOATS = (np.float16, np.float32, np.float64)


def fraction_form(arr: np.ndarray) -> IntMatrix:
    """The reference: one Fraction per entry, then the least common denominator."""
    return scale_matrix(tuple(tuple(r) for r in exact_array(arr, "ref")))


def check_exact(arr: np.ndarray) -> None:
    ref = fraction_form(arr)
    num, e = dyadic_numerators(arr, "x")
    assert num.shape == arr.shape
    assert 2**e == ref.den
    assert [[int(v) for v in r] for r in num.tolist()] == [list(r) for r in ref.rows]
    if num.dtype == np.int64:
        assert ref.max_abs() < 2**63
    else:
        assert num.dtype == object and ref.max_abs() >= 2**63
    lazy = ArrayMatrix(arr, exact=True).int_matrix()
    assert lazy == ref and lazy.den == ref.den and lazy.rows == ref.rows


def special_values(dtype) -> list:
    info = np.finfo(dtype)
    return [0.0, -0.0, 1.0, -1.0, float(info.tiny), float(info.smallest_subnormal), -float(info.smallest_subnormal),
            float(info.max), -float(info.max), float(info.eps), 0.1, 1 / 3, 2.0**-10, 3.0 * 2**-12]


@pytest.mark.parametrize("dtype", FLOATS)
def test_special_values_each_dtype(dtype):
    vals = np.array(special_values(dtype), dtype=dtype)
    for v in vals:  # each alone (1 x 1), and all together in one matrix
        check_exact(np.array([[v]], dtype=dtype))
    check_exact(vals.reshape(2, 7))
    check_exact(vals.reshape(7, 2).T)  # a transposed (non-contiguous) view


def test_int64_or_object_by_size():
    num, e = dyadic_numerators(np.array([[0.5, 1.0], [-0.25, 3.0]]), "x")
    assert num.dtype == np.int64 and e == 2 and num.tolist() == [[2, 4], [-1, 12]]
    num, e = dyadic_numerators(np.array([[1e-30, 1.0]]), "x")  # 1 over the denominator of 1e-30
    assert num.dtype == object and int(num[0, 1]) == 2**e
    assert Fraction(int(num[0, 0]), 2**e) == Fraction(1e-30)
    num, e = dyadic_numerators(np.array([[2.0**62, -(2.0**62)]]), "x")
    assert num.dtype == np.int64 and e == 0
    num, e = dyadic_numerators(np.array([[2.0**63]]), "x")
    assert num.dtype == object and int(num[0, 0]) == 2**63


def test_negative_zero_and_all_zero():
    num, e = dyadic_numerators(np.array([[-0.0, 0.0]], dtype=np.float32), "x")
    assert num.dtype == np.int64 and e == 0 and num.tolist() == [[0, 0]]


def test_integers_and_long_double():
    check_exact(np.array([[1, -2], [3, 2**62]], dtype=np.int64))
    check_exact(np.array([[2**64 - 1, 0]], dtype=np.uint64))
    check_exact(np.array([[7, 255]], dtype=np.uint8))
    ld = np.array([[1, 3]], dtype=np.longdouble) / np.longdouble(7)
    num, e = dyadic_numerators(ld, "x")
    assert [Fraction(int(v), 2**e) for v in num.ravel()] == [Fraction(*v.as_integer_ratio()) for v in ld.ravel()]
    assert ArrayMatrix(ld)[0][1] == Fraction(*ld[0, 1].as_integer_ratio())


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("dtype", FLOATS)
def test_nan_inf_refused(bad, dtype):
    arr = np.array([[1.0, bad]], dtype=dtype)
    with pytest.raises(InputError, match="NaN or infinity"):
        dyadic_numerators(arr, "x")
    with pytest.raises(InputError, match="NaN or infinity"):
        ArrayMatrix(arr, exact=True)


def test_other_types_refused():
    with pytest.raises(InputError, match="boolean"):
        dyadic_numerators(np.array([[True]]), "x")
    with pytest.raises(InputError, match="unsupported"):
        dyadic_numerators(np.array([[1 + 2j]]), "x")


def test_bfloat16_bits_via_float32():
    """bfloat16 is read as the top half of a float32 (the readers' conversion)."""
    bits = np.array([[0x3DCD, 0x0001, 0x8000, 0x7F7F]], dtype=np.uint16)  # 0.1, subnormal, -0, max
    arr = (bits.astype(np.uint32) << 16).view(np.float32)
    check_exact(arr)


finite = st.sampled_from(FLOATS).flatmap(
    lambda dt: hnp.arrays(dt, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=6),
                          elements=st.floats(allow_nan=False, allow_infinity=False, width=np.finfo(dt).bits)))


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(finite)
def test_random_arrays_match_fraction_path(arr):
    check_exact(arr)


@settings(max_examples=examples(100), deadline=None)
@given(hnp.arrays(np.float64, (3, 4), elements=st.floats(allow_nan=False, allow_infinity=False)),
       st.integers(-1100, 1000))
def test_huge_and_tiny_exponents(arr, k):
    with np.errstate(over="ignore", under="ignore"):
        scaled = np.ldexp(arr, k)
    check_exact(scaled if np.isfinite(scaled).all() else arr)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.lists(st.fractions(max_denominator=10**12) | st.integers(-(2**70), 2**70),
                         min_size=3, max_size=3), min_size=1, max_size=4))
def test_scale_matrix_fast_path_matches_reference(rows):
    """The NumPy path for Fraction matrices gives the same rows and least denominator."""
    m = tuple(tuple(Fraction(v) if not isinstance(v, int) else v for v in r) for r in rows)
    got = scale_matrix(m)
    dens = [Fraction(v).denominator for r in m for v in r]
    from math import lcm
    den = lcm(*dens)
    assert got.den == den
    assert got.rows == tuple(tuple(int(Fraction(v) * den) for v in r) for r in m)


def test_int_matrix_views_and_pickle():
    m = IntMatrix(((1, 2**70), (-3, 4)), 8)
    assert m.numerators().dtype == object and m.max_abs() == 2**70
    assert m.mod(7).tolist() == [[1, 2**70 % 7], [4, 4]]
    a = IntMatrix.from_numerators(np.array([[1, -2], [3, 4]], dtype=np.int64), 2)
    assert a.rows == ((1, -2), (3, 4)) and a == IntMatrix(((1, -2), (3, 4)), 2)
    assert a != IntMatrix(((1, -2), (3, 4)), 4)
    assert pickle.loads(pickle.dumps(a)) == a and pickle.loads(pickle.dumps(m)) == m
    assert identity_int(3).rows == ((1, 0, 0), (0, 1, 0), (0, 0, 1))


def test_decision_same_from_arrays_and_fractions():
    """decide on an ArrayMatrix instance (integers straight from float32) and on the same
    weights as Fractions: identical verdict and identical exact evidence."""
    rng = np.random.default_rng(5)
    up = (rng.standard_normal((12, 4)) * 0.02).astype(np.float32)
    down = (rng.standard_normal((4, 12)) * 0.02).astype(np.float32)
    lazy = Instance(Activation("relu"), ArrayMatrix(up, exact=True), ArrayMatrix(down, exact=True))
    exact = Instance(Activation("relu"), tuple(map(tuple, exact_array(up, "u"))),
                     tuple(map(tuple, exact_array(down, "d"))))
    d1, d2 = decide(lazy), decide(exact)
    assert d1.verdict == d2.verdict == "not_absorbable"
    assert d1.evidence.A == d2.evidence.A and d1.evidence.B == d2.evidence.B
    assert lazy.W_up == exact.W_up and exact.W_down == lazy.W_down


def test_rows_view_of_array_backed_matrix():
    """rows of an array-backed IntMatrix behave as the tuple of rows; numpy reads the array."""
    a = IntMatrix.from_numerators(np.array([[1, -2], [3, 4]], dtype=np.int64), 2)
    t = IntMatrix(((1, -2), (3, 4)), 2)
    assert a.rows == t.rows and t.rows == a.rows and a.rows == ((1, -2), (3, 4))
    assert hash(a.rows) == hash(t.rows) and repr(a.rows) == repr(t.rows)
    assert len(a.rows) == 2 and a.rows[1] == (3, 4) and a.rows[:1] == ((1, -2),) and list(a.rows)[0] == (1, -2)
    assert np.array(a.rows, dtype=np.int64).tobytes() == np.array(t.rows, dtype=np.int64).tobytes()
    got = np.array(a.rows)
    got[0, 0] = 99  # a copy: the matrix is unchanged
    assert a.rows[0] == (1, -2) and a.numerators()[0, 0] == 1
    with pytest.raises(ValueError):
        a.numerators()[0, 0] = 5
    big = IntMatrix.from_numerators(np.array([[2**70, 1]], dtype=object), 1)
    with pytest.raises(OverflowError):
        np.array(big.rows, dtype=np.int64)
    assert repr(big.rows) == repr(((2**70, 1),))


@pytest.mark.parametrize("dtype", [">f8", ">f4", ">f2", ">i4", "<f4", ">u8"])
def test_non_native_byte_order(dtype):
    arr = np.array([[0.1, -3.0], [2.5, 7.0]] if dtype[1] == "f" else [[1, 3], [5, 7]], dtype=dtype)
    check_exact(arr)


def test_max_abs_at_int64_minimum():
    m = IntMatrix(((-(2**63), 5),), 1)
    assert m.numerators().dtype == np.int64 and m.max_abs() == 2**63
    assert IntMatrix.from_numerators(np.array([[-(2**63)]], dtype=np.int64), 1).max_abs() == 2**63
