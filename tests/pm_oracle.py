"""Independent oracles for biased blocks of the GELU family (tests only; no pybridge theory).

- :func:`same_function`: a residual block and a residual-free block agree exactly on given
  points for several activations with ``sigma(z) - sigma(-z) = z`` (polynomials and ReLU,
  exact on Fractions). Every identity the width route uses (the canonical form, the explicit
  block) holds for all such activations, so an absorbing block must pass for each.
- :func:`least_width`: the least width of R8's condition, by its own grouping of the augmented
  rows ``(a_i, c_i)`` up to sign and an enumeration of all disjoint ``(T, S)`` with
  ``r = rank([U_T; M_S]) - rank(U_T)`` (``M_S = L + sum_S G_t u_t^T``).
"""

from __future__ import annotations

import random
from fractions import Fraction as F
from itertools import product

SIGMAS = {
    "square": lambda z: z / 2 + z * z,
    "quartic": lambda z: z / 2 - z ** 4,
    "relu": lambda z: z if z > 0 else F(0),
}


def apply(sigma, up, c, down, b0, x, residual: bool):
    """``[x +] down sigma(up x + c) + b0`` exactly."""
    d, n = len(down), len(up)
    h = [sigma(sum((F(up[i][q]) * x[q] for q in range(d)), F(0)) + F(c[i])) for i in range(n)]
    out = [sum((F(down[p][i]) * h[i] for i in range(n)), F(0)) + F(b0[p]) for p in range(d)]
    return [o + x[p] for p, o in enumerate(out)] if residual else out


def points(d: int, count: int = 10, seed: int = 0):
    rng = random.Random(seed)
    return [[F(rng.randint(-40, 40), rng.randint(1, 9)) for _ in range(d)] for _ in range(count)]


def same_function(up, c, down, b0, wup, wc, wdown, wb0, count: int = 8) -> bool:
    """``x + down sigma(up x + c) + b0 == wdown sigma(wup x + wc) + wb0`` on ``count`` points,
    for every activation of :data:`SIGMAS`."""
    d = len(down)
    return all(apply(s, up, c, down, b0, x, True) == apply(s, wup, wc, wdown, wb0, x, False)
               for s in SIGMAS.values() for x in points(d, count))


def _rank(rows) -> int:
    m = [list(map(F, r)) for r in rows]
    rank, col = 0, 0
    ncols = len(m[0]) if m else 0
    while rank < len(m) and col < ncols:
        piv = next((i for i in range(rank, len(m)) if m[i][col] != 0), None)
        if piv is None:
            col += 1
            continue
        m[rank], m[piv] = m[piv], m[rank]
        for i in range(len(m)):
            if i != rank and m[i][col] != 0:
                f = m[i][col] / m[rank][col]
                m[i] = [a - f * b for a, b in zip(m[i], m[rank])]
        rank += 1
        col += 1
    return rank


def ridges(up, c, down):
    """``(U, G, L)``: classes of augmented rows equal up to sign with nonzero kinks (``G[t]``: kink of t)."""
    d, n = len(down), len(up)
    L = [[F(int(p == q)) for q in range(d)] for p in range(d)]
    classes: list[tuple[tuple, list[F]]] = []
    for i in range(n):
        a, b = [F(v) for v in up[i]], [F(down[p][i]) for p in range(d)]
        if not any(b) or not any(a):
            continue  # nothing, or a constant
        aug = tuple(a) + (F(c[i]),)
        for rep, g in classes:  # noqa: B007 - g is the matching class's, read after the break
            if rep == aug or rep == tuple(-v for v in aug):
                sign = 1 if rep == aug else -1
                break
        else:
            rep, g, sign = aug, [F(0)] * d, 1
            classes.append((rep, g))
        for p in range(d):
            g[p] += b[p]
            if sign < 0:
                for q in range(d):
                    L[p][q] -= b[p] * rep[q]
    kept = [(rep[:d], g) for rep, g in classes if any(g)]
    return [list(u) for u, _ in kept], [list(g) for _, g in kept], L


def least_width(up, c, down) -> int:
    """min over disjoint (T, S) of ``k + |T| + 2 r``."""
    U, G, L = ridges(up, c, down)
    k, d = len(U), len(L)
    best = None
    for assign in product((0, 1, 2), repeat=k):  # 0: neither, 1: in T, 2: in S
        M = [list(r) for r in L]
        for t in range(k):
            if assign[t] == 2:
                for p in range(d):
                    M[p] = [x + G[t][p] * y for x, y in zip(M[p], U[t])]
        UT = [U[t] for t in range(k) if assign[t] == 1]
        r = _rank(UT + M) - _rank(UT) if UT else _rank(M)
        w = k + len(UT) + 2 * r
        best = w if best is None else min(best, w)
    assert best is not None
    return best
