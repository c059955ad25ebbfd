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

Everything is exact: integers over common denominators (:class:`~pybridge.exact.modular.IntMatrix`),
Fractions for the per-row scales; this module knows nothing about Coq (the checkers
re-verify the grouping).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import gcd, lcm
from typing import Literal, Optional, Sequence

import numpy as np

from pybridge.exact.modular import IntMatrix, scale_matrix

ClassKind = Literal["lines", "signs"]
FMatrix = tuple[tuple[Fraction, ...], ...]


@dataclass(frozen=True)
class RidgeForm:
    """``x -> L x + offset + sum_t G[:, t] sigma(U[t] . x + shift[t])``.

    ``cls[i]`` is the class of row ``i`` of ``W_up`` (``-1``: dropped; a flat
    class has an index ``>= k``), ``lam[i]`` its scale against the class
    representative. ``flat`` lists the representatives of the flat classes.

    ``U``, ``G`` and ``L`` are held exactly as integer matrices over one denominator each
    (:attr:`Ui`, :attr:`Gi`, :attr:`Li`); the Fraction views :attr:`U`, :attr:`G`, :attr:`L`
    are built on first use only (a GPT-2-size form has millions of entries).
    """

    kind: ClassKind
    d: int
    Ui: IntMatrix  # k x d
    Gi: IntMatrix  # d x k
    Li: IntMatrix  # d x d
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
        return self.Ui.shape[0]

    @cached_property
    def U(self) -> FMatrix:
        """The ridges' directions ``u_t`` (k x d, Fractions)."""
        return _fraction_rows(self.Ui)

    @cached_property
    def G(self) -> FMatrix:
        """The kink vectors as columns (d x k, Fractions)."""
        return _fraction_rows(self.Gi)

    @cached_property
    def L(self) -> FMatrix:
        """The linear part (d x d, Fractions)."""
        return _fraction_rows(self.Li)

    def kink(self, t: int) -> tuple[Fraction, ...]:
        """The kink vector ``gamma_t`` (column ``t`` of ``G``)."""
        den = self.Gi.den
        return tuple(Fraction(int(v), den) for v in self.Gi.numerators()[:, t])


def _fraction_rows(m: IntMatrix) -> FMatrix:
    den = m.den
    if m.shape[0] == 0:
        return ()
    return tuple(tuple(Fraction(int(v), den) for v in r) for r in m.numerators().tolist())


def _reduced(num: np.ndarray, den: int) -> IntMatrix:
    """``num / den`` with numerators and denominator divided by their common gcd (the same matrix;
    smaller integers for the certificates' 63-bit encoding and for exact elimination)."""
    if num.size:
        g = int(np.gcd.reduce(num.ravel())) if num.dtype != object else gcd(*map(int, num.ravel()))
    else:
        g = 0
    g = gcd(g, den)
    if g > 1:
        num = num // g
        den //= g
        if num.dtype == object and _fits(int(np.max(np.abs(num))) if num.size else 0):
            num = num.astype(np.int64)
    return IntMatrix.from_numerators(num, den)


def _fits(*bounds: int) -> bool:
    """Every bound below ``2**62`` (int64 arithmetic is exact)."""
    return all(abs(b) < 2**62 for b in bounds)


def _as_array(x: IntMatrix) -> np.ndarray:
    return x.numerators()


def _prod_dtype(bound: int) -> type:
    return np.int64 if _fits(bound) else object


def _normalize(rows: np.ndarray, kind: ClassKind) -> np.ndarray:
    """Each (nonzero) row divided by the gcd of its entries (``lines`` only) and signed so
    that its first nonzero entry is positive: equal results <=> same class."""
    out = rows.copy()
    if out.shape[0] == 0:
        return out
    if kind == "lines":
        if out.dtype == object:
            g = np.array([gcd(*map(int, r)) or 1 for r in out], dtype=object)
        else:
            g = np.gcd.reduce(out, axis=1)
            g[g == 0] = 1
        out = out // g[:, None]
    nz = out != 0
    first = nz.argmax(axis=1)
    lead = out[np.arange(out.shape[0]), first]
    neg = np.asarray(lead < 0, dtype=bool)
    out[neg] = -out[neg]
    return out


