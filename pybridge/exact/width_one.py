"""Width ``n`` for a ReLU layer with one extra row (issue 20 item 3), exactly.

A layer whose ``W_up`` has one zero row (a pruned neuron) or one row on the line of another
(``a_z = (ln / ld) a_i1``), the other rows pairwise on distinct lines, has ``k = n - 1``
ridge classes. At width ``m = n = k + 1`` R8's condition leaves ``r = 0`` and ``|T| <= 1``:
some ``S`` makes ``M_S = L + sum_S gamma_t u_t^T`` zero or ``e u_t0^T``. This module finds a
linear refutation of every such ``(T, S)`` on a block (rows ``R1`` of ``W_down``, columns
``C`` of ``W_up``), the data Coq's ``CertifyWidthOneExtraResidues.cert_one_extra_res_not_absorbable``
checks: a prime ``p`` and the genericity projection ``(u, v)`` of the classes on a few of the
block's columns ``C2`` (distinct ratios mod ``p``, ``p ~ 2**30``: thousands of classes on two
columns), and a small prime ``q`` (below ``2**10`` first, ``2**21`` at most: Coq's checker sums products
unreduced, ``RefuteOneExtra.check_refute_raw``)
with basis functionals ``Y_m`` (``r1 x c`` residues) with ``gamma_t^T Y_m u_t = 0 mod q`` for
every class, one combination ``a_t`` per class with ``sum_m a_t[m] Y_m u_t = 0`` and
``a_t . <Y, L> != 0`` mod ``q``.

Everything is computed modulo the primes (NumPy, FLINT ``nmod_mat``); the refutation is sound
whatever the primes are (Coq re-checks it), and a prime that makes a check fail is replaced.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import gcd
from typing import Optional

import flint
import numpy as np

from pybridge.exact.blas_lu import max_size, solve_square
from pybridge.exact.modular import IntMatrix, random_primes

#: Primes of the refutation: below 2**31 (Coq's ``p_ok``), large enough that the ratios of
#: thousands of classes are distinct modulo ``p`` with high probability.
PRIME_LO, PRIME_HI = 2**29, 2**30
#: Primes of the refutation: below ``2**21`` (``check_refute_raw``: no product sum overflows).
#: Small ones first: the certificate carries the block modulo ``q``, six residues of 10 bits per
#: 63-bit literal (each literal costs Coq about 13 us to read); a class fails modulo ``q`` only
#: when both its candidate combinations do (about ``q**-2``). Larger primes when a small one
#: fails (weights crafted against small primes get ``undecided`` only after all of these).
REFUTE_RANGES = ((2**9, 2**10), (2**9, 2**10), (2**14, 2**15), (2**19, 2**20))
REFUTE_HI = 2**20
ATTEMPTS = 4


@dataclass(frozen=True)
class OneExtra:
    """Row ``z`` of ``W_up`` is ``(ln / ld)`` times row ``i1`` (``ln = 0``: a zero row), ``ld > 0``."""

    z: int
    i1: int
    ln: int
    ld: int
    #: column ``z`` of ``W_down`` is zero instead (a dead neuron; ``ln = 0``, row ``z`` anything)
    dead: bool = False

    @property
    def zero_row(self) -> bool:
        return self.ln == 0 and not self.dead


@dataclass(frozen=True)
class OneExtraRefutation:
    """The data of ``cert_one_extra_res_not_absorbable``: the block, the genericity prime ``p``,
    columns ``C2`` (two of ``C``) and projection ``(u, v)`` there, the refutation's prime ``q``
    and its residues ``Ys``, ``As`` mod ``q``."""

    extra: OneExtra
    R1: tuple[int, ...]
    C: tuple[int, ...]
    p: int
    u: tuple[int, ...]
    v: tuple[int, ...]
    Ys: tuple[tuple[tuple[int, ...], ...], ...]  # s functionals, r1 x c residues mod q each
    As: tuple[tuple[int, ...], ...]             # k combinations of s residues mod q
    A: IntMatrix                                 # W_up[:, C] (n x c)
    B: IntMatrix                                 # W_down[R1, :] (r1 x n)
    q: int = 0
    C2: tuple[int, ...] = ()                     # the columns of C where (u, v) separate the classes mod p


def _key(row: list[int]) -> tuple[int, ...]:
    """The row's line: divided by the gcd, first nonzero entry positive."""
    g = gcd(*row)
    first = next(x for x in row if x != 0)
    if first < 0:
        g = -g
    return tuple(x // g for x in row)


def _line_keys(num: np.ndarray) -> list[Optional[bytes | tuple[int, ...]]]:
    """One key per row, equal exactly for rows on one line (None: a zero row)."""
    if num.dtype != object:
        g = np.gcd.reduce(num, axis=1)
        nz = g != 0
        first = np.take_along_axis(num, np.argmax(num != 0, axis=1)[:, None], axis=1)[:, 0]
        g = np.where(first < 0, -g, g)
        norm = num // np.where(nz, g, 1)[:, None]
        return [norm[i].tobytes() if nz[i] else None for i in range(num.shape[0])]
    rows = [[int(x) for x in r] for r in num.tolist()]
    return [_key(r) if any(r) else None for r in rows]


def find_one_extra(A: IntMatrix, B: Optional[IntMatrix] = None) -> tuple[Optional[OneExtra], str]:
    """``(extra, why not)``: the rows of ``A`` are pairwise on distinct lines except exactly
    one zero row or exactly one pair on one line; or (given ``B``) they all are, and exactly
    one column of ``B`` is zero (a dead neuron: it drops out of the ridge form as a zero row
    would)."""
    num = A.numerators()
    n = num.shape[0]
    keys = _line_keys(num)
    zeros = [i for i in range(n) if keys[i] is None]
    seen: dict[object, int] = {}
    pairs: list[tuple[int, int]] = []
    for i, key in enumerate(keys):
        if key is None:
            continue
        if key in seen:
            pairs.append((seen[key], i))
        else:
            seen[key] = i
    found = f"{len(zeros)} zero row(s) and {len(pairs)} row(s) on another row's line"
    dead: list[int] = []
    if not zeros and not pairs and B is not None:
        dead = np.flatnonzero(~(B.numerators() != 0).any(axis=0)).tolist()
        found += f", {len(dead)} zero column(s) of W_down"
    if len(zeros) + len(pairs) + len(dead) != 1:
        return None, f"{found}: the linear refutation covers exactly one"
    if n < 2:
        return None, "fewer than two rows"
    if zeros or dead:
        z = (zeros or dead)[0]
        return OneExtra(z, 1 if z == 0 else 0, 0, 1, dead=bool(dead)), ""
    i1, z = pairs[0]
    a, b = num[z].tolist(), num[i1].tolist()
    j = next(q for q, x in enumerate(b) if x != 0)
    ln, ld = int(a[j]), int(b[j])
    if ld < 0:
        ln, ld = -ln, -ld
    g = gcd(ln, ld)
    return OneExtra(z, i1, ln // g, ld // g), ""


#: Relative cost in coqc of one entry of the block (reading its residue, a sixth of a literal
#: of about 13 us) and of one step of the checker's dot products (about 0.025 us): measured on
#: a 768 x 3072 layer with one zero row (2026-12-02: block 10 x 309, certified in 5.6-5.7 s;
#: 8 x 385: 5.9 s). 230 : 1 when the block went as codes, two per literal.
ENTRY_COST, STEP_COST = 100, 1


def block_shape(d: int, k: int, n: Optional[int] = None) -> Optional[tuple[int, int]]:
    """``(r1, c)`` with ``r1 c >= k + r1 + 1`` (room for ``r1 + 1`` basis functionals: each
    class's ``r1 x (r1 + 1)`` system has rank at most ``r1 - 1``, so two candidate combinations)
    that minimises Coq's estimated work: the ``n (r1 + c)`` entries the certificate carries and
    the ``(r1 + 1) r1 c k`` steps of the checker; None when no block of ``d x d`` is large enough."""
    rows = k + 1 if n is None else n
    best: Optional[tuple[int, int, int]] = None
    for r1 in range(1, d + 1):
        c = -(-(k + r1 + 1) // r1)
        if c > d:
            continue
        cost = ENTRY_COST * rows * (r1 + c) + STEP_COST * (r1 + 1) * r1 * c * k
        if best is None or cost < best[0]:
            best = (cost, r1, c)
    return None if best is None else (best[1], best[2])


def _mod(arr: np.ndarray, p: int) -> np.ndarray:
    if arr.dtype == object:
        return np.array([[int(x) % p for x in row] for row in arr.tolist()], dtype=np.int64).reshape(arr.shape)
    return np.remainder(arr, p).astype(np.int64)


def _nmod(arr: np.ndarray, p: int) -> flint.nmod_mat:
    r, c = arr.shape
    return flint.nmod_mat(r, c, arr.ravel().tolist(), p)


def _inv_mod(x: np.ndarray, p: int) -> np.ndarray:
    """``x^(p-2) mod p`` entrywise (the inverses mod a prime ``p < 2**31``, 0 for 0): square and
    multiply on ``int64`` residues, every product below ``2**62``."""
    base = np.remainder(x, p).astype(np.int64)
    out = np.ones_like(base)
    e = p - 2
    while e:
        if e & 1:
            out = out * base % p
        base = base * base % p
        e >>= 1
    return out


def _small_nullspace(M: list[list[int]], s: int, p: int) -> list[list[int]]:
    """A basis of ``{a : M a = 0 mod p}`` (``M``: a few rows of ``s`` residues), by elimination
    in Python ints (faster than a FLINT matrix for these tiny systems)."""
    rows = [list(r) for r in M]
    pivots: list[int] = []
    r = 0
    for col in range(s):
        piv = next((i for i in range(r, len(rows)) if rows[i][col] % p), None)
        if piv is None:
            continue
        rows[r], rows[piv] = rows[piv], rows[r]
        inv = pow(rows[r][col], p - 2, p)
        rows[r] = [x * inv % p for x in rows[r]]
        for i in range(len(rows)):
            if i != r and rows[i][col] % p:
                f = rows[i][col]
                rows[i] = [(x - f * y) % p for x, y in zip(rows[i], rows[r])]
        pivots.append(col)
        r += 1
    basis = []
    for free in (c for c in range(s) if c not in pivots):
        a = [0] * s
        a[free] = 1
        for i, col in enumerate(pivots):
            a[col] = -rows[i][free] % p
        basis.append(a)
    return basis


def _combinations(V: np.ndarray, ell: list[int], U: np.ndarray, G: np.ndarray, cL: int, r1: int, s: int,
                  p: int) -> list[tuple[int, ...]] | str:
    """For every class ``t`` a combination ``a`` with ``sum_m a[m] (Y_m u_t) = 0`` and
    ``a . ell != 0`` mod ``p`` (and a nonzero entry of ``u_t``).

    The ``r1 x s`` system ``M_t`` (``M_t[l, m] = (Y_m u_t)[l]``) has the left null vector
    ``g_t`` (the functionals kill ``g_t u_t^T``), so its last row follows from the others when
    ``g_t[r1 - 1] != 0``: one batched Gauss-Jordan elimination of the first ``r1 - 1`` rows
    (pivots on the diagonal) leaves ``s - r1 + 1`` candidates; Python elimination of the whole
    system for a class where that fails; a message when some class has no candidate."""
    k = V.shape[1]
    M = V.T.reshape(k, s, r1).transpose(0, 2, 1).copy()  # k x r1 x s: M[t, l, m] = (Y_m u_t)[l]
    ok = G[:, r1 - 1] % p != 0
    for col in range(r1 - 1):
        piv = M[:, col, col].copy()
        ok &= piv != 0
        inv = _inv_mod(piv, p)
        M[:, col, :] = M[:, col, :] * inv[:, None] % p
        for row in range(r1 - 1):
            if row != col:
                f = M[:, row, col].copy()
                M[:, row, :] = (M[:, row, :] - f[:, None] * M[:, col, :]) % p
    ellv = np.array(ell, dtype=np.int64) % p
    Um = np.remainder(U, p)
    pick = Um[np.arange(k), np.argmax(Um != 0, axis=1)] if k else np.zeros(0, dtype=np.int64)
    live = pick * (cL % p) % p != 0  # pick, cL < 2**31: no overflow
    # the candidates of the classes eliminated above, all at once: a[free] = 1,
    # a[row] = -M[t, row, free]; a . ell = ell[free] - sum_row M[t, row, free] ell[row]
    Mf = M[:, :r1 - 1, r1 - 1:]  # k x (r1 - 1) x (s - r1 + 1), residues
    D = (ellv[None, r1 - 1:] - (Mf * ellv[None, :r1 - 1, None] % p).sum(axis=1)) % p
    first = np.argmax(D != 0, axis=1)
    As = np.zeros((k, s), dtype=np.int64)
    rows = np.arange(k)
    As[rows, r1 - 1 + first] = 1
    As[:, :r1 - 1] = (-Mf[rows, :, first]) % p
    good = ok & live & (D[rows, first] != 0)
    out = As.tolist()
    for t in np.flatnonzero(~good).tolist():
        cands = _small_nullspace(V[:, t].reshape(s, r1).T.tolist(), s, p)
        alpha = next((a for a in cands if sum(x * y for x, y in zip(a, ell)) % p and int(pick[t]) * cL % p), None)
        if alpha is None:
            return f"no combination of the functionals refutes T = {{{t}}} modulo the prime"
        out[t] = alpha
    return [tuple(a) for a in out]


def refute(A: IntMatrix, B: IntMatrix, extra: OneExtra, seed: Optional[int] = None) -> tuple[
        Optional[OneExtraRefutation], str]:
    """The refutation of width ``n`` for the layer ``(A, B)`` (``A``: ``n x d`` rows of
    ``W_up``, ``B``: ``d x n`` ``W_down``) with its one extra row, or ``(None, why not)``."""
    n, d = A.shape
    k = n - 1
    shape = block_shape(d, k, n)
    if shape is None:
        return None, f"no block of a {d} x {d} matrix has room for {k} ridges and the functionals"
    r1, c = shape
    s = r1 + 1
    R1, C = tuple(range(r1)), tuple(range(c))
    z, i1 = extra.z, extra.i1
    rep = [t if t < z else t + 1 for t in range(k)]
    ci1 = i1 if i1 < z else i1 - 1
    Ab = A.numerators()[:, list(C)]
    Bb = B.numerators()[list(R1), :]
    rng = random.Random(seed)
    Ab_ = IntMatrix.from_numerators(Ab, A.den)
    Bb_ = IntMatrix.from_numerators(Bb, B.den)
    used: list[int] = []
    why = "no prime tried"
    gen: Optional[tuple[int, tuple[int, ...], tuple[int, ...], int]] = None
    for attempt in range(ATTEMPTS):
        p = random_primes(1, PRIME_LO, PRIME_HI, rng=rng, avoid=used)[0]
        used.append(p)
        # two columns separate thousands of float rows; small integers may agree on a few
        width = c if attempt == ATTEMPTS - 1 else min(c, 2 << attempt)
        uv, why = _generic(Ab[:, :width], rep, p, rng)
        if uv is not None:
            gen = (p, uv[0], uv[1], width)
            break
    if gen is None:
        return None, why
    C2 = C[:gen[3]]
    for lo, hi in REFUTE_RANGES:
        q = random_primes(1, lo, hi, rng=rng, avoid=used)[0]
        used.append(q)
        out, why = _refute_mod(Ab, Bb, A.den, B.den, extra, rep, ci1, R1, C, s, q, seen=len(C2))
        if out is not None:
            return OneExtraRefutation(extra, R1, C, gen[0], gen[1], gen[2], out[0], out[1], Ab_, Bb_, q, C2), ""
    return None, why


def _block_UGL(Ab: np.ndarray, Bb: np.ndarray, dA: int, dB: int, extra: OneExtra, rep: list[int], ci1: int,
               R1: tuple[int, ...], C: tuple[int, ...], p: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The block's ``U`` (``k x c``), ``G`` (``k x r1``) and ``L`` (``r1 x c``) mod ``p``
    (``CertifyWidthOneExtra.block_G``, ``block_L``)."""
    z, i1, ln, ld = extra.z, extra.i1, extra.ln, extra.ld
    r1, c = len(R1), len(C)
    Am = _mod(Ab, p)          # n x c
    Bm = _mod(Bb, p)          # r1 x n
    U = Am[rep]               # k x c
    G = (ld % p) * Bm[:, rep].T % p  # k x r1
    G[ci1] = (G[ci1] + (abs(ln) % p) * Bm[:, z]) % p
    L = np.zeros((r1, c), dtype=np.int64)
    diag = (ld * dA * dB) % p
    for l_ in range(r1):
        for j in range(c):
            if R1[l_] == C[j]:
                L[l_, j] = diag
    if ln < 0:
        L = (L + (ln % p) * (Bm[:, z][:, None] * Am[i1][None, :] % p)) % p
    return U, G, L


def _generic(Ab2: np.ndarray, rep: list[int], p: int, rng: random.Random
             ) -> tuple[Optional[tuple[tuple[int, ...], tuple[int, ...]]], str]:
    """The genericity projection ``(u, v)`` of the classes on the columns ``Ab2`` mod ``p``
    (distinct ratios ``(u . a) / (v . a)``: ``check_generic_sorted``), or ``(None, why not)``."""
    c = Ab2.shape[1]
    k = len(rep)
    U = _mod(Ab2, p)[rep]
    u = np.array([rng.randrange(1, 1024) for _ in range(c)], dtype=np.int64)
    v = np.array([rng.randrange(1, 1024) for _ in range(c)], dtype=np.int64)
    Uu, Uv = U @ u % p, U @ v % p  # entries < 2**30 * 2**10 * c: no overflow for c < 2**23
    if np.any(Uv == 0):
        return None, "a projection vanishes modulo the prime"
    ratios = Uu * _inv_mod(Uv, p) % p
    if len(np.unique(ratios)) != k:
        return None, "two ridge directions look parallel on the genericity columns modulo the prime"
    return (tuple(int(x) for x in u.tolist()), tuple(int(x) for x in v.tolist())), ""


def _refute_mod(Ab: np.ndarray, Bb: np.ndarray, dA: int, dB: int, extra: OneExtra, rep: list[int], ci1: int,
                R1: tuple[int, ...], C: tuple[int, ...], s: int, q: int, *, seen: int
                ) -> tuple[Optional[tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[tuple[int, ...], ...]]], str]:
    """The basis functionals ``Ys`` and per-class combinations ``As`` mod ``q``, or ``(None, why not)``;
    every class's kink must be nonzero mod ``q`` on the block's first ``seen`` rows of ``W_down``
    (``check_generic_sorted`` reads that many entries of each, ``nonzero_row``)."""
    ld = extra.ld
    r1, c, k = len(R1), len(C), len(rep)
    U, G, L = _block_UGL(Ab, Bb, dA, dB, extra, rep, ci1, R1, C, q)
    if not np.all(G[:, :seen].any(axis=1)):
        return None, "a ridge's kink vanishes modulo the prime on the rows the genericity check reads"
    # basis functionals: the nullspace of t |-> G[t] (x) U[t]
    K = (G[:, :, None] * U[:, None, :] % q).reshape(k, r1 * c)
    Ys = _kill_nullspace(K, s, q)
    if isinstance(Ys, str):
        return None, Ys
    W = Ys.reshape(s * r1, c)
    V = _matmul_mod(W, U.T, q)  # (s r1) x k: V[m r1 + l, t] = (Y_m u_t)[l]
    # every functional kills every kink: sum_l G[t, l] (Y_m u_t)[l] = 0 (what Coq checks first)
    if np.any((V.reshape(s, r1, k) * G.T[None, :, :] % q).sum(axis=1) % q):
        return None, "internal check failed: the basis functionals do not kill every kink"
    ell = [int(x) for x in _matmul_mod(Ys, L.reshape(r1 * c, 1), q)[:, 0].tolist()]
    cL = (ld * dB * dA) % q
    As = _combinations(V, ell, U, G, cL, r1, s, q)
    if isinstance(As, str):
        return None, As
    Yt = tuple(tuple(tuple(int(x) for x in Ys[m, l_ * c:(l_ + 1) * c].tolist()) for l_ in range(r1))
               for m in range(s))
    return (Yt, tuple(As)), ""


def _matmul_mod(X: np.ndarray, Y: np.ndarray, q: int) -> np.ndarray:
    """``X Y mod q`` for residues below ``q < 2**21``: by ``float64`` BLAS when every sum is
    below ``2**53`` (exact), else in ``int64`` chunks that cannot overflow (``2**42`` per
    product, at most ``2**20`` of them per chunk)."""
    if X.shape[1] * (q - 1) ** 2 < 2**53:
        return np.remainder(X.astype(np.float64) @ Y.astype(np.float64), q).astype(np.int64)
    step = 1 << 20
    out = np.zeros((X.shape[0], Y.shape[1]), dtype=np.int64)
    for c0 in range(0, X.shape[1], step):
        out = (out + X[:, c0:c0 + step] @ Y[c0:c0 + step]) % q
    return out


def _kill_nullspace(K: np.ndarray, s: int, q: int) -> np.ndarray | str:
    """``s`` independent vectors ``x`` with ``K x = 0 mod q`` (rows of an ``int64`` array), or why not.

    ``K = [K_B | K_F]`` with ``K_B`` its first ``k`` columns: when ``K_B`` is invertible mod
    ``q``, ``x = (-K_B^-1 K_F e_m, e_m)`` for ``m < s``, from one blocked LU over ``float64``
    BLAS (:func:`pybridge.exact.blas_lu.solve_square`, ``s`` right-hand sides); otherwise
    FLINT's nullspace (building its ``nmod_mat`` from Python ints costs about 1 us an entry)."""
    k, N = K.shape
    if N >= k + s and k and k <= max_size(REFUTE_HI) and q < REFUTE_HI:
        X = solve_square(np.asfortranarray(K[:, :k], dtype=np.float64), (-K[:, k:k + s]) % q, q)
        if X is not None:
            Ys = np.zeros((s, N), dtype=np.int64)
            Ys[:, :k] = X.T
            Ys[np.arange(s), k + np.arange(s)] = 1
            return Ys
    Xf, nullity = _nmod(K, q).nullspace()
    if nullity < s:
        return f"the kink functionals leave only {nullity} < {s} dimensions on the block"
    return np.array([[int(Xf[i, m]) for i in range(N)] for m in range(s)], dtype=np.int64).reshape(s, N)
