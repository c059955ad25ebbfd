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

from pybridge.exact.ridge_form import FMatrix, RidgeForm

#: Exhaustive search over (T, S) (3**k pairs) up to this many ridges.
EXHAUSTIVE_MAX_K = 8

_ZERO = Fraction(0)


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


# ---------------------------------------------------------------- exact row reduction


def _eliminate(v: list[Fraction], basis: list[tuple[int, list[Fraction]]]) -> tuple[list[Fraction], list[Fraction]]:
    """Reduce ``v`` by the pivots of ``basis`` (pivot entries 1); return remainder and coefficients."""
    coef = [_ZERO] * len(basis)
    v = list(v)
    for b, (piv, row) in enumerate(basis):
        f = v[piv]
        if f:
            coef[b] = f
            v = [x - f * y for x, y in zip(v, row)]
    return v, coef


def _add_to_basis(v: list[Fraction], basis: list[tuple[int, list[Fraction]]]) -> Optional[int]:
    """Add the reduced nonzero ``v`` to ``basis`` (keeping it fully reduced); return its index."""
    piv = next((q for q, x in enumerate(v) if x != 0), None)
    if piv is None:
        return None
    inv = 1 / v[piv]
    v = [x * inv for x in v]
    for b, (p, row) in enumerate(basis):
        f = row[piv]
        if f:
            basis[b] = (p, [x - f * y for x, y in zip(row, v)])
    basis.append((piv, v))
    return len(basis) - 1


# ---------------------------------------------------------------- the condition


def shifted_linear(form: RidgeForm, S: Sequence[int]) -> list[list[Fraction]]:
    """``M_S = L + sum_{t in S} gamma_t u_t^T``."""
    M = [list(r) for r in form.L]
    for t in S:
        u = form.U[t]
        for p in range(form.d):
            g = form.G[p][t]
            if g:
                M[p] = [x + g * y for x, y in zip(M[p], u)]
    return M


def condition_for(form: RidgeForm, T: Sequence[int], S: Sequence[int]) -> WidthData:
    """The exact ``(E, P, Q)`` for ``(T, S)`` with the least ``r``.

    Each row ``m_p`` of ``M_S`` is written ``sum_{t in T'} E[p][t] u_t + sum_l P[p][l] q_l``
    with ``T'`` a maximal independent part of ``T`` and ``q_l`` a basis of the rows
    modulo ``span{u_t : t in T}``."""
    d, k = form.d, form.k
    basis: list[tuple[int, list[Fraction]]] = []
    owner: list[tuple[str, int]] = []  # basis element -> ("u", t) or ("q", l)
    for t in T:
        rem, _ = _eliminate(list(form.U[t]), basis)
        if _add_to_basis(rem, basis) is not None:
            owner.append(("u", t))
    M = shifted_linear(form, S)
    Q: list[list[Fraction]] = []
    for p in range(d):
        rem, _ = _eliminate(M[p], basis)
        if _add_to_basis(rem, basis) is not None:
            Q.append(rem)
            owner.append(("q", len(Q) - 1))
    r = len(Q)
    # Express the rows of M in the original vectors u_t (t in T') and q_l: solve with the
    # (non-reduced) generators, exactly, by a small dense solve.
    gens = [list(form.U[t]) for kind, t in owner if kind == "u"] + Q
    Tprime = [t for kind, t in owner if kind == "u"]
    coeffs = _solve_rows(gens, M)
    E = [[_ZERO] * k for _ in range(d)]
    P = [[_ZERO] * r for _ in range(d)]
    for p in range(d):
        for a, t in enumerate(Tprime):
            E[p][t] = coeffs[p][a]
        for l in range(r):
            P[p][l] = coeffs[p][len(Tprime) + l]
    return WidthData(
        T=tuple(sorted(T)),
        S=tuple(sorted(S)),
        r=r,
        E=tuple(tuple(x) for x in E),
        P=tuple(tuple(x) for x in P),
        Q=tuple(tuple(x) for x in Q),
    )


