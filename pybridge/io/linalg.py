"""Exact invertibility of a rational square matrix (used to validate skips).

A nonzero determinant modulo a prime proves invertibility over Q for the
integer-scaled matrix; only when several primes say "singular" is the exact
Fraction elimination run, which then decides.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm
from typing import Sequence

import numpy as np

PRIMES = (2147483629, 2147483587, 2147483579)


def _rank_mod_p(rows: list[list[int]], p: int) -> int:
    m = np.array([[v % p for v in r] for r in rows], dtype=np.int64)
    nrows, ncols = m.shape
    rank = 0
    for col in range(ncols):
        piv = next((r for r in range(rank, nrows) if m[r, col] != 0), None)
        if piv is None:
            continue
        m[[rank, piv]] = m[[piv, rank]]
        inv = pow(int(m[rank, col]), p - 2, p)
        m[rank] = (m[rank] * inv) % p
        below = m[rank + 1 :, col].copy()
        if below.any():
            # (row * factor) % p, factor and entries < p < 2^31: products fit in int64.
            m[rank + 1 :] = (m[rank + 1 :] - (below[:, None] * m[rank]) % p) % p
        rank += 1
    return rank


def _rank_exact(rows: Sequence[Sequence[Fraction]]) -> int:
    m = [list(r) for r in rows]
    rank = 0
    ncols = len(m[0]) if m else 0
    for col in range(ncols):
        piv = next((r for r in range(rank, len(m)) if m[r][col] != 0), None)
        if piv is None:
            continue
        m[rank], m[piv] = m[piv], m[rank]
        for r in range(rank + 1, len(m)):
            if m[r][col]:
                f = m[r][col] / m[rank][col]
                m[r] = [a - f * b for a, b in zip(m[r], m[rank])]
        rank += 1
    return rank


def is_invertible(matrix: Sequence[Sequence[Fraction]]) -> bool:
    """True iff the square rational ``matrix`` is invertible (exact)."""
    scaled = []
    for row in matrix:
        den = lcm(*(x.denominator for x in row)) if row else 1
        scaled.append([int(x * den) for x in row])
    n = len(scaled)
    for p in PRIMES:
        if _rank_mod_p(scaled, p) == n:
            return True
    return _rank_exact(matrix) == n
