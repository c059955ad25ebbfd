"""Exact integer scaling and linear algebra modulo a prime.

Elimination runs in FLINT (``python-flint``'s ``nmod_mat``) for the small systems of the
general search or, for the large square solves of the generic no-subset certificate,
in a blocked LU over ``float64`` BLAS products with delayed reduction
(:mod:`pybridge.exact.blas_lu`: moduli below ``2**20``, exact up to ``n = 32 760``).
Residues live in NumPy ``int64`` arrays; a product of two residues below
``2**31`` fits ``int64`` and sums of such products are never formed without
reducing first (see :func:`matvec_mod`). Results mod ``p`` are used only in
sound directions: a system with no solution mod ``p`` has no integer (in
particular no 0/1) solution.

Primes are drawn per run from a large pool (:func:`random_primes`: every prime
in a range, found by a deterministic Miller-Rabin test), so that no fixed
prime can be planted in the weights; :data:`PRIMES` are fixed primes kept for
multi-modular exactness checks, where any pairwise coprime moduli work.
"""

from __future__ import annotations

import os
import random
from fractions import Fraction
from math import lcm
from operator import attrgetter
from typing import Any, Iterator, Optional, Sequence

import flint
import numpy as np

from pybridge.exact.blas_lu import prime_bound, solve_square
from pybridge.exact.openblas import set_blas_threads

#: Primes below 2**31 (checked with sympy.isprime), largest first.
PRIMES: tuple[int, ...] = (
    2147483647, 2147483629, 2147483587, 2147483579, 2147483563, 2147483549,
    2147483543, 2147483497, 2147483489, 2147483477, 2147483423, 2147483399,
)

BLAS_PRIME_BOUND = 2**20  #: the largest prime bound of the float64 LU (:func:`~pybridge.exact.blas_lu.prime_bound`)

_RNG = random.Random(int.from_bytes(os.urandom(8), "little"))


def is_prime(m: int) -> bool:
    """Deterministic Miller-Rabin for ``m < 3.3 * 10**24`` (bases 2 .. 41)."""
    if m < 2:
        return False
    small = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
    for q in small:
        if m % q == 0:
            return m == q
    dd, s = m - 1, 0
    while dd % 2 == 0:
        dd //= 2
        s += 1
    for a in small:
        x = pow(a, dd, m)
        if x in (1, m - 1):
            continue
        for _ in range(s - 1):
            x = x * x % m
            if x == m - 1:
                break
        else:
            return False
    return True


def random_primes(count: int, lo: int = 2**30, hi: int = 2**31, rng: Optional[random.Random] = None,
                  avoid: Sequence[int] = ()) -> list[int]:
    """``count`` distinct primes drawn uniformly from ``[lo, hi)`` (a pool of about
    ``(hi - lo) / ln hi`` primes: 50 million for the default range)."""
    r = rng or _RNG
    out: list[int] = []
    seen = set(avoid)
    while len(out) < count:
        c = r.randrange(lo, hi) | 1
        if c < hi and c not in seen and is_prime(c):
            seen.add(c)
            out.append(c)
    return out


