"""A read-only exact view of a 2-D numpy array: rows on demand, integers for the decision.

Real checkpoints hold matrices of tens of millions of entries. Verdicts that do
not depend on the weights (R2/R3) need only shapes; this view gives ``len`` and
exact rows (``Fraction`` of the binary value) without converting everything.
The decision reads the whole matrix as integer numerators over a power of two
(:meth:`ArrayMatrix.int_matrix`, computed with NumPy by :mod:`.dyadic`), never
as one Fraction per entry.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterator, Optional, Sequence

import numpy as np

from pybridge.errors import InputError
from pybridge.exact.dyadic import dyadic_numerators
from pybridge.exact.modular import IntMatrix
from pybridge.exact.numbers import exact_scalar


class ArrayMatrix(Sequence):
    """Rows of ``arr`` (or of its transpose) as tuples of exact Fractions, lazily.

    ``exact=True`` converts the whole matrix to integers at once (:meth:`int_matrix`),
    so that a bad entry is refused when the matrix is read."""

    def __init__(self, arr: np.ndarray, *, transposed: bool = False, where: str = "matrix",
                 exact: bool = False) -> None:
        if arr.ndim != 2 or 0 in arr.shape:
            raise InputError(f"{where}: expected a non-empty 2-D tensor, got shape {tuple(arr.shape)}")
        if arr.dtype.kind not in "fiu":
            raise InputError(f"{where}: unsupported tensor type {arr.dtype}")
        if arr.dtype.kind == "f" and not np.isfinite(arr).all():
            raise InputError(f"{where}: contains NaN or infinity")
        arr = np.asarray(arr)  # a plain view (a memmap's Python-level indexing is slow)
        self._arr = arr.T if transposed else arr
        self._where = where
        self._int: Optional[IntMatrix] = None
        if exact:
            self.int_matrix()

    @property
    def shape(self) -> tuple[int, int]:
        return tuple(self._arr.shape)  # type: ignore[return-value]

    def __len__(self) -> int:
        return self._arr.shape[0]

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(len(self))))
        return ArrayRow(self._arr[i])

    def __iter__(self) -> Iterator[ArrayRow]:
        for i in range(len(self)):
            yield self[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ArrayMatrix):
            return self.int_matrix() == other.int_matrix()
        if not isinstance(other, Sequence) or len(other) != len(self):
            return NotImplemented if not isinstance(other, Sequence) else False
        return all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def float_array(self) -> np.ndarray:
        """float64 copy (for screening only)."""
        return np.asarray(self._arr, dtype=np.float64)

    def int_matrix(self) -> IntMatrix:
        """The matrix as integer numerators over ``2**E`` (exact; computed once)."""
        if self._int is None:
            num, e = dyadic_numerators(self._arr, self._where)
            self._int = IntMatrix.from_numerators(num, 2**e)
        return self._int

    def materialize(self) -> tuple[tuple[Fraction, ...], ...]:
        """All rows, exact."""
        return tuple(row.exact() for row in self)


class ArrayRow(Sequence):
    """One row: ``len`` without conversion, entries as exact Fractions on access."""

    def __init__(self, row: np.ndarray) -> None:
        self._row = row
        self._plain = row.dtype.kind in "iu" or (row.dtype.kind == "f" and row.dtype.itemsize <= 8)

    def __len__(self) -> int:
        return self._row.shape[0]

    def __getitem__(self, k):  # type: ignore[override]
        if isinstance(k, slice):
            return self.exact()[k]
        if self._plain:
            return Fraction(self._row.item(k))  # a Python float or int: exact
        return exact_scalar(self._row[k])

    def __iter__(self) -> Iterator[Fraction]:
        return iter(self.exact())

    def exact(self) -> tuple[Fraction, ...]:
        """The whole row as exact Fractions (binary value of each float)."""
        row = self._row
        if row.dtype.kind == "f" and row.dtype.itemsize > 8:  # long double: not via float64
            return tuple(map(exact_scalar, row))
        values = row.astype(np.float64).tolist() if row.dtype.kind == "f" else row.tolist()
        return tuple(map(Fraction, values))

    def __eq__(self, other: object) -> bool:
        return tuple(self) == tuple(other) if isinstance(other, Sequence) else NotImplemented

    __hash__ = None  # type: ignore[assignment]


def materialize(m: Sequence[Sequence[Fraction]]) -> tuple[tuple[Fraction, ...], ...]:
    """A plain tuple-of-tuples matrix from a lazy or plain one."""
    return m.materialize() if isinstance(m, ArrayMatrix) else tuple(tuple(r) for r in m)
