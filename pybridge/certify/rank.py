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
from fractions import Fraction
from math import lcm
from typing import Optional, Protocol, Sequence

from pybridge.certify.encoding import CoqWriter
from pybridge.certify.kinds import CannotCertify
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
    """``dL dG dU (L + sum_{t in S} G_t U_t^T)`` as Coq's ``shifted_int`` computes it."""
    out = []
    for i in range(d):
        row = []
        for j in range(d):
            s = sum(G.rows[i][t] * U.rows[t][j] for t in range(k) if S[t])
            row.append(G.den * U.den * L.rows[i][j] + L.den * s)
        out.append(row)
    return out


def _nullspace(rows: Sequence[Sequence[int]], d: int) -> list[list[int]]:
    """A basis (integer vectors) of ``{x : r . x = 0 for every r in rows}``."""
    a = [[Fraction(v) for v in r] for r in rows]
    pivots: list[int] = []
    rank = 0
    for col in range(d):
        piv = next((r for r in range(rank, len(a)) if a[r][col] != 0), None)
        if piv is None:
            continue
        a[rank], a[piv] = a[piv], a[rank]
        inv = 1 / a[rank][col]
        a[rank] = [v * inv for v in a[rank]]
        for r in range(len(a)):
            if r != rank and a[r][col] != 0:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[rank])]
        pivots.append(col)
        rank += 1
    basis = []
    for free in (c for c in range(d) if c not in pivots):
        v = [Fraction(0)] * d
        v[free] = Fraction(1)
        for r, pc in enumerate(pivots):
            v[pc] = -a[r][free]
        den = lcm(1, *(x.denominator for x in v))
        basis.append([int(x * den) for x in v])
    return basis


def _independent(vectors: Sequence[Sequence[int]], want: int) -> Optional[list[int]]:
    """Indices of ``want`` linearly independent vectors among ``vectors`` (greedy), or None."""
    reduced: list[tuple[int, list[Fraction]]] = []
    chosen: list[int] = []
    for idx, v in enumerate(vectors):
        w = [Fraction(x) for x in v]
        for piv, b in reduced:
            if w[piv]:
                f = w[piv] / b[piv]
                w = [x - f * y for x, y in zip(w, b)]
        new = next((q for q, x in enumerate(w) if x != 0), None)
        if new is not None:
            reduced.append((new, w))
            chosen.append(idx)
            if len(chosen) == want:
                return chosen
    return chosen if len(chosen) >= want else None


def _inverse_scaled(K: Sequence[Sequence[int]]) -> tuple[tuple[tuple[int, ...], ...], int]:
    """``(Z, D)`` with ``Z K = D I``, ``D > 0`` (``K`` square, invertible)."""
    from pybridge.exact.linalg import invert

    inv = invert(K)
    D = lcm(1, *(x.denominator for r in inv for x in r))
    return tuple(tuple(int(x * D) for x in r) for r in inv), D


def entry_for(M: Sequence[Sequence[int]], U: IntMatrix, T: Sequence[bool], k: int, d: int,
              m: int) -> Optional[RankEntry]:
    """The entry refuting ``(T, S)`` at width ``m`` for ``M`` (= ``shifted_int``), or None if none exists."""
    c = (m - k - sum(T)) // 2 + 1
    comp = _nullspace([U.rows[t] for t in range(k) if T[t]], d)
    MX = [[sum(M[i][j] * x[j] for j in range(d)) for i in range(d)] for x in comp]  # one list per column
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
              pm: Optional[tuple[str, str, str, str, tuple[str, ...]]]) -> str:
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
    return f"(cert_r8_rank_pm {sigma} {args} {pm[1]} {pm[2]} {pm[3]} g_ok pm_ok s_ok nz_ok rk_ok{tag})"
