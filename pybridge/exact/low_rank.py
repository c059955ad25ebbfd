"""A low-rank ``W_up``: the width lower bound ``2 (d - rank W_up)`` (``CertifyLowRank.v``).

On the null space of ``W_up`` the block ``x + B sigma(A x)`` is the identity, and a
residual-free block spends two neurons per dimension there (``NullspaceWidth.v``): a layer
whose ``W_up`` has rank ``rho`` is not absorbable at any width ``m < 2 (d - rho)``, whatever
``W_down``. :func:`find_low_rank` finds ``rho`` rows of ``W_up`` spanning all of them
(screened modulo a prime, then verified exactly over the integers) and the certificate's
null vectors: pivot columns ``P`` with ``V[:, P]`` invertible, ``D = det V[:, P]`` and, per
free column ``f``, ``W_f = adj(V[:, P]) V[:, f]`` (so ``D V[:, f] = V[:, P] W_f``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator, Optional, Sequence

import flint
import numpy as np

from pybridge.exact.modular import IntMatrix, rref_mod

#: The largest rank tried (the exact checks cost about ``n d rho`` integer products).
MAX_RANK = 16
#: The largest certificate data accepted, in decimal digits of ``V`` and ``W`` (an entry of ``W``
#: has about ``rho`` times the digits of a weight). Coq elaborates big ``Z`` literals and
#: multiplies them slowly: about 200 000 digits took 6-8 s to check (2 December 2026: rank 2 at
#: d = 3000, rank 4 at d = 1000, rank 8 at d = 300); past the budget the other routes decide.
MAX_DIGITS = 150_000
#: The screening prime: residues below ``2**20``, so ``MAX_RANK + 1`` random combinations of the
#: rows (or of the columns) stay exact in ``int64`` for ``n < 2**23`` (``d < 2**23``).
SCREEN_PRIME = 1_048_573


@dataclass(frozen=True)
class LowRank:
    """Rows ``rows`` of ``W_up`` (numerators ``V``) span all of its rows; ``P``, ``D``, ``W``: the
    null vectors ``D e_f - sum_s W_f[s] e_(P_s)`` for the free columns ``f`` in increasing order."""

    d: int
    rows: tuple[int, ...]
    V: tuple[tuple[int, ...], ...]
    P: tuple[int, ...]
    D: int
    W: tuple[tuple[int, ...], ...]

    @property
    def rho(self) -> int:
        return len(self.rows)

    @property
    def digits(self) -> int:
        """The decimal digits of the certificate's numbers (``V`` and ``W``)."""
        return sum(len(str(abs(x))) for block in (self.V, self.W) for row in block for x in row)

    @property
    def free(self) -> int:
        """The number of free columns: the dimension of the null space, ``d - rho``."""
        return self.d - len(self.P)


def _object(num: np.ndarray) -> np.ndarray:
    return num if num.dtype == object else num.astype(object)


def _primes(first: int, rng: np.random.Generator) -> Iterator[int]:
    """``first``, then two primes drawn at random below ``2**20``: weights crafted against the
    first one (rows independent over Q, dependent modulo it) get their true rank modulo another."""
    from sympy import nextprime

    yield first
    for _ in range(2):
        yield int(nextprime(int(rng.integers(2**19, 2**20 - 2**10))))


def _screen(res: np.ndarray, limit: int, p: int, rng: np.random.Generator) -> bool:
    """False when ``rank(res) > limit`` (with high probability); True when it may be at most
    ``limit``: ``limit + 1`` random combinations of the rows have rank at most ``limit`` mod ``p``."""
    n, d = res.shape
    S = rng.integers(0, p, size=(limit + 1, n), dtype=np.int64)
    SA = (S @ res) % p
    return flint.nmod_mat(limit + 1, d, SA.ravel().tolist(), p).rank() <= limit


