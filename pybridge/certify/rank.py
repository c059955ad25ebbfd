"""Rank certificates: R8's width condition refuted at a width ``m`` (not absorbable, ``k <= m``).

For a canonical ridge form with ``k`` ridges (directions ``u_t``, kinks ``gamma_t``,
linear part ``L``) the width condition at ``m`` fails iff for every disjoint pair
``(T, S)`` of ridge sets with ``k + |T| <= m`` the matrix
``M_S = L + sum_{t in S} gamma_t u_t^T`` restricted to ``span{u_t : t in T}^perp``
has rank above ``r_T = (m - k - |T|) // 2``. Coq's ``certify/RankCheck.v``
(``check_rank_refute``) checks, for each such pair in the order of its
``enum_ts k``, one :class:`RankEntry`: ``c = r_T + 1`` integer columns ``X``
orthogonal to every ``u_t`` (``t in T``), columns ``Y`` and rows ``Z`` with
``Z (Y^T M X) = D I_c``, ``D != 0``, where ``M = dL dG dU M_S`` is the integer
matrix Coq forms from the certificate's ``(RL, CG, RU)`` and denominators.
:func:`rank_entries` computes them exactly; :func:`rank_term` writes them into a
certificate and returns the proof term of ``cert_r8_rank_relu`` / ``cert_r8_rank_pm``.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd
from typing import Optional, Protocol, Sequence

import flint
import numpy as np

from pybridge.certify.encoding import CoqWriter
from pybridge.certify.kinds import CannotCertify
from pybridge.certify.pm_facts import PmFacts
from pybridge.exact.modular import IntMatrix

Pair = tuple[tuple[bool, ...], tuple[bool, ...]]


class GroupingData(Protocol):
    """What a written canonical grouping provides (``certificates_width._Grouping``)."""

    k: int
    U: IntMatrix  # K x d (the first k rows are the ridges)
    G: IntMatrix  # d x K
    L: IntMatrix  # d x d
    args: str


@dataclass(frozen=True)
class RankEntry:
    """One refuted pair ``(T, S)``: ``Z (Y^T M X) = D I_c`` with ``X`` orthogonal to ``u_t``, ``t in T``."""

    c: int
    X: tuple[tuple[int, ...], ...]  # c columns of length d
    Y: tuple[tuple[int, ...], ...]  # c columns of length d
    Z: tuple[tuple[int, ...], ...]  # c rows of length c
    D: int


def enum_ts(k: int) -> list[Pair]:
    """All disjoint ``(T, S)`` as boolean tuples, in the order of Coq's ``RankCheck.enum_ts``."""
    out: list[Pair] = [((), ())]
    for _ in range(k):
        out = [((a,) + T, (b,) + S) for T, S in out for a, b in ((False, False), (True, False), (False, True))]
    return out


def shifted_int(U: IntMatrix, G: IntMatrix, L: IntMatrix, k: int, S: Sequence[bool], d: int) -> list[list[int]]:
    """``dL dG dU (L + sum_{t in S} G_t U_t^T)`` as Coq's ``shifted_int`` computes it (exact, FLINT)."""
    sel = [t for t in range(k) if S[t]]
    M = _fmpz(L.numerators()) * (G.den * U.den)
    if sel:
        M += (_fmpz(G.numerators()[:, sel]) * _fmpz(U.numerators()[sel, :])) * L.den
    return [[int(v) for v in row] for row in M.tolist()]


def _fmpz(rows: np.ndarray) -> flint.fmpz_mat:
    r, c = rows.shape
    return flint.fmpz_mat(r, c, [int(v) for v in rows.ravel().tolist()])


