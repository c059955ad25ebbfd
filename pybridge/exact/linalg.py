"""Exact rational linear algebra (Fractions and Python ints): the one copy in pybridge.

Matrices are sequences of rows. Integer inputs give integer results where the
operation allows it (:func:`matmul`); :func:`invert` and :func:`solve` work over Q.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence, TypeVar, Union

from pybridge.errors import InputError

Number = Union[int, Fraction]
N = TypeVar("N", int, Fraction)


def matmul(x: Sequence[Sequence[N]], y: Sequence[Sequence[N]]) -> tuple[tuple[N, ...], ...]:
    """``x @ y`` exactly (ints stay ints, Fractions stay Fractions)."""
    cols = list(zip(*y))
    out = []
    for r in x:
        row = []
        for c in cols:
            acc = 0 * r[0]
            for a, b in zip(r, c):
                acc = acc + a * b
            row.append(acc)
        out.append(tuple(row))
    return tuple(out)


def matvec(x: Sequence[Sequence[Number]], v: Sequence[Number]) -> tuple[Fraction, ...]:
    """``x @ v`` exactly, as Fractions."""
    return tuple(sum((Fraction(a) * b for a, b in zip(r, v)), Fraction(0)) for r in x)


def invert(m: Sequence[Sequence[Number]]) -> tuple[tuple[Fraction, ...], ...]:
    """Exact inverse (Gauss-Jordan over Q); :class:`InputError` when singular or not square."""
    d = len(m)
    if any(len(r) != d for r in m):
        raise InputError(f"skip matrix must be square d x d (d = {d})")
    a = [[Fraction(v) for v in r] + [Fraction(int(i == j)) for j in range(d)] for i, r in enumerate(m)]
    for c in range(d):
        piv = next((r for r in range(c, d) if a[r][c] != 0), None)
        if piv is None:
            raise InputError("skip matrix is singular (not invertible): R1 needs an invertible skip")
        a[c], a[piv] = a[piv], a[c]
        inv = 1 / a[c][c]
        a[c] = [v * inv for v in a[c]]
        for r in range(d):
            if r != c and a[r][c] != 0:
                f = a[r][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return tuple(tuple(r[d:]) for r in a)


def solve(p: Sequence[Sequence[Number]], b: Sequence[Sequence[Number]]) -> tuple[tuple[Fraction, ...], ...]:
    """``P^-1 B`` exactly (P square and invertible, else :class:`InputError`)."""
    return matmul(invert(p), [[Fraction(v) for v in r] for r in b])


def rank(m: Sequence[Sequence[Number]]) -> int:
    """The rank over Q (exact elimination)."""
    rows = [[Fraction(v) for v in r] for r in m]
    r = 0
    ncols = len(rows[0]) if rows else 0
    for col in range(ncols):
        piv = next((i for i in range(r, len(rows)) if rows[i][col] != 0), None)
        if piv is None:
            continue
        rows[r], rows[piv] = rows[piv], rows[r]
        for i in range(r + 1, len(rows)):
            if rows[i][col]:
                f = rows[i][col] / rows[r][col]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[r])]
        r += 1
    return r