def canonical_form(
    W_up: Sequence[Sequence[object]],
    W_down: Sequence[Sequence[object]],
    kind: ClassKind,
    b_up: Optional[Sequence[object]] = None,
    b_down: Optional[Sequence[object]] = None,
) -> RidgeForm:
    """The ridge form of ``x + W_down sigma(W_up x + b_up) + b_down`` (identity skip).

    A skip ``P`` is reduced first by R1 (``W_down := P^-1 W_down``, ``L`` starts at
    ``I``); this function assumes that has been done.

    Exact integer arithmetic throughout (NumPy ``int64`` where every value provably
    fits, Python ints otherwise); rows are grouped by hashing their normalised integer
    form (near-linear in ``n d``, no pairwise comparison)."""
    A = scale_matrix(W_up)  # type: ignore[arg-type]
    B = scale_matrix(W_down)  # type: ignore[arg-type]
    n, d = A.shape
    zc = IntMatrix.from_numerators(np.zeros((1, n), np.int64), 1)
    c = scale_matrix([list(b_up)]) if b_up is not None else zc  # type: ignore[arg-type]
    zb = IntMatrix.from_numerators(np.zeros((1, d), np.int64), 1)
    b0 = scale_matrix([list(b_down)]) if b_down is not None else zb  # type: ignore[arg-type]
    An, Bn, cn = _as_array(A), _as_array(B), _as_array(c)[0]
    # Augmented rows (a_i, c_i) over the denominator dA dc.
    dU = A.den * c.den
    big = _fits(A.max_abs() * c.den, c.max_abs() * A.den)
    aug = np.empty((n, d + 1), dtype=np.int64 if big else object)
    aug[:, :d] = An * c.den if big else An.astype(object) * c.den
    aug[:, d] = cn * A.den if big else cn.astype(object) * A.den
    b_nonzero = np.asarray((Bn != 0).any(axis=0), dtype=bool)
    a_nonzero = np.asarray((aug[:, :d] != 0).any(axis=1), dtype=bool)
    offset = [Fraction(int(v), b0.den) for v in _as_array(b0)[0]]
    const_rows: list[int] = []
    live = np.flatnonzero(b_nonzero & a_nonzero)
    for i in map(int, np.flatnonzero(b_nonzero & ~a_nonzero)):
        ci = int(cn[i])
        if ci == 0:
            continue
        if kind == "lines":  # ReLU: the constant b_i relu(c_i) is rational
            if ci > 0:
                for p in range(d):
                    offset[p] += Fraction(int(Bn[p, i]) * ci, B.den * c.den)
        else:
            const_rows.append(int(i))
    # Classes by hashing the normalised rows.
    norm = _normalize(aug[live], kind)
    where: dict[object, int] = {}
    first_of: list[int] = []
    cls0 = [-1] * n
    as_key = (lambda r: r.tobytes()) if norm.dtype != object else (lambda r: tuple(int(v) for v in r))
    for pos, i in enumerate(map(int, live)):
        key = as_key(norm[pos])
        j = where.get(key)
        if j is None:
            j = len(first_of)
            where[key] = j
            first_of.append(int(i))
        cls0[int(i)] = j
    nclass = len(first_of)
    reps = aug[first_of] if nclass else np.zeros((0, d + 1), dtype=aug.dtype)
    # Scales lam_i = aug_i / rep (exact: the same normalised row).
    lead = np.asarray((reps != 0).argmax(axis=1)) if nclass else np.zeros(0, dtype=np.int64)
    lam0 = [Fraction(0)] * n
    lam_num: dict[int, tuple[int, int]] = {}
    for ii in live:
        i = int(ii)
        j = cls0[i]
        if first_of[j] == i:
            lam0[i] = Fraction(1)
            lam_num[i] = (1, 1)
            continue
        q = int(lead[j])
        f = Fraction(int(aug[i, q]), int(reps[j, q]))
        lam0[i] = f
        lam_num[i] = f.as_integer_ratio()
    # Kinks gamma_t = sum |lam_i| b_i over the denominator dB * Qlam.
    Qlam = lcm(1, *(q for _, q in lam_num.values()))
    wts = {i: abs(p) * (Qlam // q) for i, (p, q) in lam_num.items()}
    wmax = max(wts.values(), default=1)
    sizes = np.bincount(np.array([cls0[i] for i in live], dtype=np.int64), minlength=nclass) if nclass else \
        np.zeros(0, dtype=np.int64)
    gbound = B.max_abs() * wmax * (int(sizes.max()) if nclass else 1)
    gdt = _prod_dtype(gbound)
    Gt: np.ndarray = np.zeros((nclass, d), dtype=gdt)
    if nclass:
        idx = np.array(live, dtype=np.int64)
        w: np.ndarray = np.array([wts[int(i)] for i in idx], dtype=gdt)
        contrib = (Bn[:, idx].astype(gdt) * w).T  # |live| x d
        np.add.at(Gt, np.array([cls0[int(i)] for i in idx], dtype=np.int64), contrib)
    gnz = np.asarray((Gt != 0).any(axis=1), dtype=bool) if nclass else np.zeros(0, dtype=bool)
    ridge = [j for j in range(nclass) if gnz[j]]
    flat = [j for j in range(nclass) if not gnz[j]]
    order = {j: t for t, j in enumerate(ridge + flat)}
    dG = B.den * Qlam
    # L = I - sum_{lam_i < 0} |lam_i| b_i u^T over dG * dU; the shifts |lam_i| b_i s go to the offset.
    neg = [int(i) for i in live if lam0[int(i)] < 0]
    Lden = dG * dU
    if neg:
        ldt = _prod_dtype(Lden + gbound * int(np.max(np.abs(reps[:, :d]))) * len(neg) if nclass else Lden)
        Bneg: np.ndarray = Bn[:, neg].astype(ldt) * np.array([wts[i] for i in neg], dtype=ldt)  # d x |neg|
        Uneg: np.ndarray = reps[[cls0[i] for i in neg], :d].astype(ldt)
        Ln = np.eye(d, dtype=ldt) * Lden - Bneg.dot(Uneg)
        sneg = reps[[cls0[i] for i in neg], d].astype(object)
        shift_sum = Bneg.astype(object).dot(sneg)
        for p in range(d):
            if shift_sum[p]:
                offset[p] -= Fraction(int(shift_sum[p]), Lden)
    else:
        Ln = np.eye(d, dtype=np.int64) * Lden if _fits(Lden) else np.eye(d, dtype=object) * Lden
    Ui = _reduced(reps[ridge, :d] if ridge else np.zeros((0, d), dtype=np.int64), dU)
    Gi = _reduced(Gt[ridge].T.copy() if ridge else np.zeros((d, 0), dtype=np.int64), dG)
    Li = _reduced(Ln, Lden)
    shift = tuple(Fraction(int(reps[j, d]), dU) for j in ridge)
    flat_rows = tuple(tuple(Fraction(int(v), dU) for v in reps[j, :d]) for j in flat)
    return RidgeForm(
        kind=kind,
        d=d,
        Ui=Ui,
        Gi=Gi,
        Li=Li,
        shift=shift,
        offset=tuple(offset),
        cls=tuple(order[x] if x >= 0 else -1 for x in cls0),
        lam=tuple(lam0),
        flat=flat_rows,
        constant_rows=tuple(const_rows),
        constants=tuple((Fraction(int(cn[i]), c.den), tuple(Fraction(int(Bn[p, i]), B.den) for p in range(d)))
                        for i in const_rows),
    )
