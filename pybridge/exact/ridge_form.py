"""Canonical ridge forms of residual blocks (paper.md R8, R8', R9), exactly.

A residual block ``x + B sigma(A x + c)`` is rewritten by grouping its rows
into classes:

- ``"lines"`` (ReLU): rows on the same line, ``(a_j, c_j) = lam (a_i, c_i)``,
  ``lam != 0``; ``ReLU(lam z) = |lam| ReLU(+-z)``;
- ``"signs"`` (GELU, GELU_tanh, SiLU and their rescalings): rows equal up to
  sign, ``lam = +-1``.

With ``sigma(-z) = sigma(z) - z`` the block becomes
``L x + l0 + sum_t gamma_t sigma(u_t . x + c_t)`` with one ridge per class
whose kink vector ``gamma_t = sum_{i in t} |lam_i| b_i`` is nonzero. Classes
whose kinks cancel are *flat*: they keep only their linear part. Rows with
``b_i = 0`` are dropped; rows with ``a_i = 0`` are constants, added to the offset
for ReLU and listed apart (``constant_rows``, ``constants``) for the GELU family. The linear
part is ``L = I - sum_{i: lam_i < 0} |lam_i| b_i u_{cls i}^T`` (flat classes included).

With biases and ``"signs"`` this is the canonical form of Coq's
``PmBiasCanonical.pm_bias_ridge_form_canonical``: classes of augmented rows
``(a_i, c_i) = +-(u_t, s_t)``, ``G_t = sum_{i in t} b_i``, a row with sign ``-1`` adds
``-b_i u_t^T`` to ``L`` and ``-b_i s_t`` to the offset, classes with ``G_t = 0`` dropped
(their linear part stays in ``L``), rows with ``a_i = 0`` the constants ``b_i sigma(c_i)``
(irrational in general, so kept symbolic: the offset ``l0`` of Coq's form is
``offset + sum_{(c, b) in constants} b sigma(c)``). The ridges are then pairwise not
equal up to sign with nonzero kinks (``generic_bias_signs``).

Everything is exact (:class:`fractions.Fraction`); this module knows nothing
about Coq (the checkers re-verify the grouping).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Optional, Sequence

ClassKind = Literal["lines", "signs"]
FMatrix = tuple[tuple[Fraction, ...], ...]


@dataclass(frozen=True)
class RidgeForm:
    """``x -> L x + offset + sum_t G[:, t] sigma(U[t] . x + shift[t])``.

    ``cls[i]`` is the class of row ``i`` of ``W_up`` (``-1``: dropped; a flat
    class has an index ``>= k``), ``lam[i]`` its scale against the class
    representative. ``flat`` lists the representatives of the flat classes.
    """

    kind: ClassKind
    d: int
    U: FMatrix
    G: FMatrix
    L: FMatrix
    shift: tuple[Fraction, ...]
    offset: tuple[Fraction, ...]
    cls: tuple[int, ...]
    lam: tuple[Fraction, ...]
    flat: FMatrix = ()
    #: Rows with ``a_i = 0``, ``c_i != 0`` and ``b_i != 0`` of a ``"signs"`` form: constants
    #: ``b_i sigma(c_i)`` that the output bias must add (irrational for GELU, so kept apart).
    constant_rows: tuple[int, ...] = ()
    #: ``(c_i, b_i)`` for each of ``constant_rows``: the output gets ``b_i sigma(c_i)`` on top of ``offset``.
    constants: tuple[tuple[Fraction, tuple[Fraction, ...]], ...] = ()

    @property
    def k(self) -> int:
        """The number of ridges (classes with a nonzero kink vector)."""
        return len(self.U)

    def kink(self, t: int) -> tuple[Fraction, ...]:
        """The kink vector ``gamma_t`` (column ``t`` of ``G``)."""
        return tuple(self.G[p][t] for p in range(self.d))


def _normal_key(row: Sequence[Fraction], kind: ClassKind) -> Optional[tuple[Fraction, ...]]:
    """A key equal for two rows iff they are in the same class (None for a zero row)."""
    first = next((v for v in row if v != 0), None)
    if first is None:
        return None
    if kind == "signs":
        return tuple(row) if first > 0 else tuple(-v for v in row)
    return tuple(v / first for v in row)


def _fractions(m: Sequence[Sequence[object]]) -> list[list[Fraction]]:
    return [[Fraction(v) for v in r] for r in m]  # type: ignore[arg-type, call-overload]


def canonical_form(
    W_up: Sequence[Sequence[object]],
    W_down: Sequence[Sequence[object]],
    kind: ClassKind,
    b_up: Optional[Sequence[object]] = None,
    b_down: Optional[Sequence[object]] = None,
) -> RidgeForm:
    """The ridge form of ``x + W_down sigma(W_up x + b_up) + b_down`` (identity skip).

    A skip ``P`` is reduced first by R1 (``W_down := P^-1 W_down``, ``L`` starts at
    ``I``); this function assumes that has been done."""
    A = _fractions(W_up)
    B = _fractions(W_down)
    n = len(A)
    d = len(B)
    c = [Fraction(v) for v in b_up] if b_up is not None else [Fraction(0)] * n  # type: ignore[arg-type, call-overload]
    offset = [Fraction(v) for v in b_down] if b_down is not None else [Fraction(0)] * d  # type: ignore[arg-type, call-overload]
    # Rows as affine functions (a_i, c_i); a row with a_i = 0 is a constant.
    aug = [A[i] + [c[i]] for i in range(n)]
    reps: list[list[Fraction]] = []
    members: list[list[int]] = []
    where: dict[tuple[Fraction, ...], int] = {}
    cls0 = [-1] * n
    lam0 = [Fraction(0)] * n
    const_rows: list[int] = []
    for i in range(n):
        if not any(B[p][i] for p in range(d)):
            continue
        if not any(A[i]):
            if c[i] == 0:
                continue
            if kind == "lines":  # ReLU: the constant b_i relu(c_i) is rational
                for p in range(d):
                    offset[p] += B[p][i] * max(c[i], Fraction(0))
            else:
                const_rows.append(i)
            continue
        key = _normal_key(aug[i], kind)
        assert key is not None
        j = where.get(key)
        if j is None:
            j = len(reps)
            where[key] = j
            reps.append(aug[i])
            members.append([])
        members[j].append(i)
        cls0[i] = j
        first = next(q for q in range(d + 1) if reps[j][q] != 0)
        lam0[i] = aug[i][first] / reps[j][first]
    # Kinks per class; classes with kink 0 are flat.
    kinks = [[sum((abs(lam0[i]) * B[p][i] for i in mem), Fraction(0)) for p in range(d)] for mem in members]
    ridge = [j for j in range(len(reps)) if any(kinks[j])]
    flat = [j for j in range(len(reps)) if not any(kinks[j])]
    order = {j: t for t, j in enumerate(ridge + flat)}
    # L = I - sum_{lam_i < 0} |lam_i| b_i u^T; sigma(-(u.x + s)) = sigma(u.x + s) - (u.x + s)
    # also moves |lam_i| b_i s into the offset.
    L = [[Fraction(int(p == q)) for q in range(d)] for p in range(d)]
    for i in range(n):
        if cls0[i] < 0 or lam0[i] > 0:
            continue
        u = reps[cls0[i]]
        w = abs(lam0[i])
        for p in range(d):
            coef = w * B[p][i]
            if coef:
                row = L[p]
                for q in range(d):
                    if u[q]:
                        row[q] -= coef * u[q]
                offset[p] -= coef * u[d]
    # Flat classes: sum_{i in t} |lam_i| b_i sigma(u.x + s) vanishes (kink 0), keep nothing else.
    U = tuple(tuple(reps[j][:d]) for j in ridge)
    G = tuple(tuple(kinks[j][p] for j in ridge) for p in range(d))
    return RidgeForm(
        kind=kind,
        d=d,
        U=U,
        G=G,
        L=tuple(tuple(r) for r in L),
        shift=tuple(reps[j][d] for j in ridge),
        offset=tuple(offset),
        cls=tuple(order[x] if x >= 0 else -1 for x in cls0),
        lam=tuple(lam0),
        flat=tuple(tuple(reps[j][:d]) for j in flat),
        constant_rows=tuple(const_rows),
        constants=tuple((c[i], tuple(B[p][i] for p in range(d))) for i in const_rows),
    )
