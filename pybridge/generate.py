"""Random exact instances, optionally with a planted absorbing subset S.

Weights are small integers (skips and planted down-projections integer too:
the planted block ``M`` is unimodular, so ``M^-1`` is an integer matrix).
Ungated instances are always *generic* (nonzero rows ``a_i``, pairwise
linearly independent; nonzero columns ``b_i``), so the exact decision applies.
With ``absorbable=True`` a random S of size d gets ``sum_{i in S} b~_i a_i^T = -I``
(``b~ = P^-1 b`` for a skip P), which makes the block absorbable by R5 (<=).

:func:`generate_postln` plants instead ``B[:,S] A[S,:] = -I + 1 w^T`` (``w != 0``): a block
absorbable after a LayerNorm (``C(I + B_S A_S) = 0``, R11') whose bare block is not (checked
exactly), with a post-LayerNorm :class:`~pybridge.model.Norm` (every ``gamma_i != 0``).
:func:`norm_to_json` writes that norm for ``check`` JSON, :func:`bert_checkpoint` the blocks
as a BERT-style post-norm checkpoint (tensor names and config of ``BertModel``).
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
from pybridge.model import Activation, Instance, Norm

Int = int
IntMatrix = list[list[int]]

MAX_DIM = 4096


@dataclass(frozen=True)
class GeneratedInstance:
    """The instance and what was planted (``subset`` empty when nothing was)."""

    instance: Instance
    seed: int
    subset: tuple[int, ...]
    #: the normalization planted around the block (:func:`generate_postln`), else None
    norm: Optional[Norm] = None


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


def _fill_rows(rng: random.Random, A: list[Optional[list[int]]], B_cols: list[Optional[list[int]]],
               seen: set[tuple[int, ...]], d: int, bound: int) -> bool:
    """Fill the rows of ``A`` still None with random rows on new lines (``seen``: the lines
    taken) and their columns of ``B`` with random vectors; False when no new line is found."""
    for i, row in enumerate(A):
        if row is not None:
            continue
        for _ in range(10000):
            a = _rand_vec(rng, d, bound)
            if _direction(a) not in seen:
                break
        else:
            return False
        A[i] = a
        seen.add(_direction(a))
        B_cols[i] = _rand_vec(rng, d, bound)
    return True


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
    if not _fill_rows(rng, A, B_cols, seen, d, bound):
        raise InputError(f"cannot draw {n} pairwise independent rows in dimension {d}; raise the bound")
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
    inst = build_instance(activation, tensors, source=f"generated(seed={seed})")
    return GeneratedInstance(inst, seed, subset)


POSTLN_EPS = Fraction(1, 10**12)  #: BERT's layer_norm_eps
POSTLN_TRIES = 50


def _post_layernorm(rng: random.Random, d: int) -> Norm:
    """A post-LayerNorm with every ``gamma_i != 0`` (quarters) and a ``beta`` (eighths)."""
    gamma = tuple(Fraction(rng.choice((-1, 1)) * rng.randint(1, 8), 4) for _ in range(d))
    beta = tuple(Fraction(rng.randint(-4, 4), 8) for _ in range(d))
    return Norm("post", "layernorm", False, gamma, beta, POSTLN_EPS, "generated")


def generate_postln(activation: Activation, d: int, n: int, *, seed: Optional[int] = None,
                    bound: int = 3) -> GeneratedInstance:
    """A bias-free block ``x + B sigma(A x)`` absorbable after a LayerNorm but not bare: a
    random ``S`` of size ``d`` gets ``B[:,S] A[S,:] = -I + 1 w^T`` with a random integer
    ``w != 0`` (``A[S,:]`` unimodular, so ``B[:,S]`` is an integer matrix); the other rows are
    random, pairwise independent. Retried until, exactly, ``(A, B)`` and ``(A, C B)`` are
    generic and no subset gives ``B_S A_S = -I`` (the bare block is not absorbable by R5)."""
    from pybridge.decision.genericity import check_generic
    from pybridge.decision.postnorm import centered_problem
    from pybridge.decision.subset_search import search_subset
    from pybridge.exact.modular import identity_int, scale_matrix

    if not isinstance(activation, Activation) or not activation.odd_part_identity or activation.gated:
        raise InputError("a post-LayerNorm-only absorbable block needs an ungated activation with "
                         "sigma(z) - sigma(-z) = z (relu, gelu, gelu_tanh, silu, ...)")
    for name, value in (("d", d), ("n", n), ("bound", bound)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(f"{name} must be an integer, not {type(value).__name__}")
    if not (2 <= d <= MAX_DIM and d <= n <= MAX_DIM):
        raise InputError(f"a post-LayerNorm-only block needs 2 <= d <= n <= {MAX_DIM}, got d={d}, n={n}")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    for _ in range(POSTLN_TRIES):
        subset = tuple(sorted(rng.sample(range(n), d)))
        M, M_inv = random_unimodular(rng, d)
        w = [0] * d
        while not any(w):
            w = [rng.randint(-bound, bound) for _ in range(d)]
        c = [sum(w[j] * M_inv[j][k] for j in range(d)) for k in range(d)]
        A: list[Optional[list[int]]] = [None] * n
        B_cols: list[Optional[list[int]]] = [None] * n
        seen: set[tuple[int, ...]] = set()
        for k, i in enumerate(subset):
            A[i] = list(M[k])
            B_cols[i] = [c[k] - M_inv[r][k] for r in range(d)]
            seen.add(_direction(list(M[k])))
        ok = _fill_rows(rng, A, B_cols, seen, d, bound)
        if not ok or any(not any(col or ()) for col in B_cols):
            continue
        rows = [r for r in A if r is not None]
        cols = [col for col in B_cols if col is not None]
        tensors: dict[str, object] = {
            "W_up": [[Fraction(x) for x in row] for row in rows],
            "W_down": [[Fraction(cols[i][r]) for i in range(n)] for r in range(d)],
        }
        inst = build_instance(activation, tensors, source=f"generated-postln(seed={seed})")
        prob = centered_problem(inst)
        Az, Bz = scale_matrix(inst.W_up), scale_matrix(inst.W_down)
        if not (check_generic(Az, Bz).generic and check_generic(prob.A, prob.CB).generic):
            continue
        if search_subset(Az, Bz, identity_int(d)).status != "none":
            continue  # the bare block might be absorbable (or the search is inconclusive)
        return GeneratedInstance(inst, seed, subset, _post_layernorm(rng, d))
    raise InputError(f"no post-LayerNorm-only block found in {POSTLN_TRIES} draws (d={d}, n={n}); "
                     "try another seed or a larger bound")


def norm_to_json(norm: Norm) -> dict:
    """The ``"norm"`` object of a ``check`` JSON instance (exact ``"p/q"`` strings)."""
    from pybridge.exact.numbers import fraction_to_json

    doc: dict = {"position": norm.position, "kind": norm.kind, "parallel": norm.parallel,
                 "eps": f"{norm.eps.numerator}/{norm.eps.denominator}" if norm.eps is not None else None}
    for key in ("gamma", "beta"):
        value = getattr(norm, key)
        if value is not None:
            doc[key] = [fraction_to_json(x) for x in value]
    return doc


def bert_checkpoint(blocks: list[GeneratedInstance]) -> tuple[dict, dict]:
    """``(tensors, config)`` of a BERT-style post-norm checkpoint holding ``blocks`` as its
    layers (``bert.encoder.layer.{i}.intermediate.dense`` = ``W_up``, ``output.dense`` =
    ``W_down``, ``output.LayerNorm`` = the block's norm; zero biases), float32, with the
    exact values of the blocks (checked: every entry must be a float32 exactly)."""
    import numpy as np

    if not blocks:
        raise InputError("a checkpoint needs at least one block")
    d, n = blocks[0].instance.d, blocks[0].instance.n
    act = blocks[0].instance.activation
    t: dict[str, object] = {}

    def arr(values: list[Fraction], shape: tuple[int, ...]) -> object:
        f32 = np.array([float(v) for v in values], dtype=np.float32).reshape(shape)
        if any(Fraction(x) != v for x, v in zip(f32.ravel().tolist(), values)):
            raise InputError("a weight is not exactly a float32: the checkpoint would not hold the block")
        return f32

    for i, gen in enumerate(blocks):
        inst, norm = gen.instance, gen.norm
        if (inst.d, inst.n) != (d, n) or inst.activation != act or inst.skip is not None or inst.has_bias:
            raise InputError("BERT-style layers share d, n and the activation, with the identity skip and no biases")
        if norm is None or norm.position != "post" or norm.kind != "layernorm" or norm.eps != POSTLN_EPS:
            raise InputError("every block needs its post-LayerNorm with eps = 1e-12")
        p = f"bert.encoder.layer.{i}"
        t[f"{p}.attention.output.dense.weight"] = np.eye(d, dtype=np.float32)
        t[f"{p}.attention.output.dense.bias"] = np.zeros(d, dtype=np.float32)
        t[f"{p}.intermediate.dense.weight"] = arr([x for r in inst.W_up for x in r], (n, d))
        t[f"{p}.intermediate.dense.bias"] = np.zeros(n, dtype=np.float32)
        t[f"{p}.output.dense.weight"] = arr([x for r in inst.W_down for x in r], (d, n))
        t[f"{p}.output.dense.bias"] = np.zeros(d, dtype=np.float32)
        t[f"{p}.output.LayerNorm.weight"] = arr(list(norm.gamma or ()), (d,))
        t[f"{p}.output.LayerNorm.bias"] = arr(list(norm.beta or (Fraction(0),) * d), (d,))
    config = {"model_type": "bert", "num_hidden_layers": len(blocks), "hidden_size": d,
              "intermediate_size": n, "hidden_act": act.label, "layer_norm_eps": 1e-12}
    return t, config
