"""Square linear systems mod a prime ``p < 2**20`` by a blocked LU whose work is ``float64`` BLAS.

Delayed reduction, as in FFLAS-FFPACK and FLINT: entries are integers held exactly in
``float64``; every factor of a product is a *balanced residue* (``|r| <= p / 2 + 4``,
:func:`reduce_balanced`), so a product is below ``h**2`` (``h = p // 2 + 4``), and an
entry receives at most ``n`` products (one per eliminated column) before it is reduced
when its own column or row is finished. Starting entries below ``2**40``, every partial
sum is an integer below ``2**40 + n * h**2``, which :func:`prime_bound` keeps below
``2**53``: every ``float64`` operation, in any order BLAS chooses, is exact.
(``p < 2**20`` allows ``n`` up to 32 760; ``p < 2**19`` four times that.)

The matrix is factored in place, in column-major (Fortran) order so that the panel
columns the leaves walk are contiguous; trailing updates are one in-place ``dgemm``
each (:func:`pybridge.exact.openblas.gemm_sub`), multithreaded when they are large and
the process allows BLAS threads. Memory: the ``n x n`` ``float64`` matrix (the
caller's, overwritten, when it is ``float64`` and column-major) and ``O(n)`` more.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from pybridge.exact.openblas import blas_thread_count, blas_threads, gemm_sub

FLOAT_EXACT = 2**53  #: float64 holds every integer below this exactly
START_BOUND = 2**40  #: entries of a matrix handed in unreduced are below this
PRIME_BOUNDS = (2**20, 2**19, 2**18)  #: prime bounds tried, largest first
LEAF = 32  #: widest column panel factored without recursion (its triangular inverses are kept)


def max_size(p_bound: int) -> int:
    """The largest ``n`` for which the LU of an ``n x n`` system mod any ``p < p_bound`` is exact."""
    h = p_bound // 2 + 4
    return (FLOAT_EXACT - 1 - START_BOUND) // (h * h)


def prime_bound(n: int) -> int:
    """The largest bound of :data:`PRIME_BOUNDS` under which the LU of size ``n`` is exact."""
    for b in PRIME_BOUNDS:
        if n <= max_size(b):
            return b
    raise ValueError(f"a {n} x {n} system is too large for the float64 LU mod p")


class Singular(Exception):
    """No nonzero pivot mod p: the matrix is singular mod p."""


def reduce_balanced(x: np.ndarray, p: float, pinv: float) -> None:
    """``x := x - rint(x / p) * p`` in place: the balanced residue of each entry.

    For integer-valued ``|x| < 2**52`` and ``p < 2**20`` the result is congruent to
    ``x`` mod ``p`` and ``|result| <= p / 2 + 4``: the computed quotient ``x * pinv``
    is within ``2**-18`` of ``x / p``, so the rounded quotient is off by at most one
    and only when ``x / p`` is that close to a half-integer; ``q * p`` and the
    difference are exact integers below ``2**53``. A balanced residue is 0 exactly
    when ``x`` is divisible by ``p``. (Vectorised passes, against NumPy's much slower
    ``fmod``-based ``remainder``.)"""
    q = x * pinv
    np.rint(q, out=q)
    q *= p
    x -= q


def _triangular_factors(d: np.ndarray, p: int) -> Optional[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``(L, U, L^-1 mod p)`` with ``d = L U`` mod ``p`` (``L`` unit lower, residues in ``[0, p)``,
    ``int64``) when no leading principal minor of ``d`` vanishes mod ``p``, else None.

    Forward elimination of ``[d | I]`` without row exchanges leaves ``[U | L^-1]``."""
    w = d.shape[0]
    g = np.zeros((w, 2 * w), dtype=np.int64)
    g[:, :w] = np.remainder(d, p)
    g[:, w:] = np.eye(w, dtype=np.int64)
    low = np.eye(w, dtype=np.int64)
    for c in range(w):
        piv = int(g[c, c])
        if piv == 0:
            return None
        if c + 1 < w:
            mult = g[c + 1:, c] * pow(piv, p - 2, p) % p  # entries below 2**20: products fit int64
            low[c + 1:, c] = mult
            g[c + 1:, c:] = (g[c + 1:, c:] - np.multiply.outer(mult, g[c, c:])) % p
    return low, g[:, :w].copy(), g[:, w:].copy()