def _nullspace(rows: Sequence[Sequence[int]], d: int) -> list[list[int]]:
    """A basis (integer vectors) of ``{x : r . x = 0 for every r in rows}`` (FLINT)."""
    if not rows:
        return [[int(i == j) for i in range(d)] for j in range(d)]
    N, nullity = flint.fmpz_mat([list(r) for r in rows]).nullspace()
    cols = N.transpose().tolist()[:int(nullity)]
    out = []
    for v in cols:
        iv = [int(x) for x in v]
        g = gcd(*iv)
        if next(x for x in iv if x) < 0:
            g = -g
        out.append([x // g for x in iv])
    return out


def _pivots(m: flint.fmpz_mat) -> list[int]:
    """Pivot columns of the reduced echelon form (the first independent columns, in order)."""
    if m.nrows() == 0 or m.ncols() == 0:
        return []
    R, _, rank = m.rref()
    out = []
    for row in R.tolist()[:int(rank)]:
        out.append(next(j for j, v in enumerate(row) if v != 0))
    return out


def _independent(vectors: Sequence[Sequence[int]], want: int) -> Optional[list[int]]:
    """Indices of ``want`` linearly independent vectors among ``vectors``, sparsest first
    (so that the square block below is as diagonal as the data allows), or None."""
    if not vectors or want == 0:
        return [] if want == 0 else None
    order = sorted(range(len(vectors)), key=lambda i: sum(1 for x in vectors[i] if x))
    mat = flint.fmpz_mat([list(vectors[i]) for i in order]).transpose()
    piv = _pivots(mat)
    if len(piv) < want:
        return None
    return sorted(order[j] for j in piv[:want])


def _inverse_scaled(K: Sequence[Sequence[int]]) -> tuple[tuple[tuple[int, ...], ...], int]:
    """``(Z, D)`` with ``Z K = D I``, ``D > 0`` (``K`` square, invertible; FLINT)."""
    num, den = flint.fmpz_mat([list(r) for r in K]).inv().numer_denom()  # type: ignore[attr-defined]
    D = int(den)
    Z = tuple(tuple(int(x) for x in r) for r in num.tolist())
    if D < 0:
        D, Z = -D, tuple(tuple(-x for x in r) for r in Z)
    return Z, D


def entry_for(M: Sequence[Sequence[int]], U: IntMatrix, T: Sequence[bool], k: int, d: int,
              m: int) -> Optional[RankEntry]:
    """The entry refuting ``(T, S)`` at width ``m`` for ``M`` (= ``shifted_int``), or None if none exists."""
    c = (m - k - sum(T)) // 2 + 1
    comp = _nullspace([U.rows[t] for t in range(k) if T[t]], d)
    if len(comp) < c:
        return None
    MXm = flint.fmpz_mat([list(r) for r in M]) * flint.fmpz_mat(comp).transpose() if comp else None
    MX = [[int(v) for v in col] for col in MXm.transpose().tolist()] if MXm is not None else []
    cols = _independent(MX, c)
    if cols is None:
        return None
    X = [comp[b] for b in cols]
    MXc = [MX[b] for b in cols]
    rows = _independent([[MXc[b][i] for b in range(c)] for i in range(d)], c)
    if rows is None:  # cannot happen: c independent columns have c independent rows
        return None
    Y = [[1 if i == r else 0 for i in range(d)] for r in rows]
    K = [[MXc[b][rows[a]] for b in range(c)] for a in range(c)]
    Z, D = _inverse_scaled(K)
    return RankEntry(c, tuple(tuple(x) for x in X), tuple(tuple(y) for y in Y), Z, D)


def rank_entries(U: IntMatrix, G: IntMatrix, L: IntMatrix, k: int, d: int, m: int) -> list[RankEntry]:
    """The entries of ``check_rank_refute`` at width ``m``; :class:`CannotCertify` if a pair satisfies the condition."""
    out = []
    for T, S in enum_ts(k):
        if k + sum(T) > m:
            continue
        e = entry_for(shifted_int(U, G, L, k, S, d), U, T, k, d, m)
        if e is None:
            Ts = [t for t in range(k) if T[t]]
            Ss = [t for t in range(k) if S[t]]
            raise CannotCertify(f"T = {Ts}, S = {Ss} meets the width condition at width {m}: no rank refutation")
        out.append(e)
    return out


def _zrows(rows: Sequence[Sequence[int]]) -> str:
    return "[" + "; ".join("[" + "; ".join(f"({v})%Z" for v in r) + "]" for r in rows) + "]"


def write_entries(w: CoqWriter, entries: Sequence[RankEntry], tag: str) -> str:
    """Define ``RK{tag} : list rank_entry`` (integers written as ``Z`` literals); return its name."""
    names = []
    for i, e in enumerate(entries):
        name = f"RK{tag}_{i}"
        w.add(f"Definition {name} : rank_entry := Build_rank_entry {e.c}%nat {_zrows(e.X)} {_zrows(e.Y)} "
              f"{_zrows(e.Z)} ({e.D})%Z.")
        names.append(name)
    w.add(f"Definition RK{tag} : list rank_entry := [{'; '.join(names)}].")
    return f"RK{tag}"


def rank_term(w: CoqWriter, g: GroupingData, d: int, m: int, sigma: str,
              pm: Optional[PmFacts]) -> str:
    """Write the refutation at width ``m`` and return the proof term of ``~ absorbable ... m``.

    Expects the grouping (``g_ok``), canonical checks (``l_ok`` / ``s_ok``, ``nz_ok``) and,
    for the GELU family, ``pm_ok`` in ``w`` already."""
    entries = rank_entries(g.U, g.G, g.L, g.k, d, m)
    tag = str(m)
    es = write_entries(w, entries, tag)
    w.check(f"rk_ok{tag}", f"check_rank_refute d k {m}%nat dL (zrows RL) dG (zrows CG) dU (zrows RU) {es}")
    args = g.args.format(m=f"{m}%nat") + f" {es}"
    if pm is None:
        return f"(cert_r8_rank_relu {args} g_ok l_ok nz_ok rk_ok{tag})"
    return f"(cert_r8_rank_pm {sigma} {args} {pm.odd_part} {pm.zero} {pm.ridge_unique} g_ok pm_ok s_ok nz_ok rk_ok{tag})"
