"""The exact decision procedure: is ``x -> P x + f(x)`` absorbable at width n?

Entry point :func:`decide`. Verdicts rest on exact arithmetic only:
- gated and homogeneous (k != 1) blocks: the theorems R3/R2 (no arithmetic);
- odd-part-identity blocks (ReLU, GELU, GELU_tanh, SiLU): a subset ``S`` with
  ``sum_{i in S} b~_i a_i^T = -I`` (``B~ = P^-1 B``, R1), equivalently
  ``sum_{i in S} b_i a_i^T = -P``, is searched modulo primes and every candidate
  is verified exactly over the integers; "no S" is concluded only from a
  certificate (:class:`NoSubsetCertificate`) that rules out every 0/1 vector
  modulo a prime, which is sound over the integers;
- genericity exactly: nonzero rows/columns, and pairwise independence shown by a
  projection whose 2x2 determinants are nonzero mod p (flagged pairs rechecked exactly);
- generic weights without any S: not absorbable by R5 (=>), proved in the library for
  ReLU, GELU, GELU_tanh and SiLU (``GENERIC_SUBMATRIX_THEOREMS``).

The certificates are kept in ``Decision.evidence`` for :mod:`pybridge.certificates`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from itertools import islice
from typing import Literal, Optional

import numpy as np

from .errors import InputError
from .model import Decision, Instance, Matrix, Witness
from .modular import (
    PRIMES,
    IntMatrix,
    identity_int,
    reduce_mod,
    rref_mod,
    scale_matrix,
    solve_left_mod,
)

MAX_FREE = 22  #: largest number of free variables enumerated (2**22 assignments)
MAX_SYSTEM = 12_000_000  #: largest number of entries of the modular system built at once
THEORY = "Absorb"

#: R5 (=>) per activation: generic and absorbable at width n -> some S exists.
GENERIC_SUBMATRIX_THEOREMS = {
    "relu": f"{THEORY}.ReluSubmatrix.relu_absorbable_generic_submatrix",
    "gelu": f"{THEORY}.GeluRidge.gelu_absorbable_generic_submatrix_uncond",
    "gelu_tanh": f"{THEORY}.GeluTanhRidge.gelu_tanh_absorbable_iff_submatrix_uncond",
    "silu": f"{THEORY}.SiluRidge.silu_absorbable_generic_submatrix",
}


# ---------------------------------------------------------------- certificates


@dataclass(frozen=True)
class Functional:
    """A linear functional ``Y`` on d x d matrices, supported on a few rows ``k``:
    ``<Y, M> = sum_k Y_k . M_k``. ``pivot``: the one non-free index ``i`` whose
    value ``y_i`` may be nonzero (None: all non-free values vanish)."""

    pivot: Optional[int]
    rows: tuple[tuple[int, tuple[int, ...]], ...]


@dataclass(frozen=True)
class NoSubsetCertificate:
    """Rules out every S modulo ``p``: for every assignment of the ``free`` indices,
    some functional's value is impossible (see Checkers.v, ``check_nosub``)."""

    p: int
    free: tuple[int, ...]
    functionals: tuple[Functional, ...]


@dataclass(frozen=True)
class GenericCertificate:
    """Projection ``a -> (u.a, v.a) mod p`` with all pairwise 2x2 determinants nonzero."""

    p: int
    u: tuple[int, ...]
    v: tuple[int, ...]


@dataclass(frozen=True)
class Evidence:
    """Exact data behind a decision (integer-scaled weights, certificates)."""

    A: IntMatrix
    B: IntMatrix
    target: IntMatrix  # the skip P (identity when None)
    generic_cert: Optional[GenericCertificate] = None
    nosub_cert: Optional[NoSubsetCertificate] = None


@dataclass(frozen=True)
class SearchOutcome:
    status: Literal["found", "none", "unknown"]
    subset: Optional[tuple[int, ...]] = None
    certificate: Optional[NoSubsetCertificate] = None
    reason: str = ""


@dataclass(frozen=True)
class GenericOutcome:
    generic: bool
    reason: str
    certificate: Optional[GenericCertificate] = None


# ---------------------------------------------------------------- exact helpers


def invert_exact(m: Matrix) -> Matrix:
    """Exact inverse (Gauss-Jordan over Fractions); InputError when singular/non-square."""
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


def matmul_exact(x: Matrix, y: Matrix) -> Matrix:
    cols = list(zip(*y))
    return tuple(tuple(sum((a * b for a, b in zip(r, c)), Fraction(0)) for c in cols) for r in x)