def _inverse_upper(u: np.ndarray, p: int) -> np.ndarray:
    """``U^-1 mod p`` of an upper triangular ``U`` with nonzero diagonal (residues, ``int64``):
    backward elimination of ``[U | I]``."""
    w = u.shape[0]
    g = np.zeros((w, 2 * w), dtype=np.int64)
    g[:, :w] = u
    g[:, w:] = np.eye(w, dtype=np.int64)
    for c in range(w - 1, -1, -1):
        g[c] = g[c] * pow(int(g[c, c]), p - 2, p) % p
        if c:
            g[:c] = (g[:c] - np.multiply.outer(g[:c, c], g[c])) % p
    return g[:, w:].copy()


class _LU:
    """One factorisation: the matrix, the prime, the row permutation, BLAS threads, and the
    inverses of the unit lower diagonal blocks of the leaves (for the triangular solves)."""

    def __init__(self, a: np.ndarray, p: int) -> None:
        self.a = a
        self.p = float(p)
        self.ip = p
        self.pinv = 1.0 / p
        self.perm = np.arange(a.shape[0])
        self.threads = blas_threads()
        self.linv: dict[int, np.ndarray] = {}

    def reduce(self, x: np.ndarray) -> None:
        reduce_balanced(x, self.p, self.pinv)

    def trsm(self, L: np.ndarray, X: np.ndarray, off: int) -> None:
        """``X := L^-1 X`` mod ``p`` in place, ``L`` the unit lower triangle of the diagonal block
        of rows and columns ``off ..`` (same recursion as :meth:`columns`: its leaves are
        the factored leaves, whose inverses are kept)."""
        h = L.shape[0]
        if h <= LEAF:
            self.reduce(X)
            X[...] = self.linv[off] @ X  # inner size <= LEAF: below LEAF * 2**39
            self.reduce(X)
            return
        k = h // 2
        self.trsm(L[:k, :k], X[:k], off)
        gemm_sub(X[k:], L[k:, :k], X[:k], self.threads)  # left unreduced: the leaves reduce
        self.trsm(L[k:, k:], X[k:], off + k)

    def leaf(self, c0: int, c1: int) -> None:
        """Columns ``c0 .. c1`` (at most :data:`LEAF`): the top block ``D = L U`` factored
        without row exchanges, the rows below as ``P U^-1``; when some leading minor of
        ``D`` vanishes mod ``p``, column by column with row pivoting (:meth:`pivoting_leaf`)."""
        a, p = self.a, self.ip
        panel = a[c0:, c0:c1]
        self.reduce(panel)
        w = c1 - c0
        top = panel[:w].astype(np.int64)
        factors = _triangular_factors(top, p)
        if factors is None:
            self.pivoting_leaf(c0, c1)
            low = np.remainder(np.tril(a[c0:c1, c0:c1], -1).astype(np.int64), p) + np.eye(w, dtype=np.int64)
            self.linv[c0] = _triangular_factors(low, p)[2].astype(np.float64)  # type: ignore[index]
            return
        low, up, linv = factors
        panel[:w] = np.where(np.tri(w, dtype=bool, k=-1), low, up)
        if panel.shape[0] > w:
            below = panel[w:]
            below[...] = below @ _inverse_upper(up, p).astype(np.float64)  # below LEAF * 2**39
            self.reduce(below)
        self.linv[c0] = linv.astype(np.float64)

    def pivoting_leaf(self, c0: int, c1: int) -> None:
        """Columns ``c0 .. c1`` one at a time, a row exchange wherever the pivot vanishes mod ``p``."""
        a = self.a
        ip = self.ip
        for c in range(c0, c1):
            col = a[c:, c]
            self.reduce(col)
            if col[0] != 0:
                r = c
            else:
                nz = np.flatnonzero(col)
                if nz.size == 0:
                    raise Singular
                r = c + int(nz[0])
                a[[c, r]] = a[[r, c]]
                self.perm[[c, r]] = self.perm[[r, c]]
            seg = a[c, c + 1:c1]
            self.reduce(seg)
            inv = float(pow(int(a[c, c]) % ip, ip - 2, ip))
            low = a[c + 1:, c]
            low *= inv
            self.reduce(low)
            if c + 1 < c1:
                a[c + 1:, c + 1:c1] -= np.multiply.outer(low, seg)
        self.reduce(a[c0:, c0:c1])

    def columns(self, c0: int, c1: int) -> None:
        """LU with row pivoting of columns ``c0 .. c1`` (rows ``c0 ..``), in place: L (unit,
        below the diagonal) and U; row swaps applied to whole rows and to ``perm``."""
        if c1 - c0 <= LEAF:
            self.leaf(c0, c1)
            return
        a = self.a
        m = c0 + (c1 - c0) // 2
        self.columns(c0, m)
        self.trsm(a[c0:m, c0:m], a[c0:m, m:c1], c0)
        gemm_sub(a[m:, m:c1], a[m:, c0:m], a[c0:m, m:c1], self.threads)  # left unreduced
        self.columns(m, c1)


