"""Coded numerators for certificates: ``+- mag * 2**e`` in one 63-bit field.

A certificate normally writes a matrix as signed 63-bit numerators over one
denominator. Float weights over one common denominator can need far more bits
(``1e-30`` next to ``1`` in a float32 matrix: about 150), yet each numerator is
a float mantissa times a power of two. Such a numerator ``v`` is written as the
code ``((mag * E + e) * 2 + s)`` with ``|v| = mag * 2**e``, ``s = 1`` for
``v < 0`` and a base ``E = 2**we`` shared by the certificate
(``CodedData.dval`` in Coq; the checkers run on the residues of the codes,
computed by Coq). Codes are also denser than plain numerators for float32
weights (about 30 bits instead of 46), so they are chosen whenever they pack
more numerators per literal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

FIELD_LIMIT = 2**62  #: codes and plain numerators must stay below this in absolute value


@dataclass(frozen=True)
class Coding:
    """Matrices written as codes over the base ``base`` (``E`` in Coq)."""

    base: int
    matrices: tuple[tuple[tuple[int, ...], ...], ...]


def split(v: int) -> tuple[int, int]:
    """``(mag, e)`` with ``|v| = mag * 2**e``, ``mag`` odd (``(0, 0)`` for 0)."""
    if v == 0:
        return 0, 0
    a = abs(v)
    e = (a & -a).bit_length() - 1
    return a >> e, e


def code(v: int, base: int) -> int:
    """The code of ``v`` over ``base`` (which must exceed the exponent of ``v``)."""
    mag, e = split(v)
    if e >= base:
        raise ValueError("exponent beyond the base")
    return (mag * base + e) * 2 + (1 if v < 0 else 0)


def decode(c: int, base: int) -> int:
    """The integer a code stands for (``CodedData.dval``)."""
    sign = -1 if c % 2 else 1
    return sign * (c // 2 // base) * 2 ** ((c // 2) % base)


def _width(values: Sequence[Sequence[int]], unsigned: bool = False) -> int:
    """Bits of a field holding every value: two's complement, or ``unsigned`` (``_Writer.rows``)."""
    top = max((abs(v) for r in values for v in r), default=0).bit_length()
    return max(1, top) if unsigned else top + 1


def _literals(matrices: Sequence[Sequence[Sequence[int]]], width: int) -> int:
    k = max(1, 63 // width)
    return sum(-(-len(r) // k) for m in matrices for r in m)


def coding(matrices: Sequence[Sequence[Sequence[int]]]) -> Optional[Coding]:
    """The coded form of ``matrices`` (one shared base) if plain numerators do not fit
    63 bits or codes need fewer literals; None when plain numerators are the better
    (or the only possible) choice."""
    plain_ok = all(abs(v) < FIELD_LIMIT for m in matrices for r in m for v in r)
    exps = [split(v)[1] for m in matrices for r in m for v in r]
    base = 1 << max(1, max(exps, default=0).bit_length())
    coded = tuple(tuple(tuple(code(v, base) for v in r) for r in m) for m in matrices)
    if any(c >= FIELD_LIMIT for m in coded for r in m for c in r):
        return None
    plain_width = _width([r for m in matrices for r in m])
    if plain_ok and _literals(coded, _width([r for m in coded for r in m], unsigned=True)) >= _literals(matrices, plain_width):
        return None
    return Coding(base, coded)