class IntMatrix:
    """A rational matrix as integer numerators over one common positive denominator.

    Built from rows of Python ints (``IntMatrix(rows, den)``: kept as an ``int64`` array
    when every entry fits, as the tuples otherwise) or from a NumPy numerator array
    (:meth:`from_numerators`: ``int64``, or ``object`` holding Python ints when some
    numerator needs more than 63 bits). Both views are available (:attr:`rows`,
    :meth:`numerators`); each is computed once, on first use.
    """

    __slots__ = ("den", "_rows", "_num", "_shape")

    def __init__(self, rows: Sequence[Sequence[int]], den: int) -> None:
        self._rows: Optional[tuple[tuple[int, ...], ...]] = tuple(tuple(r) for r in rows)
        self._num: Optional[np.ndarray] = None
        self.den = den
        self._shape = (len(self._rows), len(self._rows[0]) if self._rows else 0)
        if self._shape[0] and self._shape[1] and all(len(r) == self._shape[1] for r in self._rows):
            try:  # entries that fit: an int64 backing; the tuples are rebuilt on demand
                num = np.array(self._rows, dtype=np.int64)
            except (OverflowError, TypeError, ValueError):
                return
            num.flags.writeable = False
            self._num, self._rows = num, None

    @classmethod
    def from_numerators(cls, num: np.ndarray, den: int) -> IntMatrix:
        """The matrix ``num / den`` from a 2-D ``int64`` (or ``object``, Python ints) array."""
        if num.ndim != 2 or num.dtype.kind not in "iO":
            raise ValueError("numerators must be a 2-D int64 or object array")
        m = cls.__new__(cls)
        m._rows = None
        m._num = (num if num.dtype == np.int64 or num.dtype.kind == "O" else num.astype(np.int64)).view()
        m._num.flags.writeable = False
        m.den = den
        m._shape = (int(num.shape[0]), int(num.shape[1]))
        return m

    @property
    def rows(self) -> Sequence[tuple[int, ...]]:
        """The numerators as rows of Python ints (a read-only sequence of tuples, built on
        first access; ``numpy.array`` of it reads the numerator array without building it)."""
        if self._rows is not None:
            return self._rows
        return _Rows(self)

    def _materialized(self) -> tuple[tuple[int, ...], ...]:
        if self._rows is None:
            assert self._num is not None
            self._rows = tuple(map(tuple, self._num.tolist()))
        return self._rows

    def numerators(self) -> np.ndarray:
        """The numerators as a read-only 2-D array: ``int64`` when every one fits, else ``object``."""
        if self._num is None:
            self._num = _int_array(self.rows, self._shape)
            self._num.flags.writeable = False
        return self._num

    @property
    def shape(self) -> tuple[int, int]:
        return self._shape

    def max_abs(self) -> int:
        """The largest absolute numerator (0 for an empty matrix)."""
        num = self.numerators()
        if num.size == 0:
            return 0
        if num.dtype.kind == "O":
            return int(np.max(np.abs(num)))
        return max(-int(num.min()), int(num.max()))  # Python ints: no overflow at -2**63

    def mod(self, p: int) -> np.ndarray:
        """Residues in ``[0, p)`` of the numerators (``int64``)."""
        num = self.numerators()
        if num.dtype.kind == "O":
            return np.remainder(num, p).astype(np.int64)
        return np.remainder(num, p)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, IntMatrix):
            return NotImplemented
        if self.den != other.den or self._shape != other._shape:
            return False
        if self._rows is not None and other._rows is not None:
            return self._rows == other._rows
        return bool(np.array_equal(self.numerators(), other.numerators()))

    def __hash__(self) -> int:
        return hash((self._shape, self.den))

    def __repr__(self) -> str:
        return f"IntMatrix(shape={self._shape}, den={self.den})"

    def __reduce__(self) -> tuple:  # pickled as the numerator array (compact, fast)
        return (_restore_int_matrix, (self.numerators(), self.den))


class _Rows(Sequence[tuple[int, ...]]):
    """:attr:`IntMatrix.rows` of an array-backed matrix: behaves as the tuple of rows
    (equality, hash and repr included), which is built on the first row access;
    ``numpy.array(rows)`` uses the numerator array directly."""

    __slots__ = ("_m",)

    def __init__(self, m: IntMatrix) -> None:
        self._m = m

    def __len__(self) -> int:
        return self._m.shape[0]

    def __getitem__(self, i):  # type: ignore[override]
        return self._m._materialized()[i]

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return iter(self._m._materialized())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _Rows):
            return self._m.shape == other._m.shape and bool(
                np.array_equal(self._m.numerators(), other._m.numerators()))
        if isinstance(other, tuple):
            return self._m._materialized() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._m._materialized())

    def __repr__(self) -> str:
        return repr(self._m._materialized())

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        num = self._m.numerators()
        return num.astype(num.dtype if dtype is None else dtype)  # a copy: the matrix stays unchanged


def _restore_int_matrix(num: np.ndarray, den: int) -> IntMatrix:
    return IntMatrix.from_numerators(num, den)


def _int_array(rows: Sequence[Sequence[int]], shape: tuple[int, int]) -> np.ndarray:
    """A 2-D ``int64`` array of ``rows``, or ``object`` when some entry needs more than 63 bits."""
    try:
        return np.array(rows, dtype=np.int64).reshape(shape)
    except OverflowError:
        out = np.empty(shape, dtype=object)
        for i, r in enumerate(rows):
            out[i, :] = list(r)  # Python ints, exact
        return out


def _ratio(v: object) -> tuple[int, int]:
    try:
        return v.as_integer_ratio()  # type: ignore[attr-defined]  # Fraction, int, float: exact
    except AttributeError:
        return Fraction(v).as_integer_ratio()  # type: ignore[arg-type, call-overload]


