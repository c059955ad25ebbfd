"""Exact genericity of ``(W_up, W_down)``: nonzero rows and columns, rows pairwise independent.

Pairwise independence is shown by a projection ``a -> (u.a, v.a) mod p`` whose
2x2 determinants are all nonzero (the certificate Coq rechecks); pairs it
flags are rechecked exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Optional

import numpy as np

from ..evidence import GenericCertificate
from ..modular import PRIMES, IntMatrix, reduce_mod


@dataclass(frozen=True)
class GenericOutcome:
    generic: bool
    reason: str
    certificate: Optional[GenericCertificate] = None


def _parallel(u: tuple[int, ...], v: tuple[int, ...]) -> bool:
    k = next(i for i, x in enumerate(u) if x != 0)
    return all(v[l] * u[k] == u[l] * v[k] for l in range(len(u)))


def check_generic(A: IntMatrix, B: IntMatrix, seed: int = 0) -> GenericOutcome:
    """Exact genericity of ``(A, B)``: rows a_i != 0, columns b_i != 0, a_i pairwise independent."""
    n, d = A.shape
    for i, r in enumerate(A.rows):
        if not any(r):
            return GenericOutcome(False, f"row {i} of W_up is zero")
    for i in range(n):
        if not any(B.rows[k][i] for k in range(d)):
            return GenericOutcome(False, f"column {i} of W_down is zero")
    if n == 1:
        return GenericOutcome(True, "n = 1", GenericCertificate(PRIMES[0], (1,) * d, (0,) * d))
    rng = random.Random(seed)
    p = PRIMES[0]
    amod = reduce_mod(A.rows, p)
    spurious: set[tuple[int, int]] = set()
    for _attempt in range(6):
        u = np.array([rng.randrange(1, 1024) for _ in range(d)], dtype=np.int64)
        v = np.array([rng.randrange(1, 1024) for _ in range(d)], dtype=np.int64)
        pu = (amod @ u) % p  # entries < 2**31 * 2**10 * d: no overflow for d < 2**21
        pv = (amod @ v) % p
        det = (np.outer(pu, pv) % p - np.outer(pv, pu) % p) % p
        iu = np.triu_indices(n, 1)
        bad = np.nonzero(det[iu] == 0)[0]
        pairs = [(int(iu[0][t]), int(iu[1][t])) for t in bad]
        for i, j in pairs:
            if (i, j) in spurious:
                continue
            if _parallel(A.rows[i], A.rows[j]):
                return GenericOutcome(False, f"rows {i} and {j} of W_up are parallel")
            spurious.add((i, j))
        if not pairs:
            cert = GenericCertificate(p, tuple(int(x) for x in u), tuple(int(x) for x in v))
            return GenericOutcome(True, "rows nonzero and pairwise independent (projection mod p)", cert)
    # Every flagged pair was checked exactly: generic, but no single projection certificate.
    return GenericOutcome(True, "rows pairwise independent (exact check of flagged pairs)")
