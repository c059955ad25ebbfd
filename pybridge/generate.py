"""Random exact instances, optionally with a planted absorbing subset S.

Weights are small integers (skips and planted down-projections integer too:
the planted block ``M`` is unimodular, so ``M^-1`` is an integer matrix).
Ungated instances are always *generic* (nonzero rows ``a_i``, pairwise
linearly independent; nonzero columns ``b_i``), so the exact decision applies.
With ``absorbable=True`` a random S of size d gets ``sum_{i in S} b~_i a_i^T = -I``
(``b~ = P^-1 b`` for a skip P), which makes the block absorbable by R5 (<=).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from math import gcd
from typing import Optional

from pybridge.errors import InputError
from pybridge.exact.linalg import matmul
from pybridge.io.build import build_instance
from pybridge.model import Activation, Instance

Int = int
IntMatrix = list[list[int]]

MAX_DIM = 4096


@dataclass(frozen=True)
class GeneratedInstance:
    """The instance and what was planted (``subset`` empty when nothing was)."""

    instance: Instance
    seed: int
    subset: tuple[int, ...]


def _rand_vec(rng: random.Random, k: int, bound: int) -> list[int]:
    while True:
        v = [rng.randint(-bound, bound) for _ in range(k)]
        if any(v):
            return v


def _direction(v: list[int]) -> tuple[int, ...]:
    """Canonical representative of the line through the nonzero integer vector ``v``."""
    g = 0
    for x in v:
        g = gcd(g, x)
    first = next(x for x in v if x)
    s = g if first > 0 else -g
    return tuple(x // s for x in v)


def _unit_triangular(rng: random.Random, d: int, lower: bool) -> IntMatrix:
    m = [[0] * d for _ in range(d)]
    for i in range(d):
        m[i][i] = 1
        for j in range(i) if lower else range(i + 1, d):
            # Sparse (about 2 nonzeros a row) so that the inverse stays small.
            if rng.random() < 2 / d:
                m[i][j] = rng.choice((-1, 1))
    return m


def _inverse_unit_triangular(m: IntMatrix, lower: bool) -> IntMatrix:
    d = len(m)
    inv = [[0] * d for _ in range(d)]
    order = range(d) if lower else range(d - 1, -1, -1)
    for c in range(d):
        for i in order:
            s = 1 if i == c else 0
            ks = range(i) if lower else range(i + 1, d)
            s -= sum(m[i][k] * inv[k][c] for k in ks)
            inv[i][c] = s
    return inv


def random_unimodular(rng: random.Random, d: int) -> tuple[IntMatrix, IntMatrix]:
    """``(M, M^-1)``, both integer: ``M = L U`` with unit triangular L, U (permuted rows)."""
    lo = _unit_triangular(rng, d, True)
    up = _unit_triangular(rng, d, False)
    m = [list(r) for r in matmul(lo, up)]
    inv = [list(r) for r in matmul(_inverse_unit_triangular(up, False), _inverse_unit_triangular(lo, True))]
    perm = list(range(d))
    rng.shuffle(perm)
    # Permuting the rows of M permutes the columns of M^-1 the same way.
    m = [m[p] for p in perm]
    inv = [[row[p] for p in perm] for row in inv]
    return m, inv


def generate(
    activation: Activation,
    d: int,
    n: int,
    *,
    absorbable: bool = False,
    seed: Optional[int] = None,
    skip: bool = False,
    bias: bool = False,
    bound: int = 3,
) -> GeneratedInstance:
    """A random generic instance of ``activation`` with ``d x n`` weights (see module doc)."""
    if not isinstance(activation, Activation):
        raise InputError(f"activation must be an Activation (see pybridge.io.parse_activation), not {type(activation).__name__}")
    for name, value in (("d", d), ("n", n), ("bound", bound)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(f"{name} must be an integer, not {type(value).__name__}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InputError(f"seed must be an integer or None, not {type(seed).__name__}")
    if not (1 <= d <= MAX_DIM and 1 <= n <= MAX_DIM):
        raise InputError(f"--d and --n must be between 1 and {MAX_DIM}")
    if absorbable:
        if not activation.odd_part_identity:
            raise InputError(
                f"no {activation.label} block is absorbable (R2/R3): --absorbable needs "
                "relu, gelu, gelu_tanh or silu"
            )
        if n < d:
            raise InputError(f"--absorbable needs n >= d (a planted S has d elements), got n={n} < d={d}")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    P, P_inv = random_unimodular(rng, d) if skip else (None, None)
    A: list[Optional[list[int]]] = [None] * n
    B_cols: list[Optional[list[int]]] = [None] * n
    subset: tuple[int, ...] = ()
    seen: set[tuple[int, ...]] = set()
    if absorbable:
        subset = tuple(sorted(rng.sample(range(n), d)))
        M, M_inv = random_unimodular(rng, d)
        target = M_inv if P is None else [list(r) for r in matmul(P, M_inv)]  # B_S = -P M^-1
        for k, i in enumerate(subset):
            A[i] = M[k]
            B_cols[i] = [-target[r][k] for r in range(d)]
            seen.add(_direction(M[k]))
    for i in range(n):
        if A[i] is not None:
            continue
        for _ in range(10000):
            a = _rand_vec(rng, d, bound)
            if _direction(a) not in seen:
                break
        else:
            raise InputError(f"cannot draw {n} pairwise independent rows in dimension {d}; raise the bound")
        A[i] = a
        seen.add(_direction(a))
        B_cols[i] = _rand_vec(rng, d, bound)
    F = Fraction
    rows = [r for r in A if r is not None]
    cols = [c for c in B_cols if c is not None]
    tensors: dict[str, object] = {
        "W_up": [[F(x) for x in row] for row in rows],
        "W_down": [[F(cols[i][r]) for i in range(n)] for r in range(d)],
    }
    if activation.gated:
        tensors["W_gate"] = [[F(x) for x in _rand_vec(rng, d, bound)] for _ in range(n)]
    if P is not None:
        tensors["skip"] = [[F(x) for x in row] for row in P]
    if bias:
        tensors["b_up"] = [F(rng.randint(-bound, bound)) for _ in range(n)]
        tensors["b_down"] = [F(rng.randint(-bound, bound)) for _ in range(d)]
        if activation.gated:
            tensors["b_gate"] = [F(rng.randint(-bound, bound)) for _ in range(n)]
    inst = build_instance(activation, tensors, source=f"generated(seed={seed})", check_skip=False)
    return GeneratedInstance(inst, seed, subset)
