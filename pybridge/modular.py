"""Exact integer scaling and linear algebra modulo a prime (NumPy ``int64``).

Every prime here is below ``2**31``, so a product of two reduced residues is
below ``2**62`` and fits ``int64``; sums of such products are never formed
without reducing first (see :func:`matvec_mod`). Results mod ``p`` are used
only in sound directions: a system with no solution mod ``p`` has no integer
(in particular no 0/1) solution.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Optional, Sequence

import numpy as np

#: Primes below 2**31 (checked with sympy.isprime), largest first.
PRIMES: tuple[int, ...] = (
    2147483647, 2147483629, 2147483587, 2147483579, 2147483563, 2147483549,
    2147483543, 2147483497, 2147483489, 2147483477, 2147483423, 2147483399,
)


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


def scale_matrix(m: Sequence[Sequence[Fraction]]) -> IntMatrix:
    """Write ``m`` as ``rows / den`` with integer rows and the least common denominator."""
    fr = [[Fraction(v) for v in r] for r in m]
    den = lcm(1, *{v.denominator for r in fr for v in r})
    rows = tuple(tuple(v.numerator * (den // v.denominator) for v in r) for r in fr)
    return IntMatrix(rows, den)


def identity_int(d: int) -> IntMatrix:
    return IntMatrix(tuple(tuple(1 if i == j else 0 for j in range(d)) for i in range(d)), 1)


def reduce_mod(rows: Sequence[Sequence[int]], p: int) -> np.ndarray:
    """Residues in ``[0, p)`` of an integer matrix (exact for any Python int)."""
    return np.array([[v % p for v in r] for r in rows], dtype=np.int64).reshape(len(rows), -1)


def matvec_mod(m: np.ndarray, v: np.ndarray, p: int) -> np.ndarray:
    """``m @ v mod p`` for residues < p < 2**31, splitting ``v`` into 16-bit limbs
    so that no ``int64`` sum overflows (rows up to 2**15 long)."""
    lo = v & 0xFFFF
    hi = v >> 16
    r_lo = (m @ lo) % p
    r_hi = (m @ hi) % p
    return (r_hi * 65536 % p + r_lo) % p


def _eliminate(a: np.ndarray, p: int, ncols: int, full: bool) -> list[int]:
    """In-place Gaussian elimination mod ``p`` on the first ``ncols`` columns.

    ``full``: reduced row echelon form (clear above pivots too); otherwise
    row echelon form with unit pivots. Returns the pivot columns."""
    rows, cols = a.shape
    pivots: list[int] = []
    buf = np.empty((rows, cols), dtype=np.int64)
    r = 0
    for c in range(ncols):
        if r == rows:
            break
        nz = np.flatnonzero(a[r:, c])
        if nz.size == 0:
            continue
        k = r + int(nz[0])
        if k != r:
            a[[r, k]] = a[[k, r]]
        inv = pow(int(a[r, c]), p - 2, p)
        a[r, c:] = a[r, c:] * inv % p
        lo = 0 if full else r + 1
        blk = a[lo:, c:]
        f = blk[:, 0].copy()
        if full:
            f[r - lo] = 0
        t = buf[: blk.shape[0], : blk.shape[1]]
        # f, pivot row < p < 2**31: products < 2**62; blk - t stays above -2**62.
        np.multiply.outer(f, a[r, c:], out=t)
        np.subtract(blk, t, out=blk)
        np.remainder(blk, p, out=blk)
        pivots.append(c)
        r += 1
    return pivots


def rank_mod(m: np.ndarray, p: int) -> int:
    """Rank of ``m`` modulo ``p``: a lower bound for the rank over Q of the integer matrix."""
    a = m % p
    return len(_eliminate(a, p, a.shape[1], full=False))


def rref_mod(m: np.ndarray, p: int, ncols: Optional[int] = None) -> tuple[np.ndarray, list[int]]:
    """Reduced row echelon form mod ``p``; pivots searched in the first ``ncols`` columns."""
    a = m.copy() % p
    piv = _eliminate(a, p, a.shape[1] if ncols is None else ncols, full=True)
    return a, piv


def solve_mod(m: np.ndarray, rhs: np.ndarray, p: int) -> Optional[np.ndarray]:
    """One solution ``x`` of ``m x = rhs (mod p)`` (free variables 0), or None."""
    rows, cols = m.shape
    a = np.concatenate([m % p, (rhs % p).reshape(rows, 1)], axis=1)
    piv = _eliminate(a, p, cols, full=False)
    r = len(piv)
    if np.any(a[r:, cols]):
        return None
    x = np.zeros(cols, dtype=np.int64)
    for i in reversed(range(r)):
        c = piv[i]
        acc = int(np.sum(a[i, c + 1:cols] * x[c + 1:] % p)) % p
        x[c] = (int(a[i, cols]) - acc) % p
    return x


def solve_left_mod(m: np.ndarray, target: np.ndarray, p: int) -> Optional[np.ndarray]:
    """A vector ``y`` with ``y^T m = target (mod p)``, or None."""
    return solve_mod(m.T.copy(), target, p)