def _solve_rows(gens: list[list[Fraction]], targets: list[list[Fraction]]) -> list[list[Fraction]]:
    """Coefficients ``c`` with ``target = sum_a c[a] gens[a]`` for each target (gens independent)."""
    g = len(gens)
    if g == 0:
        return [[] for _ in targets]
    ncols = len(gens[0])
    # Gauss-Jordan on the transposed system [gens^T | targets^T].
    aug = [[gens[a][q] for a in range(g)] + [t[q] for t in targets] for q in range(ncols)]
    row = 0
    for col in range(g):
        piv = next((r for r in range(row, ncols) if aug[r][col] != 0), None)
        if piv is None:
            raise ValueError("generators are dependent")
        aug[row], aug[piv] = aug[piv], aug[row]
        inv = 1 / aug[row][col]
        aug[row] = [x * inv for x in aug[row]]
        for r2 in range(ncols):
            if r2 != row and aug[r2][col]:
                f = aug[r2][col]
                aug[r2] = [x - f * y for x, y in zip(aug[r2], aug[row])]
        row += 1
    for r2 in range(row, ncols):
        if any(aug[r2][g:]):
            raise ValueError("a target is outside the span of the generators")
    return [[aug[a][g + j] for a in range(g)] for j in range(len(targets))]


def condition_holds(form: RidgeForm, data: WidthData) -> bool:
    """Exactly ``L + sum_S G u^T == sum_T E u^T + P Q`` and ``T``, ``S`` disjoint."""
    if set(data.T) & set(data.S):
        return False
    M = shifted_linear(form, data.S)
    for p in range(form.d):
        for q in range(form.d):
            rhs = sum((data.E[p][t] * form.U[t][q] for t in data.T), _ZERO)
            rhs += sum((data.P[p][l] * data.Q[l][q] for l in range(data.r)), _ZERO)
            if M[p][q] != rhs:
                return False
    return True


# ---------------------------------------------------------------- the witness block


@dataclass(frozen=True)
class ExplicitBlock:
    """Residual-free weights ``W_down sigma(W_up x + b_up) + b_down`` of width ``m``.

    ``sigma_constants`` (GELU family with biases, rows with ``a_i = 0``): pairs ``(c, b)``
    whose ``b sigma(c)`` the output bias also gets; it is irrational in general, so it is
    kept symbolic and the true output bias is ``b_down + sum b sigma(c)``."""

    W_up: FMatrix
    b_up: tuple[Fraction, ...]
    W_down: FMatrix
    b_down: tuple[Fraction, ...]
    sigma_constants: tuple[tuple[Fraction, tuple[Fraction, ...]], ...] = ()

    def evaluable(self) -> tuple[FMatrix, tuple[Fraction, ...], FMatrix, tuple[Fraction, ...]]:
        """``(W_up, b_up, W_down, b_down)`` of the same function with every rational weight:
        each ``b sigma(c)`` of ``sigma_constants`` becomes a row ``(0, c)`` with column ``b``
        (a wider block, for evaluating the function only)."""
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
    ``(-q_l, -p_l)``. Padding rows are zero. Shifts follow the rows' signs, and the
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
    zero_row = tuple(_ZERO for _ in range(d))
    while len(rows) < m:
        rows.append((zero_row, _ZERO, zero_row))
    return ExplicitBlock(
        W_up=tuple(r[0] for r in rows),
        b_up=tuple(r[1] for r in rows),
        W_down=tuple(tuple(r[2][p] for r in rows) for p in range(d)),
        b_down=tuple(offset),
        sigma_constants=form.constants,
    )


# ---------------------------------------------------------------- searching


def _independent_subset(form: RidgeForm) -> tuple[int, ...]:
    """A maximal set of ridges whose directions are linearly independent (greedy)."""
    basis: list[tuple[int, list[Fraction]]] = []
    chosen = []
    for t in range(form.k):
        rem, _ = _eliminate(list(form.U[t]), basis)
        if _add_to_basis(rem, basis) is not None:
            chosen.append(t)
    return tuple(chosen)


def best_data_exhaustive(form: RidgeForm) -> WidthData:
    """The data of least width over all disjoint ``(T, S)`` (3**k pairs: small ``k`` only)."""
    k = form.k
    best: Optional[WidthData] = None
    for nt in range(k + 1):
        for T in combinations(range(k), nt):
            rest = [t for t in range(k) if t not in T]
            for ns in range(len(rest) + 1):
                for S in combinations(rest, ns):
                    data = condition_for(form, T, S)
                    if best is None or data.width(k) < best.width(k):
                        best = data
            if best is not None and best.width(k) <= k + nt:
                return best  # no larger T can do better
    assert best is not None
    return best


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
    (``"found"`` with ``subset``, ``"none"``, or None if not run). Exhaustive for
    ``k <= EXHAUSTIVE_MAX_K``; otherwise the lower bound is ``k`` (``k + 1`` when no
    ``S`` exists) and the upper bound a heuristic choice."""
    k = form.k
    if k <= EXHAUSTIVE_MAX_K:
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
