"""R8's width condition on a canonical ridge form, exactly.

For a ridge form ``L x + sum_t gamma_t sigma(u_t . x)`` with ``k`` ridges
(:mod:`pybridge.exact.ridge_form`), a residual-free block of width ``m`` equals it
iff there are disjoint ``T, S`` among the ridges and ``r`` with
``k + |T| + 2 r <= m`` and ``L + sum_{t in S} gamma_t u_t^T = sum_{t in T} e_t u_t^T + P Q``
(inner dimension ``r``) — Coq's ``RidgeForm.width_condition``. So the smallest
absorbing width is ``k + min_{T, S} (|T| + 2 rank((L + sum_S gamma_t u_t^T) Q_T))``
where ``Q_T`` spans the complement of ``span{u_t : t in T}``.

:func:`condition_for` turns a choice of ``(T, S)`` into the exact data
``(E, P, Q)`` with the least ``r``; :func:`explicit_block` builds the width-``m``
block that the Coq sufficiency theorem builds; :func:`min_width` searches.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Optional, Sequence

import flint
import numpy as np

from pybridge.exact.modular import random_primes, rank_mod, rref_mod
from pybridge.exact.ridge_form import FMatrix, RidgeForm

#: Hard cap on the ridges of the exhaustive search over (T, S) (3**k pairs; the Coq rank
#: certificate of a "not absorbable" verdict also walks all 3**k pairs, ``RankCheck.enum_ts``).
EXHAUSTIVE_MAX_K = 12
#: Work budget of the exhaustive search: pairs (T, S) times d^2 residue operations each.
SEARCH_BUDGET = 60_000_000
#: Primes of the modular rank bounds: below 2**20, so int64 products of residues never overflow.
_PRIME_LO, _PRIME_HI = 2**19, 2**20
_ATTEMPTS = 3

_ZERO = Fraction(0)


def exhaustive_feasible(form: RidgeForm) -> bool:
    """The exhaustive search over all ``3**k`` pairs ``(T, S)`` fits :data:`SEARCH_BUDGET`
    (and ``k <= EXHAUSTIVE_MAX_K``)."""
    k, d = form.k, form.d
    return k <= EXHAUSTIVE_MAX_K and 3**k * (d * d + d + 1) <= SEARCH_BUDGET


@dataclass(frozen=True)
class WidthData:
    """Exact data of R8's condition: ``L + sum_S G u^T = sum_T E u^T + P Q``."""

    T: tuple[int, ...]
    S: tuple[int, ...]
    r: int
    E: FMatrix  # d x k; only the columns in T matter
    P: FMatrix  # d x r
    Q: FMatrix  # r x d

    def width(self, k: int) -> int:
        """``k + |T| + 2 r``: the width this data needs."""
        return k + len(self.T) + 2 * self.r


@dataclass(frozen=True)
class MinWidth:
    """Bounds on the smallest absorbing width; ``exact`` when they meet."""

    lower: int
    upper: int
    data: WidthData
    lower_reason: str

    @property
    def exact(self) -> bool:
        return self.lower == self.upper


# ---------------------------------------------------------------- exact integer algebra (FLINT)


def _fmpz(rows: np.ndarray) -> flint.fmpz_mat:
    r, c = rows.shape
    return flint.fmpz_mat(r, c, [int(v) for v in rows.ravel().tolist()])


def _fmpz_rows(m: flint.fmpz_mat) -> list[list[int]]:
    return [[int(v) for v in row] for row in m.tolist()]


def shifted_int(form: RidgeForm, S: Sequence[int]) -> tuple[flint.fmpz_mat, int]:
    """``(M, D)`` with ``M / D = L + sum_{t in S} gamma_t u_t^T`` exactly
    (``M = dG dU L + dL sum_S G_t U_t``, ``D = dL dG dU``)."""
    U, G, L = form.Ui, form.Gi, form.Li
    M = _fmpz(L.numerators()) * (G.den * U.den)
    s = sorted(S)
    if s:
        M += (_fmpz(G.numerators()[:, s]) * _fmpz(U.numerators()[s, :])) * L.den
    return M, L.den * G.den * U.den


