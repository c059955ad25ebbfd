"""Exact search for a subset ``S`` with ``sum_{i in S} b_i a_i^T = -T``, or a certificate that none exists.

Candidates are found modulo primes and verified exactly over the integers;
"no S" is concluded only from a :class:`~pybridge.exact.evidence.NoSubsetCertificate`
that rules out every 0/1 vector modulo a prime (sound over the integers) and
that :func:`verify_nosub` re-checks with the logic of Coq's ``check_nosub``.

Generic weights are settled first on a block (:func:`block_indices`): rows
``R`` of ``W_down`` and columns ``R`` of ``W_up`` with ``|R|^2 >= n + 1`` give
``n + 1`` equations; one square solve mod a prime below ``2**20`` (BLAS LU with delayed reduction,
:func:`~pybridge.exact.modular.solve_square_blas`) yields a functional supported on
``R x R`` (a :class:`BlockNoSubsetCertificate`, written in full coordinates,
so that it is also a certificate for the whole system). Primes are drawn per
run from a large pool (:func:`~pybridge.exact.modular.random_primes`). The meet in
the middle is bounded (:data:`MAX_MATCHES`): too many candidate matches mod
``p`` mean another functional or prime, then ``unknown``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import islice
from math import isqrt
from typing import Iterator, Literal, Optional

import numpy as np

from pybridge.exact.blas_lu import prime_bound
from pybridge.exact.evidence import Functional, NoSubsetCertificate
from pybridge.exact.modular import (
    IntMatrix,
    matmul_mod,
    random_primes,
    rref_mod,
    solve_left_mod,
    solve_square_blas,
)

MAX_FREE = 22  #: largest number of free variables enumerated (2**22 assignments)
MAX_SYSTEM = 12_000_000  #: largest number of entries of the modular system built at once
MAX_MATCHES = 256  #: meet in the middle: most candidate matches mod p verified exactly per functional
PRIME_TRIES = 3  #: primes tried by the general search
SMALL_PRIME_BITS = 10  #: the block search's first prime: below ``2**10``


@dataclass(frozen=True)
class BlockNoSubsetCertificate(NoSubsetCertificate):
    """A no-subset certificate whose functionals read only rows ``block`` of ``W_down``
    and columns ``block`` of ``W_up`` (entries outside are 0 in every functional row)."""

    block: tuple[int, ...] = ()


def block_indices(d: int, n: int) -> tuple[int, ...]:
    """The block ``R``: the first ``r`` indices, ``r`` the least with ``r^2 >= n + 1``
    (all ``d`` indices when ``d^2 < n + 1``)."""
    r = isqrt(n + 1)
    if r * r < n + 1:
        r += 1
    return tuple(range(min(r, d)))


def sub_matrices(A: IntMatrix, B: IntMatrix, T: IntMatrix, R: tuple[int, ...]) -> tuple[IntMatrix, IntMatrix, IntMatrix]:
    """Columns ``R`` of ``A``, rows ``R`` of ``B``, the block ``T[R, R]``."""
    idx = list(R)
    Ab = IntMatrix.from_numerators(A.numerators()[:, idx], A.den)
    Bb = IntMatrix.from_numerators(B.numerators()[idx, :], B.den)
    Tb = IntMatrix.from_numerators(T.numerators()[np.ix_(idx, idx)], T.den)
    return Ab, Bb, Tb


@dataclass(frozen=True)
class SearchOutcome:
    status: Literal["found", "none", "unknown"]
    subset: Optional[tuple[int, ...]] = None
    certificate: Optional[NoSubsetCertificate] = None
    reason: str = ""


def subset_residual(A: IntMatrix, B: IntMatrix, T: IntMatrix, subset: tuple[int, ...]) -> Optional[tuple[int, int]]:
    """Exactly ``dT * sum_{i in S} Bz[:,i] Az[i,:] + dA*dB*Tz``: None when it is zero,
    else the first position ``(k, l)`` where it is not."""
    d = len(B.rows)
    s = list(subset)
    bound = len(s) * A.max_abs() * B.max_abs() * T.den + A.den * B.den * T.max_abs()
    dtype = np.int64 if bound < 2**62 else object
    a = A.numerators()[s, :].astype(dtype).reshape(len(s), d)
    b = B.numerators()[:, s].astype(dtype).reshape(d, len(s))
    lhs = (b @ a) * T.den if s else np.zeros((d, d), dtype=dtype)
    rhs = T.numerators().astype(dtype) * (A.den * B.den)
    bad = np.argwhere(lhs + rhs != 0)
    return None if len(bad) == 0 else (int(bad[0][0]), int(bad[0][1]))


def subset_residual_zero(A: IntMatrix, B: IntMatrix, T: IntMatrix, subset: tuple[int, ...]) -> bool:
    """Exactly: ``dT * sum_{i in S} Bz[:,i] Az[i,:] == -dA*dB*Tz``."""
    return subset_residual(A, B, T, subset) is None


class _System:
    """The integer system ``sum_i s_i dT Bz[k,i] Az[i,l] = -dA dB Tz[k,l]`` mod p."""

    def __init__(self, A: IntMatrix, B: IntMatrix, T: IntMatrix, p: int) -> None:
        self.p = p
        self.n, self.d = A.shape
        self.amod = A.mod(p)  # n x d
        self.bmod = B.mod(p)  # d x n
        self.dT = T.den % p
        self.rhs_scale = (-A.den * B.den) % p
        self.tmod = T.mod(p)

    def rows(self, positions: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
        p = self.p
        ks = np.array([k for k, _ in positions], dtype=np.int64)
        ls = np.array([l for _, l in positions], dtype=np.int64)
        m = (self.bmod[ks, :] * self.amod[:, ls].T) % p
        m = m * self.dT % p
        r = self.tmod[ks, ls] * self.rhs_scale % p
        return m, r

    def transposed_float(self, positions: list[tuple[int, int]]) -> np.ndarray:
        """``[m | r]^T`` of :meth:`rows` as ``float64`` integers below ``2**40`` (not reduced;
        for ``p < 2**20``): column ``q`` holds position ``q``'s coefficients, then its target."""
        p, n = self.p, self.n
        ks = np.array([k for k, _ in positions], dtype=np.int64)
        ls = np.array([l for _, l in positions], dtype=np.int64)
        out = np.empty((n + 1, len(positions)), order="F")  # column-major: what the LU factors in place
        af = np.asfortranarray(self.amod, dtype=np.float64)  # n x d, columns contiguous (read by blocks)
        bsc = (self.bmod * self.dT % p).astype(np.float64)  # d x n
        start = 0
        while start < len(positions):  # runs of positions in one row k: column-scaled blocks of A
            k = int(ks[start])
            stop = start + 1
            while stop < len(positions) and ks[stop] == k:
                stop += 1
            lo, hi = int(ls[start]), int(ls[stop - 1]) + 1
            cols = af[:, lo:hi] if hi - lo == stop - start and np.all(np.diff(ls[start:stop]) == 1) \
                else af[:, ls[start:stop]]
            np.multiply(cols, bsc[k][:, None], out=out[:n, start:stop])
            start = stop
        out[n] = self.tmod[ks, ls] * self.rhs_scale % p
        return out

    def functional(self, positions: list[tuple[int, int]], y: np.ndarray, pivot: Optional[int]) -> Functional:
        rows: dict[int, list[int]] = {}
        for (k, l), val in zip(positions, y):
            if int(val) % self.p:
                rows.setdefault(k, [0] * self.d)[l] = int(val) % self.p
        return Functional(pivot, tuple((k, tuple(r)) for k, r in sorted(rows.items())))

    def values(self, f: Functional) -> tuple[np.ndarray, int]:
        """``(y_i)_i`` and the target ``t`` of a functional, mod p (for self-checks): with
        ``Y_k`` the functional's rows, ``y_i = dT sum_k bmod[k, i] (amod[i] . Y_k)``."""
        p = self.p
        if not f.rows:
            return np.zeros(self.n, dtype=np.int64), 0
        ks = [k for k, _ in f.rows]
        fm = np.array([row for _, row in f.rows], dtype=np.int64).reshape(len(ks), self.d) % p
        ya = matmul_mod(self.amod, fm.T, p)  # n x K
        y = (self.bmod[ks, :] * ya.T % p).sum(axis=0) % p  # K terms below p each: no overflow
        t = int(np.sum(matmul_mod(self.tmod[ks, :], fm.T, p).diagonal()) % p)
        return y * self.dT % p, t * self.rhs_scale % p