def subset_residual(A: IntMatrix, B: IntMatrix, T: IntMatrix, subset: tuple[int, ...]) -> Optional[tuple[int, int]]:
    """Exactly ``dT * sum_{i in S} Bz[:,i] Az[i,:] + dA*dB*Tz``: None when it is zero,
    else the first position ``(k, l)`` where it is not."""
    d = len(B.rows)
    s = list(subset)
    bound = len(s) * A.max_abs() * B.max_abs() * T.den + A.den * B.den * T.max_abs()
    dtype = np.int64 if bound < 2**62 else object
    a = np.array([A.rows[i] for i in s], dtype=dtype).reshape(len(s), d)
    b = np.array([[B.rows[k][i] for i in s] for k in range(d)], dtype=dtype).reshape(d, len(s))
    lhs = (b @ a) * T.den if s else np.zeros((d, d), dtype=dtype)
    rhs = np.array(T.rows, dtype=dtype) * (A.den * B.den)
    bad = np.argwhere(lhs + rhs != 0)
    return None if len(bad) == 0 else (int(bad[0][0]), int(bad[0][1]))


def subset_residual_zero(A: IntMatrix, B: IntMatrix, T: IntMatrix, subset: tuple[int, ...]) -> bool:
    """Exactly: ``dT * sum_{i in S} Bz[:,i] Az[i,:] == -dA*dB*Tz``."""
    return subset_residual(A, B, T, subset) is None


# ---------------------------------------------------------------- genericity


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


# ---------------------------------------------------------------- subset search