def _independent_rows(rows: np.ndarray) -> list[int]:
    """Indices of a maximal independent set of ``rows`` (greedy in order), exactly: the
    pivot columns of the reduced echelon form of the transpose."""
    if rows.shape[0] == 0:
        return []
    R, _, _ = _fmpz(rows).transpose().rref()
    out = []
    for row in R.tolist():
        nz = next((j for j, v in enumerate(row) if v != 0), None)
        if nz is None:
            break
        out.append(nz)
    return out


def shifted_linear(form: RidgeForm, S: Sequence[int]) -> list[list[Fraction]]:
    """``M_S = L + sum_{t in S} gamma_t u_t^T`` (Fractions)."""
    M, D = shifted_int(form, S)
    return [[Fraction(int(v), D) for v in row] for row in M.tolist()]


def condition_for(form: RidgeForm, T: Sequence[int], S: Sequence[int]) -> WidthData:
    """The exact ``(E, P, Q)`` for ``(T, S)`` with the least ``r``.

    Each row ``m_p`` of ``M_S`` is written ``sum_{t in T'} E[p][t] u_t + sum_l P[p][l] q_l``
    with ``T'`` a maximal independent part of ``T`` and ``q_l`` rows of ``M_S`` independent
    modulo ``span{u_t : t in T}``: one fraction-free reduced echelon form (FLINT) of
    ``[U_T'; M_S]^T``, whose entries are the coefficients."""
    d, k = form.d, form.k
    Tl = sorted(T)
    Un = form.Ui.numerators()
    Tp = [Tl[i] for i in _independent_rows(Un[Tl, :])] if Tl else []
    M, D = shifted_int(form, S)
    H = flint.fmpz_mat(len(Tp) + d, d, [int(v) for v in Un[Tp, :].ravel().tolist()]
                       + [int(v) for row in M.tolist() for v in row]) if d else flint.fmpz_mat(0, 0)
    R, den_z, _ = H.transpose().rref()
    rows = _fmpz_rows(R)
    den = int(den_z)
    pivots: list[int] = []
    for row in rows:
        nz = next((j for j, v in enumerate(row) if v != 0), None)
        if nz is None:
            break
        pivots.append(nz)
    if pivots[:len(Tp)] != list(range(len(Tp))):
        raise ArithmeticError("the directions of T' are not independent")
    J = [c - len(Tp) for c in pivots[len(Tp):]]  # rows of M_S that extend span(U_T)
    r = len(J)
    dU = form.Ui.den
    E = [[_ZERO] * k for _ in range(d)]
    P = [[_ZERO] * r for _ in range(d)]
    for p in range(d):
        col = len(Tp) + p
        for a, t in enumerate(Tp):
            v = rows[a][col]
            if v:
                E[p][t] = Fraction(v * dU, den * D)
        for l in range(r):
            v = rows[len(Tp) + l][col]
            if v:
                P[p][l] = Fraction(v, den)
    Mrows = M.tolist()
    Q = [tuple(Fraction(int(v), D) for v in Mrows[j]) for j in J]
    return WidthData(
        T=tuple(sorted(T)),
        S=tuple(sorted(S)),
        r=r,
        E=tuple(tuple(x) for x in E),
        P=tuple(tuple(x) for x in P),
        Q=tuple(Q),
    )


def _fmpq(m: Sequence[Sequence[Fraction]], rows: int, cols: int) -> flint.fmpq_mat:
    return flint.fmpq_mat(rows, cols, [flint.fmpq(v.numerator, v.denominator) for r in m for v in r])


def condition_holds(form: RidgeForm, data: WidthData) -> bool:
    """Exactly ``L + sum_S G u^T == sum_T E u^T + P Q`` and ``T``, ``S`` disjoint (FLINT rationals)."""
    if set(data.T) & set(data.S):
        return False
    d = form.d
    M, D = shifted_int(form, data.S)
    lhs = flint.fmpq_mat(M) / D
    Tl = list(data.T)
    rhs = flint.fmpq_mat(d, d)
    if Tl:
        Et = _fmpq([[data.E[p][t] for t in Tl] for p in range(d)], d, len(Tl))
        Ut = flint.fmpq_mat(_fmpz(form.Ui.numerators()[Tl, :])) / form.Ui.den
        rhs += Et * Ut
    if data.r:
        rhs += _fmpq(data.P, d, data.r) * _fmpq(data.Q, data.r, d)
    return bool(lhs == rhs)