def span_pivots(num: np.ndarray, rows: Sequence[int], p: int = SCREEN_PRIME
                ) -> Optional[tuple[list[int], int, list[list[int]]]]:
    """``(P, D, adj)`` when every row of ``num`` is an integer combination (over Q) of
    ``num[rows]``, checked exactly: ``D num = (num[:, P] adj) num[rows]`` with ``D = det`` and
    ``adj`` the adjugate of ``num[rows][:, P]`` (``P``: columns where it is invertible modulo
    ``p``, or modulo a random prime when the rows are dependent modulo ``p``); None otherwise."""
    import sympy  # only here: importing pybridge does not import SymPy

    V = _object(num[list(rows)])
    rho = len(rows)
    if rho == 0:
        return ([], 1, []) if not np.any(num) else None
    for q in _primes(p, np.random.default_rng()):
        P = rref_mod(np.remainder(V, q).astype(np.int64), q)[1]
        if len(P) == rho:  # rho columns of V independent modulo a prime: V[:, P] is invertible
            break
    else:
        return None
    VP = sympy.Matrix([[int(V[t, j]) for j in P] for t in range(rho)])
    D = int(VP.det(method="bareiss"))
    if D == 0:
        return None
    adj = [[int(x) for x in row] for row in VP.adjugate(method="bareiss").tolist()]
    C = _object(num[:, P]).dot(np.array(adj, dtype=object))
    if not np.array_equal(C.dot(V), _object(num) * D):
        return None
    return P, D, adj


def digits_bound(V: np.ndarray, free: int) -> int:
    """An upper bound on the decimal digits of ``V`` and of the ``free x rho`` entries of ``W``
    (Hadamard: ``|adj| <= (sqrt(rho) max|V|)**(rho - 1)``, each ``W`` entry a sum of ``rho``
    products with ``V``), from the largest entry alone: a bound computed before any adjugate."""
    rho, d = V.shape
    if rho == 0:  # W_up = 0: no data but the free columns' empty rows
        return 0
    top = max((abs(int(x)) for x in V.ravel()), default=0) + 1
    w = (rho - 1) * (math.log10(top) + 0.5 * math.log10(max(rho, 1))) + math.log10(rho * top) + 1
    return int(rho * d * (math.log10(top) + 1) + free * rho * w)


def find_low_rank(A: IntMatrix, limit: int = MAX_RANK, seed: Optional[int] = None,
                  max_digits: int = MAX_DIGITS) -> Optional[LowRank]:
    """Rows of ``A`` spanning it (at most ``limit`` of them) with the null vectors of the
    certificate, or None (rank above ``limit``, not confirmed exactly, or null vectors that
    may need more than ``max_digits`` digits)."""
    limit = min(limit, MAX_RANK)
    num = A.numerators()
    n, d = num.shape
    if limit < 0 or n == 0:
        return None
    rng = np.random.default_rng(seed)
    for p in _primes(SCREEN_PRIME, rng):
        res = A.mod(p).astype(np.int64)
        if not _screen(res, limit, p, rng):
            return None
        # rows independent after a random projection to limit + 1 columns are independent, and
        # (when the projection keeps the rank) span: the exact check below decides
        R = rng.integers(0, p, size=(d, limit + 1), dtype=np.int64)
        rows = rref_mod(((res @ R) % p).T.copy(), p)[1]
        if len(rows) > limit or digits_bound(_object(num[rows]), d - len(rows)) > max_digits:
            return None
        found = span_pivots(num, rows, p)
        if found is not None:
            break
    else:
        return None
    P, D, adj = found
    V = _object(num[rows])
    pivots = set(P)
    free = [f for f in range(d) if f not in pivots]
    Wm = np.array(adj, dtype=object).dot(V[:, free]) if rows else np.zeros((0, len(free)), dtype=object)
    W = tuple(tuple(int(x) for x in Wm[:, b]) for b in range(len(free)))
    return LowRank(d, tuple(rows), tuple(tuple(int(x) for x in r) for r in V), tuple(P), D, W)
