"""Exact agreement of an instance's weights with the entries a partial certificate carries.

A partial certificate proves its verdict for every pair of matrices that agree with its
extract; :func:`agreement` checks, before the prover runs, that the user's weights are
such a pair."""

from __future__ import annotations

from fractions import Fraction
from typing import Optional, Sequence

import numpy as np

from pybridge.certify.kinds import Extract
from pybridge.exact.arrays import ArrayMatrix
from pybridge.exact.modular import IntMatrix
from pybridge.model import Instance


def _int_view(m: Sequence[Sequence[Fraction]]) -> Optional[IntMatrix]:
    """The matrix as exact integer numerators when its reader already holds them
    (:meth:`pybridge.exact.arrays.ArrayMatrix.int_matrix`); None for plain matrices."""
    return m.int_matrix() if isinstance(m, ArrayMatrix) else None


def _block_mismatch(full: IntMatrix, rows: Sequence[int], cols: Sequence[int],
                    part: IntMatrix) -> Optional[tuple[int, int]]:
    """The first position ``(r, c)`` of ``part`` that differs from ``full[rows[r]][cols[c]]``
    as a rational (numerators over each matrix's denominator), or None."""
    sub = full.numerators()[np.ix_(np.asarray(rows, dtype=np.intp), np.asarray(cols, dtype=np.intp))]
    mine = part.numerators()
    if full.den == part.den:
        same = sub == mine
    else:  # cross-multiplied in Python ints (object arrays): no int64 overflow
        same = sub.astype(object) * part.den == mine.astype(object) * full.den
    same = np.asarray(same, dtype=bool)
    if same.all():
        return None
    r, c = np.argwhere(~same)[0]
    return int(r), int(c)


def _mismatch(m: Sequence[Sequence[Fraction]], rows: Sequence[int], cols: Sequence[int],
              part: IntMatrix) -> Optional[tuple[int, int]]:
    """:func:`_block_mismatch` for an instance matrix: on its integer numerators when its
    reader holds them (whole NumPy blocks), else entry by entry as Fractions."""
    full = _int_view(m)
    if full is not None:
        return _block_mismatch(full, rows, cols, part)
    for r, (i, prow) in enumerate(zip(rows, part.rows)):
        src = m[i]
        for c, (j, num) in enumerate(zip(cols, prow)):
            v = Fraction(src[j])
            if v.numerator * part.den != num * v.denominator:
                return r, c
    return None


def agreement(instance: Instance, extract: Extract) -> Optional[str]:
    """Exactly: do the instance's weights agree with the extracted entries?
    None when they do, else the first disagreeing entry."""
    R = extract.block
    A, B = extract.A, extract.B
    if len(instance.W_up) != A.shape[0] or any(not 0 <= k < instance.d for k in R):
        return "the block does not fit the weights' shape"
    if A.shape != (instance.n, len(R)) or B.shape != (len(R), instance.n) or len(set(R)) != len(R):
        return "the extract's shape does not fit the block it names"
    bad = _mismatch(instance.W_up, range(A.shape[0]), R, A)
    if bad is not None:
        return f"W_up[{bad[0]}][{R[bad[1]]}]"
    for k in R[:B.shape[0]]:
        if len(instance.W_down[k]) != B.shape[1]:
            return f"row {k} of W_down"
    bad = _mismatch(instance.W_down, R, range(B.shape[1]), B)
    return None if bad is None else f"W_down[{R[bad[0]]}][{bad[1]}]"
