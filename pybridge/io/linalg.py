"""Exact invertibility of a rational square matrix (used to validate skips).

A nonzero determinant modulo a prime proves invertibility over Q for the
integer-scaled matrix; only when several primes say "singular" is the exact
Fraction elimination run, which then decides.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from ..modular import PRIMES, rank_mod, reduce_mod, scale_matrix


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
    scaled = scale_matrix(matrix).rows
    n = len(scaled)
    for p in PRIMES[:3]:
        if rank_mod(reduce_mod(scaled, p), p) == n:
            return True
    return _rank_exact(matrix) == n