def _row_ratios(r: Sequence[object]) -> list[tuple[int, int]]:
    try:
        return list(map(Fraction.as_integer_ratio, r))  # type: ignore[arg-type]  # a row of Fractions: no per-entry dispatch
    except (TypeError, AttributeError):
        return [_ratio(v) for v in r]


def scale_matrix(m: Sequence[Sequence[Fraction]]) -> IntMatrix:
    """Write ``m`` as ``rows / den`` with integer rows and the least common denominator.

    A matrix read from an array (``pybridge.exact.arrays.ArrayMatrix``: it has ``int_matrix``)
    gives its exact integer form directly, without a Fraction per entry; a matrix of
    Fractions is converted with NumPy when numerators and denominators fit 63 bits."""
    direct = getattr(m, "int_matrix", None)
    if callable(direct):
        out = direct()
        if isinstance(out, IntMatrix):
            return out
    fast = _scale_fractions_fast(m)
    if fast is not None:
        return fast
    ratios = [_row_ratios(r) for r in m]
    dens = {q for r in ratios for _, q in r}
    den = lcm(1, *dens)
    if len(dens) <= 1:
        rows = tuple(tuple(a for a, _ in r) for r in ratios)
    else:
        factor = {q: den // q for q in dens}
        rows = tuple(tuple(a * factor[q] for a, q in r) for r in ratios)
    return IntMatrix(rows, den)


_NUMERATOR = attrgetter("numerator")
_DENOMINATOR = attrgetter("denominator")
_NUMERATOR_SLOT = attrgetter("_numerator")
_DENOMINATOR_SLOT = attrgetter("_denominator")
_INT64_MAX = 2**63 - 1


def _scale_fractions_fast(m: Sequence[Sequence[Fraction]]) -> Optional[IntMatrix]:
    """:func:`scale_matrix` of a rectangular matrix of exact Fractions / ints through
    ``int64`` arrays; None when the matrix is not one (ragged, other entry types) or
    when some numerator, denominator or scaled numerator needs more than 63 bits."""
    rows = len(m)
    if rows == 0:
        return None
    cols = len(m[0])
    flat = [v for r in m if len(r) == cols for v in r]
    if len(flat) != rows * cols or cols == 0:
        return None
    types = set(map(type, flat))
    if not types <= {Fraction, int}:
        return None
    # Fraction's numerator/denominator properties read the slots _numerator/_denominator;
    # reading the slots directly (when present) avoids a Python call per entry.
    getters = (_NUMERATOR, _DENOMINATOR)
    if types == {Fraction} and hasattr(flat[0], "_numerator") and hasattr(flat[0], "_denominator"):
        getters = (_NUMERATOR_SLOT, _DENOMINATOR_SLOT)
    try:
        num = np.fromiter(map(getters[0], flat), dtype=np.int64, count=len(flat))
        dq = np.fromiter(map(getters[1], flat), dtype=np.int64, count=len(flat))
    except OverflowError:
        return None
    if int(num.min()) < -_INT64_MAX:  # -2**63: its absolute value does not fit
        return None
    dens = [int(q) for q in np.unique(dq)]
    den = lcm(1, *dens)
    if den > _INT64_MAX:
        return None
    if len(dens) > 1:
        factor = den // dq  # exact: every denominator divides den
        big = int(np.max(np.abs(num))) * int(np.max(factor))
        if big > _INT64_MAX:
            return None
        num = num * factor
    return IntMatrix.from_numerators(num.reshape(rows, cols), den)


def identity_int(d: int) -> IntMatrix:
    """The d x d identity over the denominator 1."""
    return IntMatrix.from_numerators(np.eye(d, dtype=np.int64), 1)


def reduce_mod(rows: Sequence[Sequence[int]], p: int) -> np.ndarray:
    """Residues in ``[0, p)`` of an integer matrix (exact for any Python int)."""
    m = len(rows)
    try:
        a = np.array(rows, dtype=np.int64).reshape(m, -1)
        return np.remainder(a, p)
    except OverflowError:
        return np.array([[v % p for v in r] for r in rows], dtype=np.int64).reshape(m, -1)


def matvec_mod(m: np.ndarray, v: np.ndarray, p: int) -> np.ndarray:
    """``m @ v mod p`` for residues < p < 2**31, splitting ``v`` into 16-bit limbs
    so that no ``int64`` sum overflows (rows up to 2**15 long)."""
    lo = v & 0xFFFF
    hi = v >> 16
    r_lo = (m @ lo) % p
    r_hi = (m @ hi) % p
    return (r_hi * 65536 % p + r_lo) % p


def matmul_mod(m: np.ndarray, v: np.ndarray, p: int) -> np.ndarray:
    """``m @ v mod p`` for residues ``0 <= m, v < p``: one exact ``float64`` BLAS product when
    every sum stays below ``2**53`` (``k (p - 1)**2 < 2**53``, ``k`` the inner size), else
    :func:`matvec_mod`'s 16-bit limbs in ``int64`` (inner size up to ``2**15``)."""
    k = m.shape[1]
    if k * (p - 1) ** 2 < 2**53:
        return np.remainder(m.astype(np.float64) @ v.astype(np.float64), float(p)).astype(np.int64)
    if k > 2**15:
        raise ValueError("matmul_mod: inner size above 2**15")
    return matvec_mod(m, v, p)


def to_flint(m: np.ndarray, p: int) -> flint.nmod_mat:
    """An ``nmod_mat`` from a residue array (python-flint takes Python sequences;
    ``ndarray.tolist`` converts in C)."""
    rows, cols = m.shape
    return flint.nmod_mat(rows, cols, np.remainder(m, p).ravel().tolist(), p)


def from_flint(m: flint.nmod_mat) -> np.ndarray:
    """A residue array from an ``nmod_mat``."""
    rows, cols = m.nrows(), m.ncols()
    return np.array([int(x) for x in m.entries()], dtype=np.int64).reshape(rows, cols)


def rank_mod(m: np.ndarray, p: int) -> int:
    """Rank of ``m`` modulo ``p``: a lower bound for the rank over Q of the integer matrix."""
    if m.size == 0:
        return 0
    return int(to_flint(m, p).rank())


def rref_mod(m: np.ndarray, p: int, ncols: Optional[int] = None) -> tuple[np.ndarray, list[int]]:
    """Reduced row echelon form mod ``p``; pivots searched in the first ``ncols`` columns
    (a pivot in a later column stops the search there)."""
    rows, cols = m.shape
    if m.size == 0:
        return m.copy() % p, []
    red = from_flint(to_flint(m, p).rref()[0])
    piv: list[int] = []
    limit = cols if ncols is None else ncols
    for i in range(rows):
        nz = np.flatnonzero(red[i])
        if nz.size == 0:
            break
        if int(nz[0]) >= limit:
            break
        piv.append(int(nz[0]))
    return red, piv


def solve_mod(m: np.ndarray, rhs: np.ndarray, p: int) -> Optional[np.ndarray]:
    """One solution ``x`` of ``m x = rhs (mod p)`` (free variables 0), or None."""
    rows, cols = m.shape
    g = np.concatenate([np.remainder(m, p), np.remainder(rhs, p).reshape(rows, 1)], axis=1)
    red, piv = rref_mod(g, p, ncols=cols)
    r = len(piv)
    if r < rows and np.any(red[r:, cols]):
        return None
    x = np.zeros(cols, dtype=np.int64)
    for i, c in enumerate(piv):
        x[c] = red[i, cols]
    return x


def solve_left_mod(m: np.ndarray, target: np.ndarray, p: int) -> Optional[np.ndarray]:
    """A vector ``y`` with ``y^T m = target (mod p)``, or None."""
    return solve_mod(m.T.copy(), target, p)


def use_one_blas_thread() -> None:
    """Make this process's BLAS single-threaded for good (a ``scan --jobs`` worker): with one
    worker per core, OpenBLAS's own threads only spin against the other workers (MiniLM's
    6-layer scan on two cores: 33 s with them, 18 s without)."""
    set_blas_threads(1)


def solve_square_blas(m: np.ndarray, rhs: np.ndarray, p: int) -> Optional[np.ndarray]:
    """The solution of ``m x = rhs (mod p)`` for square ``m`` invertible mod ``p``, else None:
    :func:`pybridge.exact.blas_lu.solve_square` (a blocked LU over ``float64`` BLAS with
    delayed reduction; ``p`` below :func:`~pybridge.exact.blas_lu.prime_bound` of the size,
    ``2**20`` up to ``n = 32 760``)."""
    n = m.shape[0]
    if m.shape != (n, n) or p >= prime_bound(n):
        raise ValueError("solve_square_blas needs a square matrix and p below prime_bound(n)")
    return solve_square(m, rhs, p)
