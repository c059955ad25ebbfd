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

import numpy as np

FIELD_LIMIT = 2**62  #: codes and plain numerators must stay below this in absolute value


@dataclass(frozen=True)
class Coding:
    """Matrices written as codes over the base ``base`` (``E`` in Coq): ``data`` holds each as
    an ``int64`` array (when built by NumPy) or as rows of Python ints; :attr:`matrices`
    gives rows of Python ints either way, :meth:`writable` what the writer reads fastest."""

    base: int
    data: tuple[tuple[tuple[int, ...], ...] | np.ndarray, ...]

    @property
    def matrices(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Every matrix as rows of Python ints."""
        return tuple(tuple(map(tuple, m.tolist())) if isinstance(m, np.ndarray) else m for m in self.data)

    def writable(self, i: int) -> tuple[tuple[int, ...], ...] | np.ndarray:
        """Matrix ``i`` as stored (an ``int64`` array when there is one: no Python int per entry)."""
        return self.data[i]


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
    """The integer a code stands for (``CodedData.dval``: sign ``c mod 2``, exponent
    ``(c / 2) mod E``, magnitude ``c / 2 / E``)."""
    h = c // 2
    v = (h // base) << (h % base)
    return -v if c % 2 else v


def _width(values: Sequence[Sequence[int]] | np.ndarray, unsigned: bool = False) -> int:
    """Bits of a field holding every value: two's complement, or ``unsigned`` (``CoqWriter.rows``)."""
    top = max_abs_bits(values)
    return max(1, top) if unsigned else top + 1


def max_abs_bits(values: Sequence[Sequence[int]] | np.ndarray) -> int:
    """``max |v|`` over the rows' entries, as a number of bits (0 for none or all zero);
    by NumPy for ``int64`` arrays with no entry ``-2**63``."""
    if isinstance(values, np.ndarray) and values.dtype == np.int64:
        if values.size == 0:
            return 0
        lo, hi = int(values.min()), int(values.max())
        return max(-lo, hi).bit_length()
    return max((abs(v) for r in values for v in r), default=0).bit_length()


def _literals(matrices: Sequence[Sequence[Sequence[int]] | np.ndarray], width: int) -> int:
    k = max(1, 63 // width)
    return sum(m.shape[0] * -(-m.shape[1] // k) if isinstance(m, np.ndarray) else sum(-(-len(r) // k) for r in m)
               for m in matrices)


def _split_rows(m: Sequence[Sequence[int]]) -> list[list[tuple[int, int, int]]]:
    """``(sign bit, mag, e)`` of every entry."""
    out = []
    for r in m:
        row = []
        for v in r:
            a = -v if v < 0 else v
            e = (a & -a).bit_length() - 1 if a else 0
            row.append((1 if v < 0 else 0, a >> e, e))
        out.append(row)
    return out


def _coding_int64(matrices: Sequence[Sequence[Sequence[int]] | np.ndarray]
                  ) -> Optional[tuple[int, list[np.ndarray], list[np.ndarray]]]:
    """``(base, code arrays, numerator arrays)`` by NumPy when every numerator is below
    ``2**62`` (float32 weights); None otherwise. Exact: int64 throughout, powers of two
    below ``2**62`` exact in float64."""
    arrs = []
    for m in matrices:
        if not isinstance(m, np.ndarray) and not hasattr(m, "__array__") and (
                not len(m) or len({len(r) for r in m}) != 1):
            return None
        try:
            a = np.asarray(m)
            a = a if a.dtype == np.int64 else np.array(m, dtype=np.int64)
        except (OverflowError, ValueError, TypeError):
            return None
        if a.ndim != 2 or a.size == 0 or int(a.min()) == -2**63:
            return None
        arrs.append(a)
    if any(a.size and np.abs(a).max() >= FIELD_LIMIT for a in arrs):
        return None
    exps = []
    for a in arrs:
        mag = np.abs(a)
        low = mag & -mag  # lowest set bit (0 for 0)
        exps.append(np.where(low > 0, np.log2(np.maximum(low, 1)).astype(np.int64), 0))
    top = max((int(x.max()) for x in exps if x.size), default=0)
    we = max(1, top.bit_length())
    codes = []
    for a, e in zip(arrs, exps):
        mag = np.abs(a) >> e
        if mag.size and int(mag.max()) >= FIELD_LIMIT >> (we + 1):
            return 1 << we, [], arrs  # some code would not fit: no coding
        c = (((mag << we) | e) << 1) | (a < 0).astype(np.int64)
        h = c >> 1
        if not np.array_equal(np.where(c & 1, -((h >> we) << (h & ((1 << we) - 1))), (h >> we) << (h & ((1 << we) - 1))), a):
            raise AssertionError("codes do not decode to the numerators")
        codes.append(c)
    return 1 << we, codes, arrs


def coding(matrices: Sequence[Sequence[Sequence[int]] | np.ndarray]) -> Optional[Coding]:
    """The coded form of ``matrices`` (one shared base) if plain numerators do not fit
    63 bits or codes need fewer literals; None when plain numerators are the better
    (or the only possible) choice."""
    fast = _coding_int64(matrices)
    if fast is not None:
        base, arrays, plain = fast
        if not arrays:
            return None
        # widths and literal counts from the arrays (the same numbers as from the rows)
        code_width = _width(np.concatenate([a.ravel() for a in arrays]), unsigned=True)
        if _literals(arrays, code_width) >= _literals(plain, _width(np.concatenate([a.ravel() for a in plain]))):
            return None
        return Coding(base, tuple(arrays))
    # numerators beyond int64: Python ints
    parts = [_split_rows(m.tolist() if isinstance(m, np.ndarray) else m) for m in matrices]
    top = max((e for m in parts for r in m for _, _, e in r), default=0)
    we = max(1, top.bit_length())
    base = 1 << we
    coded = tuple(tuple(tuple((((mag << we) | e) << 1) | s for s, mag, e in r) for r in m) for m in parts)
    if max((c for m in coded for r in m for c in r), default=0) >= FIELD_LIMIT:
        return None
    # the statement Coq proves is about the decoded values (CodedData.dval): check them
    for m, cm in zip(matrices, coded):
        for r, cr in zip(m, cm):
            if list(r) != [decode(c, base) for c in cr]:
                raise AssertionError("codes do not decode to the numerators")
    plain_ok = all(-FIELD_LIMIT <= v < FIELD_LIMIT for m in matrices for r in m for v in r)
    plain_width = _width([r for m in matrices for r in m])
    if plain_ok and _literals(coded, _width([r for m in coded for r in m], unsigned=True)) >= _literals(
            matrices, plain_width):
        return None
    return Coding(base, coded)