# ---------------------------------------------------------------- modular rank bounds


class _ModularForm:
    """``U``, ``G``, ``L`` modulo a prime ``p < 2**20``; ``M_S`` scaled by ``dL dG dU``."""

    def __init__(self, form: RidgeForm, p: int) -> None:
        self.p = p
        self.U = np.remainder(form.Ui.numerators(), p).astype(np.int64)
        self.G = np.remainder(form.Gi.numerators(), p).astype(np.int64)
        self.L = np.remainder(form.Li.numerators(), p).astype(np.int64)
        self.cL = (form.Gi.den * form.Ui.den) % p
        self.cS = form.Li.den % p

    def shifted(self, S: Sequence[int]) -> np.ndarray:
        p = self.p
        M = self.L * self.cL % p
        s = list(S)
        if s:
            M = (M + (self.G[:, s] @ self.U[s, :] % p) * self.cS) % p
        return M

    def rank_with(self, M: np.ndarray, T: Sequence[int]) -> int:
        """``rank_p([M; U_T])``: a lower bound for the rank over Q."""
        if T:
            M = np.concatenate([M, self.U[list(T), :]], axis=0)
        return rank_mod(M, self.p)


def _exact_rank(form: RidgeForm, T: Sequence[int]) -> int:
    if not T:
        return 0
    return len(_independent_rows(form.Ui.numerators()[sorted(T), :]))


def _search_lower(form: RidgeForm, p: int) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """The least ``k + |T| + 2 lb(T, S)`` over all disjoint ``(T, S)`` and an argmin, with
    ``lb = rank_p([M_S; U_T]) - rank_Q(U_T) <= rank_Q(M_S Q_T)`` (sound lower bounds)."""
    k = form.k
    mf = _ModularForm(form, p)
    cache: dict[tuple[int, ...], np.ndarray] = {}
    cacheable = 2**k * form.d * form.d <= 20_000_000
    best: Optional[tuple[int, tuple[int, ...], tuple[int, ...]]] = None
    for nt in range(k + 1):
        if best is not None and k + nt >= best[0]:
            break
        for T in combinations(range(k), nt):
            rq = _exact_rank(form, T)
            rest = [t for t in range(k) if t not in T]
            for ns in range(len(rest) + 1):
                for S in combinations(rest, ns):
                    M = cache.get(S) if cacheable else None
                    if M is None:
                        M = mf.shifted(S)
                        if cacheable:
                            cache[S] = M
                    lb = max(0, mf.rank_with(M, T) - rq)
                    w = k + nt + 2 * lb
                    if best is None or w < best[0]:
                        best = (w, T, S)
                        if lb == 0:
                            return best
    assert best is not None
    return best


# ---------------------------------------------------------------- the witness block


