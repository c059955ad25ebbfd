"""NumPy's bundled OpenBLAS, reached through ``ctypes``: thread count and in-place ``dgemm``.

NumPy offers no product that accumulates into its output (``C -= A @ B`` builds
``A @ B`` in a temporary and makes one more pass over ``C``), and no way to set
BLAS's thread count. Both matter for the blocked LU mod p (:mod:`.blas_lu`),
whose work is such products. When the bundled library (``numpy.libs/libscipy_openblas*``)
cannot be found, :func:`gemm_sub` falls back to NumPy and thread control does nothing.
"""

from __future__ import annotations

import ctypes
import glob
import os
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterator, Optional

import numpy as np

_ROW_MAJOR, _COL_MAJOR = 101, 102
_NO_TRANS = 111
MIN_THREADED = 512  #: products smaller than this in some dimension run on one thread


@dataclass(frozen=True)
class _Lib:
    get_threads: Any
    set_threads: Any
    dgemm: Optional[Any]
    int_type: Any


@lru_cache(maxsize=1)
def _library() -> Optional[_Lib]:
    libs = glob.glob(os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs", "libscipy_openblas*"))
    for path in sorted(libs):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for prefix in ("scipy_openblas", "openblas"):
            for suffix in ("64_", ""):
                get = getattr(lib, f"{prefix}_get_num_threads{suffix}", None)
                set_ = getattr(lib, f"{prefix}_set_num_threads{suffix}", None)
                if get is None or set_ is None:
                    continue
                ilp64 = suffix == "64_"
                dgemm = getattr(lib, "scipy_cblas_dgemm64_" if ilp64 else "scipy_cblas_dgemm", None) or \
                    getattr(lib, "cblas_dgemm64_" if ilp64 else "cblas_dgemm", None)
                int_type = ctypes.c_int64 if ilp64 else ctypes.c_int
                if dgemm is not None:
                    dgemm.restype = None
                    dgemm.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, int_type, int_type, int_type,
                                      ctypes.c_double, ctypes.c_void_p, int_type, ctypes.c_void_p, int_type,
                                      ctypes.c_double, ctypes.c_void_p, int_type]
                return _Lib(get, set_, dgemm, int_type)
    return None


def thread_functions() -> Optional[tuple[Any, Any]]:
    """``(get_num_threads, set_num_threads)`` of NumPy's bundled OpenBLAS, or None."""
    lib = _library()
    return None if lib is None else (lib.get_threads, lib.set_threads)


def blas_threads() -> int:
    """BLAS's current thread count (1 when it cannot be read)."""
    lib = _library()
    return 1 if lib is None else max(1, int(lib.get_threads()))


def set_blas_threads(k: int) -> None:
    """Set BLAS's thread count for this process (nothing when the library is not found)."""
    lib = _library()
    if lib is not None:
        lib.set_threads(max(1, int(k)))


@contextmanager
def blas_thread_count(k: int) -> Iterator[None]:
    """BLAS runs with ``k`` threads inside the block (restored after)."""
    lib = _library()
    if lib is None:
        yield
        return
    before = int(lib.get_threads())
    if before != k:
        lib.set_threads(k)
    try:
        yield
    finally:
        if before != k:
            lib.set_threads(before)


def _layout(x: np.ndarray) -> Optional[tuple[int, int]]:
    """``(order, leading dimension)`` of a 2-D float64 view BLAS can read in place, or None."""
    if x.dtype != np.float64 or x.ndim != 2:
        return None
    s0, s1 = x.strides
    r, c = x.shape
    if s1 == 8 and s0 % 8 == 0 and s0 // 8 >= max(c, 1):
        return _ROW_MAJOR, s0 // 8
    if s0 == 8 and s1 % 8 == 0 and s1 // 8 >= max(r, 1):
        return _COL_MAJOR, s1 // 8
    if r == 1 and s1 == 8:
        return _ROW_MAJOR, max(c, 1)
    if c == 1 and s0 == 8:
        return _COL_MAJOR, max(r, 1)
    return None


def gemm_sub(c: np.ndarray, a: np.ndarray, b: np.ndarray, threads: int = 1) -> None:
    """``c -= a @ b`` in place (``float64``; one BLAS call, no temporary, when the views allow;
    otherwise NumPy). ``threads`` BLAS threads for a product that is large in every
    dimension (at least :data:`MIN_THREADED`), one otherwise."""
    m, k = a.shape
    n = b.shape[1]
    if m == 0 or n == 0 or k == 0:
        return
    lib = _library()
    lc, la, lb = _layout(c), _layout(a), _layout(b)
    if lib is None or lib.dgemm is None or lc is None or la is None or lb is None:
        c -= a @ b
        return
    order = lc[0]
    # In c's order, a and b are either as stored (no transpose) or transposed.
    ta = _NO_TRANS if la[0] == order else _NO_TRANS + 1
    tb = _NO_TRANS if lb[0] == order else _NO_TRANS + 1
    want = threads if min(m, n, k) >= MIN_THREADED else 1
    with blas_thread_count(want):
        lib.dgemm(order, ta, tb, m, n, k, -1.0, a.ctypes.data, la[1], b.ctypes.data, lb[1], 1.0,
                  c.ctypes.data, lc[1])
