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
    fast = _float_bits(arr) if arr.ndim == 2 and arr.dtype.itemsize in _FORMATS else None
    if fast is not None:
        return fast
    return _floats(np.asarray(arr, dtype=np.float64))  # float16/32 -> float64 is exact


#: IEEE binary formats by item size: (unsigned view, significand bits stored, exponent bits)
_FORMATS: dict[int, tuple[type, int, int]] = {2: (np.uint16, 10, 5), 4: (np.uint32, 23, 8), 8: (np.uint64, 52, 11)}
CHUNK = 1 << 22  #: entries converted at once (bounds the temporaries of :func:`_float_bits`)


def _fields(block: np.ndarray, mbits: int, ebits: int) -> tuple[np.ndarray, np.ndarray]:
    """``(significand, effective exponent field)`` of IEEE floats as ``int64``: the value of a
    finite entry is ``+- sig * 2**(eff - bias - mbits)`` (``eff`` 1 for subnormals)."""
    ut = _FORMATS[block.dtype.itemsize][0]
    bits: np.ndarray = np.ascontiguousarray(block).view(ut)
    ex = ((bits >> ut(mbits)) & ut((1 << ebits) - 1)).astype(np.int64)
    sig = (bits & ut((1 << mbits) - 1)).astype(np.int64)
    normal = ex > 0
    sig[normal] |= np.int64(1 << mbits)
    np.maximum(ex, 1, out=ex)
    return sig, ex


def _float_bits(arr: np.ndarray) -> tuple[np.ndarray, int] | None:
    """``(M, E)`` of a finite 2-D float16/32/64 array from its bits, in row chunks of about
    :data:`CHUNK` entries (temporaries a few chunks; the ``int64`` result is the one full-size
    array); None when some numerator needs more than 63 bits (the caller falls back).

    Entry ``+- sig * 2**(eff - bias - mbits)``: over the least exponent ``e0`` of the nonzero
    entries every numerator is ``sig << (eff - e0)``; the common power of two of all of
    them (the lowest set bit of their bitwise or) is then divided out, or multiplied in
    while the exponent of the denominator is negative."""
    mbits, ebits = _FORMATS[arr.dtype.itemsize][1:]
    if arr.dtype.byteorder not in "=|":
        arr = arr.astype(arr.dtype.newbyteorder("="))
    rows, cols = arr.shape
    step = max(1, CHUNK // max(cols, 1))
    ut = _FORMATS[arr.dtype.itemsize][0]
    mag_mask = ut((1 << (mbits + ebits)) - 1)
    lo_mag, hi_mag = None, 0
    for r0 in range(0, rows, step):  # pass 1: the least nonzero and the largest magnitude (as bits)
        mag = np.ascontiguousarray(arr[r0:r0 + step]).view(ut) & mag_mask
        hi_mag = max(hi_mag, int(mag.max()))
        mag -= ut(1)  # 0 wraps around to the largest value: the minimum is that of the nonzero entries
        low = int(mag.min()) + 1
        if low <= int(mag_mask):
            lo_mag = low if lo_mag is None else min(lo_mag, low)
    if lo_mag is None:
        return np.zeros((rows, cols), dtype=np.int64), 0
    lo_e, hi_e = max(1, lo_mag >> mbits), max(1, hi_mag >> mbits)  # IEEE order: bits order magnitudes
    if mbits + 1 + hi_e - lo_e > INT64_BITS:
        return None
    bias = (1 << (ebits - 1)) - 1
    out = np.empty((rows, cols), dtype=np.int64)
    common = 0
    for r0 in range(0, rows, step):  # pass 2: numerators over 2**(bias + mbits - lo_e)
        block = arr[r0:r0 + step]
        sig, ex = _fields(block, mbits, ebits)
        ex -= lo_e
        np.maximum(ex, 0, out=ex)  # zeros: any shift keeps them 0
        np.left_shift(sig, ex, out=sig)
        neg = np.signbit(block)
        np.negative(sig, out=sig, where=neg)
        out[r0:r0 + step] = sig
        common |= int(np.bitwise_or.reduce(sig, axis=None))  # two's complement keeps the lowest set bit
    e = bias + mbits - lo_e
    tz = (common & -common).bit_length() - 1
    if tz > 0 and e > 0:
        k = min(tz, e)
        np.right_shift(out, k, out=out)  # exact: every numerator is a multiple of 2**k
        e -= k
    if e < 0:
        if mbits + 1 + hi_e - lo_e - e > INT64_BITS:
            return None
        np.left_shift(out, -e, out=out)
        e = 0
    return out, e


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
