"""A read-only exact view of a 2-D numpy array, converting rows on demand.

Real checkpoints hold matrices of tens of millions of entries. Verdicts that do
not depend on the weights (R2/R3) need only shapes; this view gives ``len`` and
exact rows (``Fraction`` of the binary value) without converting everything.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterator, Sequence

import numpy as np

from ..errors import InputError


class ArrayMatrix(Sequence):
    """Rows of ``arr`` (or of its transpose) as tuples of exact Fractions, lazily."""

    def __init__(self, arr: np.ndarray, *, transposed: bool = False, where: str = "matrix") -> None:
        if arr.ndim != 2 or 0 in arr.shape:
            raise InputError(f"{where}: expected a non-empty 2-D tensor, got shape {tuple(arr.shape)}")
        if arr.dtype.kind not in "fiu":
            raise InputError(f"{where}: unsupported tensor type {arr.dtype}")
        if arr.dtype.kind == "f" and not np.isfinite(arr).all():
            raise InputError(f"{where}: contains NaN or infinity")
        self._arr = arr.T if transposed else arr

    @property
    def shape(self) -> tuple[int, int]:
        return tuple(self._arr.shape)  # type: ignore[return-value]

    def __len__(self) -> int:
        return self._arr.shape[0]

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(len(self))))
        row = self._arr[i]
        values = row.astype(np.float64).tolist() if row.dtype.kind == "f" else row.tolist()
        return tuple(Fraction(v) for v in values)

    def __iter__(self) -> Iterator[tuple[Fraction, ...]]:
        for i in range(len(self)):
            yield self[i]

    def float_array(self) -> np.ndarray:
        """float64 copy (for screening only)."""
        return np.asarray(self._arr, dtype=np.float64)

    def materialize(self) -> tuple[tuple[Fraction, ...], ...]:
        """All rows, exact."""
        return tuple(self)


def materialize(m: Sequence[Sequence[Fraction]]) -> tuple[tuple[Fraction, ...], ...]:
    """A plain tuple-of-tuples matrix from a lazy or plain one."""
    return m.materialize() if isinstance(m, ArrayMatrix) else tuple(tuple(r) for r in m)