@dataclass(frozen=True)
class ExplicitBlock:
    """Residual-free weights ``W_down sigma(W_up x + b_up) + b_down`` of width ``width``.

    Only the rows the construction needs are held; the other ``padding`` rows of the
    width-``width`` block are zero (``W_up`` row 0, shift 0, ``W_down`` column 0: they add
    ``0 * sigma(0) = 0``), so a huge width costs nothing.

    ``sigma_constants`` (GELU family with biases, rows with ``a_i = 0``): pairs ``(c, b)``
    whose ``b sigma(c)`` the output bias also gets; it is irrational in general, so it is
    kept symbolic and the true output bias is ``b_down + sum b sigma(c)``."""

    W_up: FMatrix
    b_up: tuple[Fraction, ...]
    W_down: FMatrix
    b_down: tuple[Fraction, ...]
    sigma_constants: tuple[tuple[Fraction, tuple[Fraction, ...]], ...] = ()
    #: The block's width (rows held plus zero padding rows); -1: exactly the rows held.
    width: int = -1

    @property
    def padding(self) -> int:
        """How many zero rows complete the held rows to :attr:`width`."""
        return max(0, self.width - len(self.W_up)) if self.width >= 0 else 0

    def evaluable(self) -> tuple[FMatrix, tuple[Fraction, ...], FMatrix, tuple[Fraction, ...]]:
        """``(W_up, b_up, W_down, b_down)`` of the same function with every rational weight
        (padding rows left out: they add nothing): each ``b sigma(c)`` of ``sigma_constants``
        becomes a row ``(0, c)`` with column ``b`` (a wider block, for evaluating the function only)."""
        if not self.sigma_constants:
            return self.W_up, self.b_up, self.W_down, self.b_down
        d = len(self.b_down)
        zero = tuple(_ZERO for _ in range(d))
        up = self.W_up + tuple(zero for _ in self.sigma_constants)
        b_up = self.b_up + tuple(c for c, _ in self.sigma_constants)
        down = tuple(self.W_down[p] + tuple(b[p] for _, b in self.sigma_constants) for p in range(d))
        return up, b_up, down, self.b_down


def explicit_block(form: RidgeForm, data: WidthData, m: int) -> ExplicitBlock:
    """The width-``m`` block that equals the ridge form (Coq's sufficiency construction).

    Class ``t``: in ``S`` one row ``(-u_t, gamma_t)``; in ``T`` rows ``(u_t, gamma_t + e_t)``
    and ``(-u_t, -e_t)``; else ``(u_t, gamma_t)``. Each ``l < r``: rows ``(q_l, p_l)`` and
    ``(-q_l, -p_l)``. The remaining ``m - k - |T| - 2r`` rows are zero and not built
    (:attr:`ExplicitBlock.padding`). Shifts follow the rows' signs, and the
    output bias absorbs what the flipped shifts leave (and the form's constants
    ``b_i sigma(c_i)``, kept symbolic in ``sigma_constants``)."""
    d, k = form.d, form.k
    need = data.width(k)
    if m < need:
        raise ValueError(f"width {m} is below the {need} this data needs")
    rows: list[tuple[tuple[Fraction, ...], Fraction, tuple[Fraction, ...]]] = []
    offset = list(form.offset)
    S, T = set(data.S), set(data.T)
    for t in range(k):
        u, s, g = form.U[t], form.shift[t], form.kink(t)
        if t in T:
            e = tuple(data.E[p][t] for p in range(d))
            rows.append((u, s, tuple(a + b for a, b in zip(g, e))))
            rows.append((tuple(-x for x in u), -s, tuple(-x for x in e)))
            # e (u.x + s) contributes e s to the constant: cancel it.
            offset = [o - x * s for o, x in zip(offset, e)]
        elif t in S:
            rows.append((tuple(-x for x in u), -s, g))
            offset = [o + x * s for o, x in zip(offset, g)]
        else:
            rows.append((u, s, g))
    for l in range(data.r):
        q = data.Q[l]
        pcol = tuple(data.P[p][l] for p in range(d))
        rows.append((q, _ZERO, pcol))
        rows.append((tuple(-x for x in q), _ZERO, tuple(-x for x in pcol)))
    return ExplicitBlock(
        W_up=tuple(r[0] for r in rows),
        b_up=tuple(r[1] for r in rows),
        W_down=tuple(tuple(r[2][p] for r in rows) for p in range(d)),
        b_down=tuple(offset),
        sigma_constants=form.constants,
        width=m,
    )


# ---------------------------------------------------------------- searching


def _independent_subset(form: RidgeForm) -> tuple[int, ...]:
    """A maximal set of ridges whose directions are linearly independent (greedy, exact).

    Candidates are the pivot columns of ``U^T`` modulo a prime (independent mod p, hence
    over Q); the set is completed exactly when the prime lost rank."""
    k = form.k
    if k == 0:
        return ()
    Un = form.Ui.numerators()
    p = random_primes(1, _PRIME_LO, _PRIME_HI)[0]

    _, piv = rref_mod(np.remainder(Un, p).astype(np.int64).T.copy(), p)
    chosen = list(piv)
    if len(chosen) < min(form.d, k) and len(_independent_rows(Un)) > len(chosen):
        chosen = _independent_rows(Un)  # an unlucky prime: the exact greedy choice
    return tuple(sorted(chosen))