def solve_square(m: np.ndarray, rhs: np.ndarray, p: int) -> Optional[np.ndarray]:
    """The solution of ``m x = rhs (mod p)`` (``int64`` residues in ``[0, p)``) for square
    ``m`` invertible mod ``p``, else None. ``rhs``: a vector, or an ``n x s`` matrix of
    right-hand sides (one factorisation; the solution is ``n x s``).

    ``m``: an integer array (any residues) or a ``float64`` array of integers below
    ``2**52`` in absolute value; a column-major ``float64`` ``m`` is factored in place
    (overwritten; entries of ``2**40`` or more are reduced first), any other is copied.
    Needs ``p < prime_bound(n)``."""
    n = m.shape[0]
    if m.shape != (n, n) or not 2 < p < prime_bound(n):
        raise ValueError("solve_square needs a square matrix and an odd prime below prime_bound(n)")
    fp, pinv = float(p), 1.0 / p
    if m.dtype == np.float64:
        a = m if m.flags.f_contiguous else np.asfortranarray(m)
        if a.size and not max(float(a.max()), -float(a.min())) < START_BOUND:  # no |a| temporary
            reduce_balanced(a, fp, pinv)
    else:
        a = np.asfortranarray(np.remainder(m, p), dtype=np.float64)
    lu = _LU(a, p)
    with blas_thread_count(1):  # only the large products of gemm_sub use the process's BLAS threads
        try:
            lu.columns(0, n)
        except Singular:
            return None
        y = np.asfortranarray(np.remainder(rhs, p).astype(np.float64)[lu.perm].reshape(n, -1))
        lu.trsm(a, y, 0)
    return _back_substitute(a, y if np.ndim(rhs) == 2 else y[:, 0], p)


def _back_substitute(a: np.ndarray, y: np.ndarray, p: int) -> np.ndarray:
    """``U x = y`` mod ``p`` (``U`` the reduced upper triangle of ``a``; ``y`` a vector or a
    matrix of columns), by blocks of rows: the part of each dot product from solved blocks is
    one reduced matrix product."""
    n = a.shape[0]
    fp, pinv = float(p), 1.0 / p
    x = np.zeros(y.shape)
    inv = np.array([pow(int(v) % p, p - 2, p) for v in np.diagonal(a).tolist()], dtype=np.float64)
    rhs = y.copy()
    block = 64
    for hi in range(n, 0, -block):
        lo = max(0, hi - block)
        for i in range(hi - 1, lo - 1, -1):
            s = np.remainder(a[i, i + 1:hi] @ x[i + 1:hi], fp)
            x[i] = (rhs[i] - s) % fp * inv[i] % fp
        if lo:  # the rows above take this block's contribution: n * h * p < 2**53 before reducing
            rhs[:lo] -= a[:lo, lo:hi] @ x[lo:hi]
            reduce_balanced(rhs[:lo], fp, pinv)
    return np.remainder(x, fp).astype(np.int64)
