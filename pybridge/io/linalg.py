"""Exact invertibility of a rational square matrix (used to validate skips).

A nonzero determinant modulo a prime proves invertibility over Q for the
integer-scaled matrix; only when several primes say "singular" is the exact
Fraction elimination run, which then decides.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from pybridge.exact.linalg import rank
from pybridge.exact.modular import PRIMES, rank_mod, reduce_mod, scale_matrix


def is_invertible(matrix: Sequence[Sequence[Fraction]]) -> bool:
    """True iff the square rational ``matrix`` is invertible (exact)."""
    scaled = scale_matrix(matrix).rows
    n = len(scaled)
    for p in PRIMES[:3]:
        if rank_mod(reduce_mod(scaled, p), p) == n:
            return True
    return rank(matrix) == n