def _solved(y: Optional[np.ndarray]) -> np.ndarray:
    """A left solution the elimination guarantees to exist (the row is in the span)."""
    if y is None:
        raise AssertionError("no left solution for a row of the reduced system")
    return y


def _positions(d: int, count: int) -> list[tuple[int, int]]:
    count = min(count, d * d)
    return [(q // d, q % d) for q in range(count)]


def _enumerate_free(red: np.ndarray, piv: list[int], free: list[int], n: int, p: int) -> Iterator[tuple[int, ...]]:
    """All assignments z of the free variables making every pivot value 0 or 1."""
    rank = len(piv)
    c = red[:rank, n]
    rf = red[:rank, free] if free else np.zeros((rank, 0), dtype=np.int64)
    f = len(free)
    total = 1 << f
    chunk = 1 << 16
    for start in range(0, total, chunk):
        idx = np.arange(start, min(total, start + chunk), dtype=np.int64)
        z = ((idx[:, None] >> np.arange(f, dtype=np.int64)) & 1) if f else np.zeros((len(idx), 0), np.int64)
        vals = (c[None, :] - (z @ rf.T) % p) % p
        ok = np.all((vals == 0) | (vals == 1), axis=1)
        for row in np.nonzero(ok)[0]:
            s = [0] * n
            for j, col in enumerate(free):
                s[col] = int(z[row, j])
            for j, col in enumerate(piv):
                s[col] = int(vals[row, j])
            yield tuple(i for i in range(n) if s[i])


def verify_nosub(system: _System, cert: NoSubsetCertificate) -> bool:
    """Re-check a no-subset certificate independently of how it was found, with
    the same logic as ``Checkers.check_nosub``: values ``y_i`` vanish outside the
    free indices and the pivot, and every 0/1 assignment of the free indices makes
    some functional's ``t - sum_F z_i y_i`` differ from both 0 and ``y_pivot``."""
    p, free = system.p, list(cert.free)
    if len(free) > 24 or any(not 0 <= i < system.n for i in free):
        return False
    cols = []
    for f in cert.functionals:
        y, t = system.values(f)
        mask = np.ones(system.n, dtype=bool)
        mask[free] = False
        if f.pivot is not None and 0 <= f.pivot < system.n and f.pivot not in free:
            mask[f.pivot] = False
        if np.any(y[mask]):
            return False
        c = int(y[f.pivot]) if f.pivot is not None and 0 <= f.pivot < system.n and f.pivot not in free else 0
        cols.append((y[free] if free else np.zeros(0, dtype=np.int64), t, c))
    if not cols:
        return False
    yf = np.array([c[0] for c in cols], dtype=np.int64).reshape(len(cols), len(free))
    tv = np.array([c[1] for c in cols], dtype=np.int64)
    cv = np.array([c[2] for c in cols], dtype=np.int64)
    total = 1 << len(free)
    for start in range(0, total, 1 << 16):
        idx = np.arange(start, min(total, start + (1 << 16)), dtype=np.int64)
        z = (idx[:, None] >> np.arange(len(free), dtype=np.int64)) & 1
        v = (tv[None, :] - (z @ yf.T) % p) % p
        fails = (v != 0) & (v != cv[None, :])
        if not np.all(np.any(fails, axis=1)):
            return False
    return True


def search_subset(A: IntMatrix, B: IntMatrix, T: IntMatrix) -> SearchOutcome:
    """Find S with ``sum_{i in S} b_i a_i^T = -T`` exactly, or a certificate that none exists.

    Every "none" outcome carries a certificate that :func:`verify_nosub` accepted."""
    out = _block_search(A, B, T)
    if out is not None:
        return out
    out = _search_subset(A, B, T)
    if out.status == "none" and out.certificate is not None:
        system = _System(A, B, T, out.certificate.p)
        if not verify_nosub(system, out.certificate):
            return SearchOutcome("unknown", reason="internal check of the no-subset certificate failed")
    return out


def _block_search(A: IntMatrix, B: IntMatrix, T: IntMatrix) -> Optional[SearchOutcome]:
    """The generic case on the block ``R x R``: ``n + 1`` equations, one square solve.
    None when the block system is not inconsistent mod p (the general search decides).

    Indices ``i`` with ``a_i = 0`` or ``b_i = 0`` (a pruned neuron) never enter the system:
    the block system of the others is solved, and its functional (it reads positions only)
    is re-checked on the whole system."""
    n = A.shape[0]
    a, b = A.numerators(), B.numerators()
    live = np.flatnonzero(np.any(a != 0, axis=1) & np.any(b != 0, axis=0))
    if 0 < len(live) < n:
        out = _block_search_live(IntMatrix.from_numerators(a[live], A.den),
                                 IntMatrix.from_numerators(b[:, live], B.den), T)
        if out is None or out.certificate is None or not verify_nosub(_System(A, B, T, out.certificate.p),
                                                                       out.certificate):
            return None
        return out
    return _block_search_live(A, B, T)


def _block_search_live(A: IntMatrix, B: IntMatrix, T: IntMatrix) -> Optional[SearchOutcome]:
    n, d = A.shape
    R = block_indices(d, n)
    r = len(R)
    if n < 2 or r * r < n + 1:
        return None
    Ab, Bb, Tb = sub_matrices(A, B, T, R)
    positions = _positions(r, n + 1)
    e_last = np.zeros(n + 1, dtype=np.int64)
    e_last[n] = 1
    for p in block_primes(n + 1):
        system = _System(Ab, Bb, Tb, p)
        y = solve_square_blas(system.transposed_float(positions), e_last, p)  # factored in place
        if y is None:
            continue
        f = system.functional(positions, y, None)
        if not verify_nosub(system, BlockNoSubsetCertificate(p, (), (f,), block=R)):
            continue
        full = Functional(None, tuple((R[k], _embed(row, R, d)) for k, row in f.rows))
        return SearchOutcome("none", certificate=BlockNoSubsetCertificate(p, (), (full,), block=R),
                             reason=f"the system is inconsistent mod p on a {r} x {r} block")
    return None


def block_primes(size: int) -> list[int]:
    """The primes the block search tries, in order: one of :data:`SMALL_PRIME_BITS` bits (its
    residues pack six to a Coq literal, ``CertifyResidues``; a generic system is singular
    modulo it with probability about ``2**-9``), then one near the float LU's bound for
    ``size`` (a second failure mod a small prime would more likely mean a singular system)."""
    bound = prime_bound(size)
    small = random_primes(1, 1 << (SMALL_PRIME_BITS - 1), 1 << SMALL_PRIME_BITS) if bound > 1 << SMALL_PRIME_BITS else []
    return small + random_primes(1, bound // 2, bound)


def _embed(row: tuple[int, ...], R: tuple[int, ...], d: int) -> tuple[int, ...]:
    out = [0] * d
    for j, v in zip(R, row):
        out[j] = v
    return tuple(out)


def restrict_functionals(cert: NoSubsetCertificate, R: tuple[int, ...]) -> Optional[tuple[Functional, ...]]:
    """The functionals of ``cert`` in block coordinates (row ``k`` of the block is row
    ``R[k]``; columns ``R``), or None when some functional reads outside the block."""
    pos = {k: i for i, k in enumerate(R)}
    cols = set(R)
    out = []
    for f in cert.functionals:
        rows = []
        for k, row in f.rows:
            if k not in pos or any(v for j, v in enumerate(row) if j not in cols and v % cert.p):
                return None
            rows.append((pos[k], tuple(row[j] for j in R)))
        out.append(Functional(f.pivot, tuple(rows)))
    return tuple(out)


def _search_subset(A: IntMatrix, B: IntMatrix, T: IntMatrix) -> SearchOutcome:
    n, d = A.shape
    reasons = []
    for p in random_primes(PRIME_TRIES):
        system = _System(A, B, T, p)
        positions = _positions(d, n + 1 + 8)
        first = True
        for _round in range(64):
            m, r = system.rows(positions)
            g = np.concatenate([m, r[:, None]], axis=1)
            if first:  # the generic case: inconsistent already on these positions
                first = False
                e_last = np.zeros(n + 1, dtype=np.int64)
                e_last[n] = 1
                y = solve_left_mod(g, e_last, p)
                if y is not None:
                    cert = NoSubsetCertificate(p, (), (system.functional(positions, _solved(y), None),))
                    return SearchOutcome("none", certificate=cert, reason="the system is inconsistent mod p")
            red, piv = rref_mod(g, p, ncols=n + 1)
            if piv and piv[-1] == n:
                y = solve_left_mod(g, np.eye(1, n + 1, n, dtype=np.int64)[0], p)
                cert = NoSubsetCertificate(p, (), (system.functional(positions, _solved(y), None),))
                return SearchOutcome("none", certificate=cert, reason="the system is inconsistent mod p")
            free = [c for c in range(n) if c not in set(piv)]
            if len(free) > 16 and n <= 24:
                out = _meet_in_the_middle(system, A, B, T)
                if out.status != "unknown":
                    return out
                reasons.append(f"p = {p}: {out.reason}")
                break
            if len(free) > MAX_FREE and len(positions) < d * d and 2 * len(positions) * (n + 1) <= MAX_SYSTEM:
                # Rank deficient on these positions: take more equations.
                known = set(positions)
                extra = [q for q in _positions(d, d * d) if q not in known][: len(positions)]
                positions = positions + extra
                continue
            if len(free) > MAX_FREE:
                return SearchOutcome(
                    "unknown",
                    reason=f"the linear system has {len(free)} free variables (rank {len(piv)} < n = {n}); "
                    f"at most {MAX_FREE} are enumerated",
                )
            candidates = list(islice(_enumerate_free(red, piv, free, n, p), 64))
            violated = []
            for s in candidates:
                pos = subset_residual(A, B, T, s)
                if pos is None:
                    return SearchOutcome("found", subset=s, reason=f"|S| = {len(s)}")
                violated.append(pos)
            if not candidates:
                return SearchOutcome("none", certificate=_pivot_certificate(system, positions, m, red, piv, free),
                                     reason=f"no 0/1 point mod p ({len(free)} free variables)")
            # Candidates mod p that fail exactly: add the equations they violate.
            known = set(positions)
            new = sorted({q for q in violated if q not in known})
            if not new:
                reasons.append(f"p = {p}: 0/1 solutions mod p that fail exactly")
                break
            positions = positions + new
    return SearchOutcome("unknown", reason="; ".join(reasons) or "search inconclusive")


def _subset_sums(vals: list[int], p: int) -> np.ndarray:
    """All 2**len(vals) subset sums mod p; entry ``mask`` is the sum over the bits of mask."""
    sums = np.zeros(1, dtype=np.int64)
    for v in vals:
        sums = np.concatenate([sums, (sums + v) % p])
    return sums


def _meet_in_the_middle(system: _System, A: IntMatrix, B: IntMatrix, T: IntMatrix) -> SearchOutcome:
    """n <= 24: one random functional R; subset sums of its values y_i meet its target t
    (mod p) in two halves. No meeting point: no S (certificate: R, all indices free).
    More than :data:`MAX_MATCHES` meeting points: another functional; ``unknown`` after
    a few (the caller then tries another prime)."""
    n, d, p = system.n, system.d, system.p
    rng = random.Random(2024)
    crowded = 0
    for _attempt in range(3):
        R = Functional(None, tuple((k, tuple(rng.randrange(p) for _ in range(d))) for k in range(d)))
        y, t = system.values(R)
        h = n // 2
        left = _subset_sums([int(v) for v in y[:h]], p)
        right = _subset_sums([int(v) for v in y[h:]], p)
        order = np.argsort(right, kind="stable")
        rs = right[order]
        need = (t - left) % p
        lo = np.searchsorted(rs, need, side="left")
        hi = np.searchsorted(rs, need, side="right")
        count = int(np.sum(hi - lo))
        if count == 0:
            cert = NoSubsetCertificate(p, tuple(range(n)), (R,))
            return SearchOutcome("none", certificate=cert, reason="no subset sum meets the target mod p "
                                 "(meet in the middle)")
        if count > MAX_MATCHES:
            crowded = max(crowded, count)
            continue
        for lmask in np.flatnonzero(hi > lo):
            for rmask in order[lo[lmask]:hi[lmask]]:
                s = tuple(i for i in range(h) if int(lmask) >> i & 1) + \
                    tuple(h + i for i in range(n - h) if int(rmask) >> i & 1)
                if subset_residual_zero(A, B, T, s):
                    return SearchOutcome("found", subset=s, reason=f"|S| = {len(s)} (meet in the middle)")
    return SearchOutcome("unknown", reason=f"meet in the middle mod p: {crowded} candidate subsets "
                         f"(more than {MAX_MATCHES} to verify)" if crowded else
                         "meet in the middle: only spurious matches mod p")


def _pivot_certificate(system: _System, positions: list[tuple[int, int]], m: np.ndarray, red: np.ndarray,
                       piv: list[int], free: list[int]) -> NoSubsetCertificate:
    p, n = system.p, system.n
    if not free:
        # Unique solution mod p; some coordinate is not 0/1.
        sol = {c: int(red[j, n]) for j, c in enumerate(piv)}
        i0 = next(c for c in piv if sol[c] not in (0, 1))
        e = np.zeros(n, dtype=np.int64)
        e[i0] = 1
        y = solve_left_mod(m, e, p)
        return NoSubsetCertificate(p, (), (system.functional(positions, _solved(y), i0),))
    funcs = []
    for j, c in enumerate(piv):
        y = solve_left_mod(m, red[j, :n].copy(), p)
        funcs.append(system.functional(positions, _solved(y), c))
    return NoSubsetCertificate(p, tuple(free), tuple(funcs))
