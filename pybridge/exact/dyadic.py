"""Exact values of NumPy arrays as integers over a power of two, without Fractions.

A finite binary float is ``m * 2**k`` with an integer ``m``; a whole array is
therefore ``M / 2**E`` exactly, with integer numerators ``M`` and the least
``E >= 0``. :func:`dyadic_numerators` computes ``M`` and ``E`` with vectorised
NumPy (``frexp``, integer shifts): ``M`` is ``int64`` when every numerator fits
63 bits, else an ``object`` array of Python ints (for instance ``1e-30`` next to
``1`` in one matrix). float16 / float32 / float64 (bfloat16 is read as float32
by the file readers), integer arrays, and long double (entry by entry).
"""

from __future__ import annotations

import numpy as np

from pybridge.errors import InputError

INT64_BITS = 63  #: numerators of at most this many bits (sign apart) are kept as int64
_MANTISSA = 53  #: float64 significand bits


def dyadic_numerators(arr: np.ndarray, where: str) -> tuple[np.ndarray, int]:
    """``(M, E)`` with ``arr == M / 2**E`` exactly, ``E >= 0`` least (the least common
    denominator of the entries is ``2**E``). ``M`` has ``arr``'s shape and is ``int64``
    when every ``|M_ij| < 2**63``, else ``object`` (Python ints).

    NaN or infinity, booleans and non-numeric arrays are input errors."""
    kind = arr.dtype.kind
    if kind == "b":
        raise InputError(f"{where}: boolean array where numbers were expected")
    if kind in "iu":
        return _integers(arr), 0
    if kind != "f":
        raise InputError(f"{where}: unsupported array type {arr.dtype}")
    if not np.isfinite(arr).all():
        raise InputError(f"{where}: contains NaN or infinity")
    if arr.dtype.itemsize > 8:
        return _long_double(arr)
    return _floats(np.asarray(arr, dtype=np.float64))  # float16/32 -> float64 is exact


def _integers(arr: np.ndarray) -> np.ndarray:
    if arr.dtype.kind == "u" and arr.dtype.itemsize >= 8 and arr.size and int(arr.max()) > 2**INT64_BITS - 1:
        out = np.empty(arr.shape, dtype=object)
        out.ravel()[:] = arr.ravel().tolist()  # Python ints, exact
        return out
    return arr.astype(np.int64)


def _floats(x: np.ndarray) -> tuple[np.ndarray, int]:
    """Finite float64 ``x`` as ``(M, E)``."""
    shape = x.shape
    mant, expo = np.frexp(x.ravel())  # x = mant * 2**expo, 1/2 <= |mant| < 1 (subnormals too)
    m = np.ldexp(mant, _MANTISSA).astype(np.int64)  # an integer below 2**53: exact
    nz = np.flatnonzero(m)  # -0.0 and 0.0 give m = 0
    if nz.size == 0:
        return np.zeros(shape, dtype=np.int64), 0
    mv = m[nz]
    low = mv & -mv  # lowest set bit, a power of two below 2**53
    tz = np.frexp(low.astype(np.float64))[1].astype(np.int64) - 1
    odd = mv >> tz  # exact (arithmetic shift of a multiple of 2**tz)
    k = expo[nz].astype(np.int64) - _MANTISSA + tz  # entry = odd * 2**k, odd odd
    e = max(0, -int(k.min()))
    shift = k + e  # >= 0
    bits = np.frexp(np.abs(odd).astype(np.float64))[1].astype(np.int64)  # bit length of |odd| (< 2**53: exact)
    if int((bits + shift).max()) <= INT64_BITS:
        out = np.zeros(x.size, dtype=np.int64)
        out[nz] = odd << shift
        return out.reshape(shape), e
    big = np.zeros(x.size, dtype=object)
    big[:] = 0
    big[nz] = [o << s for o, s in zip(odd.tolist(), shift.tolist())]  # Python ints, exact
    return big.reshape(shape), e


def _long_double(x: np.ndarray) -> tuple[np.ndarray, int]:
    """Long double, entry by entry (``as_integer_ratio`` is exact; denominators are powers of 2)."""
    flat = x.ravel()
    ratios = [v.as_integer_ratio() for v in flat]
    e = max((q.bit_length() - 1 for _, q in ratios), default=0)
    nums = [a << (e - (q.bit_length() - 1)) for a, q in ratios]
    if all(-(2**INT64_BITS) < v < 2**INT64_BITS for v in nums):
        return np.array(nums, dtype=np.int64).reshape(x.shape), e
    out = np.empty(flat.size, dtype=object)
    out[:] = nums
    return out.reshape(x.shape), e