class _System:
    """The integer system ``sum_i s_i dT Bz[k,i] Az[i,l] = -dA dB Tz[k,l]`` mod p."""

    def __init__(self, A: IntMatrix, B: IntMatrix, T: IntMatrix, p: int) -> None:
        self.p = p
        self.n, self.d = A.shape
        self.amod = reduce_mod(A.rows, p)  # n x d
        self.bmod = reduce_mod(B.rows, p)  # d x n
        self.dT = T.den % p
        self.rhs_scale = (-A.den * B.den) % p
        self.tmod = reduce_mod(T.rows, p)

    def rows(self, positions: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
        p = self.p
        ks = np.array([k for k, _ in positions], dtype=np.int64)
        ls = np.array([l for _, l in positions], dtype=np.int64)
        m = (self.bmod[ks, :] * self.amod[:, ls].T) % p
        m = m * self.dT % p
        r = self.tmod[ks, ls] * self.rhs_scale % p
        return m, r

    def functional(self, positions: list[tuple[int, int]], y: np.ndarray, pivot: Optional[int]) -> Functional:
        rows: dict[int, list[int]] = {}
        for (k, l), val in zip(positions, y):
            if int(val) % self.p:
                rows.setdefault(k, [0] * self.d)[l] = int(val) % self.p
        return Functional(pivot, tuple((k, tuple(r)) for k, r in sorted(rows.items())))

    def values(self, f: Functional) -> tuple[np.ndarray, int]:
        """``(y_i)_i`` and the target ``t`` of a functional, mod p (for self-checks)."""
        p = self.p
        y = np.zeros(self.n, dtype=np.int64)
        t = 0
        for k, row in f.rows:
            r = np.array(row, dtype=np.int64)
            ya = np.array([sum(int(a) * int(b) for a, b in zip(self.amod[i], r)) % p for i in range(self.n)],
                          dtype=np.int64) if self.d * self.n < 20000 else _dot_rows(self.amod, r, p)
            y = (y + self.bmod[k] * ya % p) % p
            t = (t + sum(int(a) * int(b) for a, b in zip(self.tmod[k], r))) % p
        return y * self.dT % p, t * self.rhs_scale % p


def _dot_rows(m: np.ndarray, v: np.ndarray, p: int) -> np.ndarray:
    lo, hi = v & 0xFFFF, v >> 16
    return ((m @ hi) % p * 65536 % p + (m @ lo) % p) % p


def _positions(d: int, count: int) -> list[tuple[int, int]]:
    count = min(count, d * d)
    return [(q // d, q % d) for q in range(count)]


def _enumerate_free(red: np.ndarray, piv: list[int], free: list[int], n: int, p: int):
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


def verify_nosub(system: "_System", cert: NoSubsetCertificate) -> bool:
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
    out = _search_subset(A, B, T)
    if out.status == "none":
        system = _System(A, B, T, out.certificate.p)
        if not verify_nosub(system, out.certificate):
            return SearchOutcome("unknown", reason="internal check of the no-subset certificate failed")
    return out


def _search_subset(A: IntMatrix, B: IntMatrix, T: IntMatrix) -> SearchOutcome:
    n, d = A.shape
    reasons = []
    for p in PRIMES[:3]:
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
                    cert = NoSubsetCertificate(p, (), (system.functional(positions, y, None),))
                    return SearchOutcome("none", certificate=cert, reason="the system is inconsistent mod p")
            red, piv = rref_mod(g, p, ncols=n + 1)
            if piv and piv[-1] == n:
                y = solve_left_mod(g, np.eye(1, n + 1, n, dtype=np.int64)[0], p)
                cert = NoSubsetCertificate(p, (), (system.functional(positions, y, None),))
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


def _meet_in_the_middle(system: "_System", A: IntMatrix, B: IntMatrix, T: IntMatrix) -> SearchOutcome:
    """n <= 24: one random functional R; subset sums of its values y_i meet its target t
    (mod p) in two halves. No meeting point: no S (certificate: R, all indices free)."""
    n, d, p = system.n, system.d, system.p
    rng = random.Random(2024)
    spurious = 0
    for _attempt in range(4):
        R = Functional(None, tuple((k, tuple(rng.randrange(p) for _ in range(d))) for k in range(d)))
        y, t = system.values(R)
        h = n // 2
        left = _subset_sums([int(v) for v in y[:h]], p)
        right = _subset_sums([int(v) for v in y[h:]], p)
        index: dict[int, list[int]] = {}
        for mask, val in enumerate(right.tolist()):
            index.setdefault(val, []).append(mask)
        matches = []
        for lmask, val in enumerate(left.tolist()):
            for rmask in index.get((t - val) % p, ()):
                matches.append((lmask, rmask))
        for lmask, rmask in matches:
            s = tuple(i for i in range(h) if lmask >> i & 1) + tuple(h + i for i in range(n - h) if rmask >> i & 1)
            if subset_residual_zero(A, B, T, s):
                return SearchOutcome("found", subset=s, reason=f"|S| = {len(s)} (meet in the middle)")
        if not matches:
            cert = NoSubsetCertificate(p, tuple(range(n)), (R,))
            return SearchOutcome("none", certificate=cert, reason="no subset sum meets the target mod p "
                                 "(meet in the middle)")
        spurious += len(matches)
    return SearchOutcome("unknown", reason=f"{spurious} spurious meet-in-the-middle matches")


def _pivot_certificate(system, positions, m, red, piv, free) -> NoSubsetCertificate:
    p, n = system.p, system.n
    if not free:
        # Unique solution mod p; some coordinate is not 0/1.
        sol = {c: int(red[j, n]) for j, c in enumerate(piv)}
        i0 = next(c for c in piv if sol[c] not in (0, 1))
        e = np.zeros(n, dtype=np.int64)
        e[i0] = 1
        y = solve_left_mod(m, e, p)
        return NoSubsetCertificate(p, (), (system.functional(positions, y, i0),))
    funcs = []
    for j, c in enumerate(piv):
        y = solve_left_mod(m, red[j, :n].copy(), p)
        funcs.append(system.functional(positions, y, c))
    return NoSubsetCertificate(p, tuple(free), tuple(funcs))


# ---------------------------------------------------------------- decide


def _ip(name: str) -> str:
    return f"{THEORY}.ImpossibilityInstances.{name}"


def _witness(inst: Instance, subset: tuple[int, ...]) -> Witness:
    s = set(subset)
    up = tuple(tuple(-v for v in r) if i in s else tuple(r) for i, r in enumerate(inst.W_up))
    b_up = b_down = None
    if inst.has_bias:
        c = inst.b_up or (Fraction(0),) * inst.n
        b0 = inst.b_down or (Fraction(0),) * inst.d
        b_up = tuple(-v if i in s else v for i, v in enumerate(c))
        b_down = tuple(b0[k] + sum((inst.W_down[k][i] * c[i] for i in subset), Fraction(0)) for k in range(inst.d))
    return Witness(subset=tuple(subset), W_up=up, W_down=tuple(tuple(r) for r in inst.W_down),
                   b_down=b_down, b_up=b_up)


def _check_shapes(inst: Instance) -> None:
    n, d = inst.n, inst.d
    if n == 0 or d == 0:
        raise InputError("empty weight matrices")
    if any(len(r) != d for r in inst.W_up):
        raise InputError(f"W_up must be n x d = {n} x {d}")
    if any(len(r) != n for r in inst.W_down):
        raise InputError(f"W_down must be d x n = {d} x {n}")
    if inst.activation.gated:
        if inst.W_gate is None or len(inst.W_gate) != n or any(len(r) != d for r in inst.W_gate):
            raise InputError(f"W_gate must be n x d = {n} x {d} for a gated activation")
    if inst.skip is not None and (len(inst.skip) != d or any(len(r) != d for r in inst.skip)):
        raise InputError(f"skip must be d x d = {d} x {d}")


def analyze(inst: Instance) -> Decision:
    """The decision together with its exact evidence (``Decision.evidence``)."""
    _check_shapes(inst)
    act = inst.activation
    skip_inv = invert_exact(inst.skip) if inst.skip is not None else None
    reduced = matmul_exact(skip_inv, inst.W_down) if skip_inv is not None and inst.d <= 64 else None
    base = dict(skip_inverse=skip_inv, reduced_down=reduced)
    name = act.name
    if act.gated or name.startswith("geglu"):
        if inst.has_bias:
            return Decision("outside_hypotheses", "R7", None,
                            "gated block with nonzero biases: R3 is bias-free, and with biases the "
                            "gated impossibility fails (R7)", method="classification", **base)
        return Decision("not_absorbable", "R3", _ip(f"{name}_not_absorbable"),
                        f"{name}: the gate is continuous at 0 and vanishes there; no residual gated "
                        "block with a nonzero skip is absorbable at any width (R3)",
                        method="classification", **base)
    hom = act.homogeneous_degree
    if name == "relu_pow" and hom is not None and hom != 1:
        if inst.has_bias:
            return Decision("outside_hypotheses", "R7", None,
                            f"relu^{hom} with nonzero biases: R2 is bias-free", method="classification", **base)
        thm = "relu2_not_absorbable" if hom == 2 else "relu_pow_not_absorbable"
        return Decision("not_absorbable", "R2", _ip(thm),
                        f"relu^{hom} is positively homogeneous of degree {hom} != 1: never absorbable (R2)",
                        method="classification", **base)
    if not act.odd_part_identity:
        raise InputError(f"unsupported activation {act.label!r}")
    if inst.has_bias and inst.skip is not None:
        return Decision("outside_hypotheses", "R7", None,
                        "nonzero biases together with a non-identity skip: no formal theorem covers this case",
                        method="classification", **base)
    A = scale_matrix(inst.W_up)
    B = scale_matrix(inst.W_down)
    T = scale_matrix(inst.skip) if inst.skip is not None else identity_int(inst.d)
    gen = check_generic(A, B)
    out = search_subset(A, B, T)
    ev = Evidence(A, B, T, gen.certificate, out.certificate)
    method = "subset search mod p, exact verification"
    common = dict(generic=gen.generic, evidence=ev, method=method, **base)
    via = " (after skip reduction R1: B~ = P^-1 B)" if inst.skip is not None else ""
    if out.status == "found":
        if inst.has_bias:
            return Decision("absorbable", "R7", f"{THEORY}.Biases.odd_part_absorbable_bias",
                            f"S = {list(out.subset)} gives sum b_i a_i^T = -I{via}; with biases the output "
                            "bias absorbs sum_S b_i c_i (R7)", witness=_witness(inst, out.subset), **common)
        return Decision("absorbable", "R5", f"{THEORY}.FlipSigns.odd_part_absorbable",
                        f"S = {list(out.subset)} gives B~[:,S] A[S,:] = -I{via}: flip rows S of W_up (R5 <=)",
                        witness=_witness(inst, out.subset), **common)
    if out.status == "unknown":
        return Decision("undecided", "R5", None, f"subset search inconclusive: {out.reason}", **common)
    # No S exists.
    if inst.has_bias:
        return Decision("outside_hypotheses", "R7", None,
                        "no subset S exists, but the block has nonzero biases: the (=>) direction of R5 "
                        "is bias-free", **common)
    if not gen.generic:
        return Decision("outside_hypotheses", "R5", None,
                        f"no subset S exists, but the weights are not generic ({gen.reason}); without "
                        "genericity the submatrix test does not decide (paper's counterexample)", **common)
    key = "relu" if name == "relu_pow" else name
    return Decision("not_absorbable", "R5", GENERIC_SUBMATRIX_THEOREMS[key],
                    f"generic weights and no S with B~[:,S] A[S,:] = -I{via} ({out.reason}): "
                    f"not absorbable at width n (R5 =>, {act.label})", **common)


def decide(instance: Instance) -> Decision:
    """Decide absorbability at width n exactly (see the module docstring)."""
    return analyze(instance)