def best_data_exhaustive(form: RidgeForm) -> WidthData:
    """The data of least width over all disjoint ``(T, S)`` (3**k pairs: small ``k`` only).

    Modular rank lower bounds (:func:`_search_lower`) find the least width and a pair
    reaching it; the pair's exact data (:func:`condition_for`) must meet that bound (else
    another prime). Raises :class:`ArithmeticError` if no prime of :data:`_ATTEMPTS` does."""
    k = form.k
    used: list[int] = []
    for _ in range(_ATTEMPTS):
        p = random_primes(1, _PRIME_LO, _PRIME_HI, avoid=used)[0]
        used.append(p)
        w, T, S = _search_lower(form, p)
        data = condition_for(form, T, S)
        if data.width(k) == w:
            return data
    raise ArithmeticError("the modular rank bounds did not meet the exact data for any prime tried")


#: The cheap witnesses' exact data (:func:`condition_for`: a fraction-free echelon form of a
#: ``(|T| + d) x d`` integer matrix whose entries grow with ``d``) take 0.3 s at ``d = 64``,
#: 4 s at ``d = 128`` and grow about 15-fold per doubling (an hour or more at ``d = 768``):
#: beyond this dimension they are not attempted.
WITNESS_MAX_D = 192


def witness_feasible(form: RidgeForm) -> bool:
    """:func:`heuristic_data` fits the budget (:data:`WITNESS_MAX_D`)."""
    return form.d <= WITNESS_MAX_D


def heuristic_lower(form: RidgeForm) -> int:
    """A lower bound on the width of both of :func:`heuristic_data`'s choices, from ranks
    modulo a prime (at most the ranks over Q): ``k + 2 rank(L)`` for ``T = S = {}`` and
    ``k + rank(U)`` for ``T`` spanning ``span U``. Seconds where the exact data (a
    fraction-free echelon form of a ``2d x d`` integer matrix) take hours at ``d = 768``."""
    p = random_primes(1, _PRIME_LO, _PRIME_HI)[0]
    mf = _ModularForm(form, p)
    return form.k + min(2 * rank_mod(mf.shifted(()), p), rank_mod(mf.U, p))


def heuristic_data(form: RidgeForm, subset: Optional[Sequence[int]] = None) -> WidthData:
    """A good (not always least) choice: ``subset`` as ``S`` if one makes ``M_S = 0``,
    else the better of ``T = {}`` and ``T`` = independent ridges spanning ``span U``."""
    if subset is not None:
        return condition_for(form, (), subset)
    a = condition_for(form, (), ())
    b = condition_for(form, _independent_subset(form), ())
    return a if a.width(form.k) <= b.width(form.k) else b


def min_width(form: RidgeForm, subset_search: Optional[str] = None,
              subset: Optional[Sequence[int]] = None) -> MinWidth:
    """Bounds on the least absorbing width.

    ``subset_search``: the outcome of the exact search for ``S`` with ``M_S = 0``
    (``"found"`` with ``subset``, ``"none"``, or None if not run). Exhaustive when
    :func:`exhaustive_feasible`; otherwise the lower bound is ``k`` (``k + 1`` when no
    ``S`` exists) and the upper bound a heuristic choice."""
    k = form.k
    if exhaustive_feasible(form):
        data = best_data_exhaustive(form)
        w = data.width(k)
        return MinWidth(w, w, data, f"exhaustive search over all (T, S) for k = {k}")
    if subset_search == "found" and subset is not None:
        data = heuristic_data(form, subset)
        return MinWidth(k, k, data, f"a subset S with M_S = 0 gives width k = {k}")
    data = heuristic_data(form)
    if subset_search == "none":
        return MinWidth(k + 1, max(k + 1, data.width(k)), data, "no S with M_S = 0: width k is impossible")
    return MinWidth(k, data.width(k), data, f"at least one row per ridge: k = {k}")
