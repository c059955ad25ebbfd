"""Exact genericity of ``(W_up, W_down)``: nonzero rows and columns, rows pairwise independent.

Pairwise independence is shown by a projection ``a -> (u.a, v.a) mod p`` whose
2x2 determinants are all nonzero (the certificate Coq rechecks); pairs it
flags are rechecked exactly. The prime is drawn from a large pool per run,
and another one is drawn when a projection vanishes mod p (weights that are
multiples of some prime are certifiable with the others).

:func:`sorted_certificate` gives the certificate Coq checks in n log n: on a
few columns of ``W_up``, the ratios ``(u.a_i) / (v.a_i) mod p`` pairwise
distinct (``CheckGeneric.check_generic_sorted``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import gcd
from typing import Optional

import numpy as np

from pybridge.exact.evidence import GenericCertificate
from pybridge.exact.modular import IntMatrix, random_primes

PRIME_TRIES = 4  #: primes tried before settling genericity by exact pair checks alone
MAX_FLAGGED = 2000  #: flagged pairs checked exactly per projection before another prime


@dataclass(frozen=True)
class SortedGenericCertificate:
    """Rows of ``W_up`` restricted to columns ``cols``: ``V_i = v . a_i`` invertible mod ``p``
    and the ratios ``(u . a_i) / V_i mod p`` pairwise distinct."""

    p: int
    cols: tuple[int, ...]
    u: tuple[int, ...]
    v: tuple[int, ...]


def sorted_certificate(A: IntMatrix, B: IntMatrix, cols: tuple[int, ...], attempts: int = 6,
                       seed: Optional[int] = None) -> Optional[SortedGenericCertificate]:
    """A :class:`SortedGenericCertificate` on columns ``cols`` (rows ``cols`` of ``W_down``
    must have a nonzero entry in every column), or None."""
    n, _ = A.shape
    r = len(cols)
    idx = list(cols)
    sub = IntMatrix.from_numerators(A.numerators()[:, idx], A.den)
    bsub = (B.numerators()[idx, :] != 0).reshape(r, n)
    if not np.all(bsub.any(axis=0)):
        return None
    rng = random.Random(seed)
    for p in random_primes(attempts, rng=rng if seed is not None else None):
        amod = sub.mod(p)
        u = np.array([rng.randrange(1, 1024) for _ in range(r)], dtype=np.int64)
        v = np.array([rng.randrange(1, 1024) for _ in range(r)], dtype=np.int64)
        U = (amod @ u) % p  # < 2**31 * 2**10 * r: no overflow for r < 2**21
        V = (amod @ v) % p
        if np.any(V == 0):
            continue
        w = np.array([pow(int(x), p - 2, p) for x in V], dtype=np.int64)
        q = U * w % p
        if len(np.unique(q)) == n:
            return SortedGenericCertificate(p, tuple(cols), tuple(int(x) for x in u), tuple(int(x) for x in v))
    return None


@dataclass(frozen=True)
class GenericOutcome:
    generic: bool
    reason: str
    certificate: Optional[GenericCertificate] = None


def _row(A: IntMatrix, i: int) -> tuple[int, ...]:
    """Row ``i`` of the numerators as Python ints."""
    return tuple(A.numerators()[i].tolist())


def _parallel(u: tuple[int, ...], v: tuple[int, ...]) -> bool:
    k = next(i for i, x in enumerate(u) if x != 0)
    return all(v[l] * u[k] == u[l] * v[k] for l in range(len(u)))


def check_generic(A: IntMatrix, B: IntMatrix, seed: int = 0) -> GenericOutcome:
    """Exact genericity of ``(A, B)``: rows a_i != 0, columns b_i != 0, a_i pairwise independent."""
    n, d = A.shape
    zero_rows = np.flatnonzero(~(A.numerators() != 0).any(axis=1))
    if zero_rows.size:
        return GenericOutcome(False, f"row {int(zero_rows[0])} of W_up is zero")
    zero_cols = np.flatnonzero(~(B.numerators() != 0).any(axis=0))
    if zero_cols.size:
        return GenericOutcome(False, f"column {int(zero_cols[0])} of W_down is zero")
    if n == 1:
        return GenericOutcome(True, "n = 1", GenericCertificate(random_primes(1)[0], (1,) * d, (0,) * d))
    rng = random.Random(seed)
    spurious: set[tuple[int, int]] = set()
    for p in random_primes(PRIME_TRIES):
        amod = A.mod(p)
        for _attempt in range(3):
            u = np.array([rng.randrange(1, 1024) for _ in range(d)], dtype=np.int64)
            v = np.array([rng.randrange(1, 1024) for _ in range(d)], dtype=np.int64)
            pu = (amod @ u) % p  # entries < 2**31 * 2**10 * d: no overflow for d < 2**21
            pv = (amod @ v) % p
            if np.any(pv == 0):
                if np.count_nonzero(pv == 0) > MAX_FLAGGED:
                    break  # the projection vanishes too often mod p: another prime
                continue
            # 2x2 determinants u_i v_j - v_i u_j = v_i v_j (q_i - q_j) mod the prime p: one vanishes
            # exactly when two ratios q = u / v agree (sorting finds them in n log n).
            q = pu * np.array([pow(int(x), p - 2, p) for x in pv], dtype=np.int64) % p
            order = np.argsort(q, kind="stable")
            same = np.flatnonzero(q[order][1:] == q[order][:-1])
            if len(same) > MAX_FLAGGED:
                break
            pairs = sorted({(int(min(order[t], order[t + 1])), int(max(order[t], order[t + 1]))) for t in same})
            for i, j in pairs:
                if (i, j) in spurious:
                    continue
                if _parallel(_row(A, i), _row(A, j)):
                    return GenericOutcome(False, f"rows {i} and {j} of W_up are parallel")
                spurious.add((i, j))
            if not pairs:
                cert = GenericCertificate(p, tuple(int(x) for x in u), tuple(int(x) for x in v))
                return GenericOutcome(True, "rows nonzero and pairwise independent (projection mod p)", cert)
    pair = parallel_pair(A)
    if pair is not None:
        return GenericOutcome(False, f"rows {pair[0]} and {pair[1]} of W_up are parallel")
    # Exact: no two rows normalise to the same vector. Generic, but no single projection certificate.
    return GenericOutcome(True, "rows pairwise independent (exact comparison of normalised rows)")


def _normalised(num: np.ndarray) -> list[bytes] | list[tuple[int, ...]]:
    """Each nonzero row divided by the gcd of its entries, signed so that its first nonzero
    entry is positive: two nonzero rows are parallel exactly when these agree."""
    if num.dtype == np.int64 and (num.size == 0 or int(num.min()) > -2**63):
        g = np.gcd.reduce(num, axis=1)
        g[g == 0] = 1
        first = num[np.arange(num.shape[0]), np.argmax(num != 0, axis=1)]
        g = np.where(first < 0, -g, g)
        return [r.tobytes() for r in num // g[:, None]]
    out = []
    for r in num.tolist():
        g = 0
        for v in r:
            g = gcd(g, v)
        g = g or 1
        if next((v for v in r if v), 0) < 0:
            g = -g
        out.append(tuple(v // g for v in r))
    return out


def parallel_pair(A: IntMatrix) -> Optional[tuple[int, int]]:
    """Two parallel nonzero rows ``(i, j)``, ``i < j``, of ``A`` or None, exactly, in about
    ``n d`` operations (rows normalised by :func:`_normalised`, then hashed)."""
    seen: dict[object, int] = {}
    for j, key in enumerate(_normalised(A.numerators())):
        i = seen.setdefault(key, j)
        if i != j:
            return i, j
    return None
