"""Exact integer scaling and linear algebra modulo a prime.

Elimination runs in FLINT (``python-flint``'s ``nmod_mat``) or, for the large
square solves of the generic no-subset certificate, in a blocked LU over
``float64`` BLAS products (exact for moduli below ``2**20``: every product
is below ``2**40`` and every sum of up to ``2**12`` of them below ``2**53``).
Residues live in NumPy ``int64`` arrays; a product of two residues below
``2**31`` fits ``int64`` and sums of such products are never formed without
reducing first (see :func:`matvec_mod`). Results mod ``p`` are used only in
sound directions: a system with no solution mod ``p`` has no integer (in
particular no 0/1) solution.

Primes are drawn per run from a large pool (:func:`random_primes`: every prime
in a range, found by a deterministic Miller-Rabin test), so that no fixed
prime can be planted in the weights; :data:`PRIMES` are fixed primes kept for
multi-modular exactness checks, where any pairwise coprime moduli work.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Optional, Sequence

import flint
import numpy as np

#: Primes below 2**31 (checked with sympy.isprime), largest first.
PRIMES: tuple[int, ...] = (
    2147483647, 2147483629, 2147483587, 2147483579, 2147483563, 2147483549,
    2147483543, 2147483497, 2147483489, 2147483477, 2147483423, 2147483399,
)

BLAS_PRIME_BOUND = 2**20  #: moduli below this make float64 block products exact (inner size <= 2**12)
BLAS_MAX_INNER = 2**12

_RNG = random.Random(int.from_bytes(os.urandom(8), "little"))


def is_prime(m: int) -> bool:
    """Deterministic Miller-Rabin for ``m < 3.3 * 10**24`` (bases 2 .. 41)."""
    if m < 2:
        return False
    small = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
    for q in small:
        if m % q == 0:
            return m == q
    dd, s = m - 1, 0
    while dd % 2 == 0:
        dd //= 2
        s += 1
    for a in small:
        x = pow(a, dd, m)
        if x in (1, m - 1):
            continue
        for _ in range(s - 1):
            x = x * x % m
            if x == m - 1:
                break
        else:
            return False
    return True


def random_primes(count: int, lo: int = 2**30, hi: int = 2**31, rng: Optional[random.Random] = None,
                  avoid: Sequence[int] = ()) -> list[int]:
    """``count`` distinct primes drawn uniformly from ``[lo, hi)`` (a pool of about
    ``(hi - lo) / ln hi`` primes: 50 million for the default range)."""
    r = rng or _RNG
    out: list[int] = []
    seen = set(avoid)
    while len(out) < count:
        c = r.randrange(lo, hi) | 1
        if c < hi and c not in seen and is_prime(c):
            seen.add(c)
            out.append(c)
    return out


@dataclass(frozen=True)
class IntMatrix:
    """A rational matrix as integer numerators over one common positive denominator."""

    rows: tuple[tuple[int, ...], ...]
    den: int

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self.rows), len(self.rows[0]) if self.rows else 0)

    def max_abs(self) -> int:
        return max((abs(v) for r in self.rows for v in r), default=0)


def _ratio(v: object) -> tuple[int, int]:
    try:
        return v.as_integer_ratio()  # type: ignore[attr-defined]  # Fraction, int, float: exact
    except AttributeError:
        return Fraction(v).as_integer_ratio()  # type: ignore[arg-type]


def scale_matrix(m: Sequence[Sequence[Fraction]]) -> IntMatrix:
    """Write ``m`` as ``rows / den`` with integer rows and the least common denominator."""
    ratios = [[_ratio(v) for v in r] for r in m]
    dens = {q for r in ratios for _, q in r}
    den = lcm(1, *dens)
    factor = {q: den // q for q in dens}
    rows = tuple(tuple(a * factor[q] for a, q in r) for r in ratios)
    return IntMatrix(rows, den)


def identity_int(d: int) -> IntMatrix:
    return IntMatrix(tuple(tuple(1 if i == j else 0 for j in range(d)) for i in range(d)), 1)


def reduce_mod(rows: Sequence[Sequence[int]], p: int) -> np.ndarray:
    """Residues in ``[0, p)`` of an integer matrix (exact for any Python int)."""
    m = len(rows)
    try:
        a = np.array(rows, dtype=np.int64).reshape(m, -1)
        return np.remainder(a, p)
    except OverflowError:
        return np.array([[v % p for v in r] for r in rows], dtype=np.int64).reshape(m, -1)


def matvec_mod(m: np.ndarray, v: np.ndarray, p: int) -> np.ndarray:
    """``m @ v mod p`` for residues < p < 2**31, splitting ``v`` into 16-bit limbs
    so that no ``int64`` sum overflows (rows up to 2**15 long)."""
    lo = v & 0xFFFF
    hi = v >> 16
    r_lo = (m @ lo) % p
    r_hi = (m @ hi) % p
    return (r_hi * 65536 % p + r_lo) % p


def to_flint(m: np.ndarray, p: int) -> "flint.nmod_mat":
    """An ``nmod_mat`` from a residue array (python-flint takes Python sequences;
    ``ndarray.tolist`` converts in C)."""
    rows, cols = m.shape
    return flint.nmod_mat(rows, cols, np.remainder(m, p).ravel().tolist(), p)


def from_flint(m: "flint.nmod_mat") -> np.ndarray:
    """A residue array from an ``nmod_mat``."""
    rows, cols = m.nrows(), m.ncols()
    return np.array([int(x) for x in m.entries()], dtype=np.int64).reshape(rows, cols)


def rank_mod(m: np.ndarray, p: int) -> int:
    """Rank of ``m`` modulo ``p``: a lower bound for the rank over Q of the integer matrix."""
    if m.size == 0:
        return 0
    return int(to_flint(m, p).rank())


def rref_mod(m: np.ndarray, p: int, ncols: Optional[int] = None) -> tuple[np.ndarray, list[int]]:
    """Reduced row echelon form mod ``p``; pivots searched in the first ``ncols`` columns
    (a pivot in a later column stops the search there)."""
    rows, cols = m.shape
    if m.size == 0:
        return m.copy() % p, []
    red = from_flint(to_flint(m, p).rref()[0])
    piv: list[int] = []
    limit = cols if ncols is None else ncols
    for i in range(rows):
        nz = np.flatnonzero(red[i])
        if nz.size == 0:
            break
        if int(nz[0]) >= limit:
            break
        piv.append(int(nz[0]))
    return red, piv


def solve_mod(m: np.ndarray, rhs: np.ndarray, p: int) -> Optional[np.ndarray]:
    """One solution ``x`` of ``m x = rhs (mod p)`` (free variables 0), or None."""
    rows, cols = m.shape
    g = np.concatenate([np.remainder(m, p), np.remainder(rhs, p).reshape(rows, 1)], axis=1)
    red, piv = rref_mod(g, p, ncols=cols)
    r = len(piv)
    if r < rows and np.any(red[r:, cols]):
        return None
    x = np.zeros(cols, dtype=np.int64)
    for i, c in enumerate(piv):
        x[c] = red[i, cols]
    return x


def solve_left_mod(m: np.ndarray, target: np.ndarray, p: int) -> Optional[np.ndarray]:
    """A vector ``y`` with ``y^T m = target (mod p)``, or None."""
    return solve_mod(m.T.copy(), target, p)


def _inv_unit_lower(L: np.ndarray, p: int) -> np.ndarray:
    """Inverse of a unit lower triangular block mod ``p`` (float64 residues)."""
    b = L.shape[0]
    X = np.eye(b)
    for c in range(b - 1):
        X[c + 1:, :] = np.remainder(X[c + 1:, :] - np.outer(L[c + 1:, c], X[c, :]), p)
    return X


def solve_square_blas(m: np.ndarray, rhs: np.ndarray, p: int, block: int = 64) -> Optional[np.ndarray]:
    """The solution of ``m x = rhs (mod p)`` for square ``m`` invertible mod ``p``, else None.

    Blocked LU with row pivoting; the trailing updates are ``float64`` matrix
    products (BLAS), exact because ``p < 2**20`` and the inner size is below
    ``2**12`` (products below ``2**40``, sums below ``2**52``)."""
    n = m.shape[0]
    if p >= BLAS_PRIME_BOUND or n > BLAS_MAX_INNER or block > 2**12 or m.shape != (n, n):
        raise ValueError("solve_square_blas needs p < 2**20 and a square matrix of size <= 2**12")
    a = np.remainder(m, p).astype(np.float64)
    b = np.remainder(rhs, p).astype(np.float64).copy()
    for k0 in range(0, n, block):
        k1 = min(k0 + block, n)
        for c in range(k0, k1):
            nz = np.flatnonzero(a[c:, c])
            if nz.size == 0:
                return None
            r = c + int(nz[0])
            if r != c:
                a[[c, r]] = a[[r, c]]
                b[[c, r]] = b[[r, c]]
            inv = pow(int(a[c, c]), p - 2, p)
            a[c + 1:, c] = np.remainder(a[c + 1:, c] * inv, p)
            if c + 1 < k1:
                a[c + 1:, c + 1:k1] = np.remainder(a[c + 1:, c + 1:k1] - np.outer(a[c + 1:, c], a[c, c + 1:k1]), p)
        if k1 < n:
            linv = _inv_unit_lower(a[k0:k1, k0:k1], p)
            a[k0:k1, k1:] = np.remainder(linv @ a[k0:k1, k1:], p)
            # block products below block * 2**40 <= 2**46: exact before one reduction
            a[k1:, k1:] = np.remainder(a[k1:, k1:] - a[k1:, k0:k1] @ a[k0:k1, k1:], p)
    # forward (unit lower), then back substitution (upper)
    y = np.zeros(n)
    for i in range(n):
        y[i] = (b[i] - float(np.remainder(a[i, :i] @ y[:i], p))) % p
    x = np.zeros(n)
    for i in reversed(range(n)):
        s = float(np.remainder(a[i, i + 1:] @ x[i + 1:], p))
        x[i] = (y[i] - s) % p * pow(int(a[i, i]), p - 2, p) % p
    return x.astype(np.int64)
