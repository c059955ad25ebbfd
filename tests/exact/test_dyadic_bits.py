"""The chunked bit-level float reader (dyadic._float_bits) against exact Fractions, chunk by chunk."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from pybridge.exact import dyadic
from pybridge.exact.dyadic import dyadic_numerators


def _exact(arr: np.ndarray, num: np.ndarray, e: int) -> None:
    """``arr == num / 2**e`` entry by entry, and ``e`` least."""
    vals = [Fraction(float(v)) for v in arr.astype(np.float64).ravel()]
    nums = [int(v) for v in num.ravel()]
    assert all(Fraction(m, 2**e) == v for m, v in zip(nums, vals))
    if e > 0:
        assert any(m % 2 for m in nums), "the exponent of the denominator is not least"


@settings(max_examples=examples(120), deadline=None)
@given(st.sampled_from([np.float16, np.float32, np.float64]), st.integers(1, 9), st.integers(1, 7),
       st.integers(-30, 30), st.integers(0, 12), st.booleans(), st.integers(0, 2**32 - 1))
def test_bits_match_fractions(dtype, rows, cols, center, spread, transposed, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((rows, cols)) * 2.0 ** rng.integers(center - spread, center + spread + 1, (rows, cols))
    x[rng.random((rows, cols)) < 0.2] = 0.0
    arr = np.clip(x, np.finfo(dtype).min, np.finfo(dtype).max).astype(dtype)
    if transposed:
        arr = arr.T
    old = dyadic.CHUNK
    dyadic.CHUNK = 3  # several chunks even for tiny arrays
    try:
        out = dyadic._float_bits(arr)
    finally:
        dyadic.CHUNK = old
    if out is None:  # its bound (full significands) exceeds 63 bits: the general path decides
        assert dyadic.INT64_BITS < np.finfo(dtype).nmant + 1 + np.ptp(np.frexp(arr[arr != 0])[1])
        num, e = dyadic_numerators(arr, "x")
        _exact(arr, num, e)
        return
    num, e = out
    assert num.dtype == np.int64 and num.shape == arr.shape
    _exact(arr, num, e)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_subnormals_zeros_and_signs(dtype):
    info = np.finfo(dtype)
    arr = np.array([[info.smallest_subnormal, -info.smallest_subnormal, -0.0],
                    [0.0, info.smallest_normal, -info.smallest_subnormal * 3]], dtype=dtype)
    num, e = dyadic._float_bits(arr)
    _exact(arr, num, e)
    assert dyadic._float_bits(np.zeros((2, 2), dtype=dtype))[1] == 0


def test_integral_values_have_exponent_zero_and_big_ones_fall_back():
    num, e = dyadic._float_bits(np.array([[2.0**20, -(2.0**10)], [3.0, 0.0]], dtype=np.float32))
    assert e == 0 and num.tolist() == [[2**20, -(2**10)], [3, 0]]
    assert dyadic._float_bits(np.array([[2.0**70, 1.0]])) is None  # 71 bits: Python ints needed
    num, e = dyadic_numerators(np.array([[2.0**70, 1.0]]), "x")
    assert num.dtype == object and int(num[0, 0]) == 2**70 and e == 0


def test_big_endian_input():
    arr = np.array([[0.375, -1.5], [2.0**-20, 7.0]], dtype=">f4")
    num, e = dyadic._float_bits(arr)
    _exact(arr.astype(np.float32), num, e)
