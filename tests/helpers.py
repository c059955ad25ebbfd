"""Helpers shared by the tests (exact blocks, planted instances, a mini Coq library)."""

from __future__ import annotations

import json
import random
import shutil
import struct
from dataclasses import replace
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

from pybridge.coq import CoqBackend
from pybridge.errors import InputError
from pybridge.exact.linalg import invert, rank
from pybridge.model import Activation, Instance

REPO = Path(__file__).resolve().parent.parent
RELU = Activation("relu")


def examples(nominal: int) -> int:
    """A property test's example count under the active Hypothesis profile: ``nominal`` scaled
    by the profile's ``max_examples`` / 100 (``ci``: a quarter, ``thorough``: four times), at
    least 3."""
    from hypothesis import settings

    return max(3, nominal * settings.default.max_examples // 100)


def relu(z: F) -> F:
    return z if z > 0 else F(0)


def mat(rows) -> tuple:
    return tuple(tuple(F(v) for v in r) for r in rows)


def block(A, B, x, bias_up=None, bias_down=None):
    n, d = len(A), len(B)
    c = bias_up or [F(0)] * n
    h = [relu(sum(A[i][l] * x[l] for l in range(d)) + c[i]) for i in range(n)]
    b0 = bias_down or [F(0)] * d
    return [sum(B[k][i] * h[i] for i in range(n)) + b0[k] for k in range(d)]


def residual(P, A, B, x, **kw):
    d = len(B)
    f = block(A, B, x, **kw)
    px = [sum(P[k][l] * x[l] for l in range(d)) for k in range(d)] if P else list(x)
    return [px[k] + f[k] for k in range(d)]


def matmul(X, Y):
    return tuple(tuple(sum((X[i][k] * Y[k][j] for k in range(len(Y))), F(0)) for j in range(len(Y[0])))
                 for i in range(len(X)))


def planted(d: int, n: int, seed: int):
    """W_up random; columns S of W_down chosen so that B[:,S] A[S,:] = -I."""
    rng = random.Random(seed)
    while True:
        A = [[F(rng.randint(-4, 4)) for _ in range(d)] for _ in range(n)]
        S = sorted(rng.sample(range(n), d))
        try:
            inv = invert(mat([A[i] for i in S]))
            break
        except InputError:
            continue
    B = [[F(rng.randint(-4, 4)) for _ in range(n)] for _ in range(d)]
    for t, i in enumerate(S):
        for k in range(d):
            B[k][i] = -inv[k][t]
    return mat(A), mat(B), tuple(S)


def random_points(d: int, count: int, seed: int):
    rng = random.Random(seed)
    return [[F(rng.randint(-50, 50), rng.randint(1, 7)) for _ in range(d)] for _ in range(count)]


def structured_wide(seed: int = 40):
    """d = 40, n = 5: the first equations (row 0) admit S = {0}; the rest do not."""
    rng = random.Random(seed)
    d, n = 40, 5
    A = [[F(rng.randint(-9, 9)) if l >= 14 else F(0) for l in range(d)] for _ in range(n)]
    B = [[F(rng.randint(-9, 9)) if k >= 1 else F(0) for _ in range(n)] for k in range(d)]
    A[0][0] = F(1)
    B[0][0] = F(-1)
    for i in range(1, n):
        A[i][rng.randrange(14)] = F(rng.randint(1, 9))
    return mat(A), mat(B)


def generic_instance(d: int, n: int, seed: int, skip=None) -> Instance:
    """Random rational ReLU weights (generic with overwhelming probability)."""
    rng = random.Random(seed)
    A = mat([[F(rng.randint(-9, 9), rng.randint(1, 4)) for _ in range(d)] for _ in range(n)])
    B = mat([[F(rng.randint(-9, 9)) for _ in range(n)] for _ in range(d)])
    return Instance(RELU, A, B, skip=skip)


MINI_BASE = """From Coq Require Import Arith.
Definition double (n : nat) : nat := n + n.

Lemma double_plus n : double n = n + n.
Proof. reflexivity. Qed.

Axiom base_ax : forall n : nat, n + 0 = n.

Lemma uses_ax n : double n + 0 = double n.
Proof. apply base_ax. Qed.

Lemma orphan' : 1 + 1 = 2.
Proof. reflexivity. Qed.

Lemma résumé : True.
Proof. exact I. Qed.
"""

MINI_TOP = """From Absorb Require Import Base.
Theorem top_thm n : double n + 0 = n + n.
Proof. rewrite uses_ax. apply double_plus. Qed.

Definition unused_def := 3.

Corollary top_cor : double 1 + 0 = 2.
Proof. apply (top_thm 1). Qed.
"""

MINI_EXTRA = """From Absorb Require Import Top.
Lemma extra_lemma : Top.unused_def = 3.
Proof. reflexivity. Qed.
"""

MINI_RESULTS = """[[result]]
id = "R1"
title = "The top theorem"
theorems = ["Absorb.Top.top_thm"]
missing = ""

[[result]]
id = "R2"
title = "Its corollary"
theorems = ["Top.top_cor"]
missing = ""

[[result]]
id = "R3"
title = "Not proved yet"
theorems = []
missing = "later"
"""


def make_mini_library(root: Path) -> CoqBackend:
    """A three-file library under ``root/coq`` (Extra.v not yet in ``_CoqProject``), built."""
    theories = root / "coq" / "theories"
    theories.mkdir(parents=True)
    shutil.copyfile(REPO / "coq" / "Makefile", root / "coq" / "Makefile")
    (root / "coq" / "_CoqProject").write_text(
        "-R theories Absorb\ntheories/Base.v\ntheories/Top.v\n"
    )
    (theories / "Base.v").write_text(MINI_BASE)
    (theories / "Top.v").write_text(MINI_TOP)
    (theories / "Extra.v").write_text(MINI_EXTRA)
    (root / "coq" / "results.toml").write_text(MINI_RESULTS)
    backend = CoqBackend(root=root)
    build = backend.build_library()
    assert build.ok, build.log[-2000:]
    return backend

# ---------------------------------------------------------------- R8 oracles (no ridge-form theory)
# Used by tests/exact/test_width.py and tests/decision/test_width_route.py. Two bias-free ReLU blocks on R^2
# are positively homogeneous and linear on every sector cut out by the lines a . x = 0 of
# both: equal values at two independent points inside every sector prove equality.


def _rays(rows):
    """Rational rays on the lines a . x = 0 (both signs), plus the axes, sorted by angle."""
    import math

    rays = {(1, 0), (-1, 0), (0, 1), (0, -1)}
    for a in rows:
        if a[0] or a[1]:
            rays.add((-a[1], a[0]))
            rays.add((a[1], -a[0]))
    norm = []
    for x, y in rays:
        norm.append((F(x), F(y)))
    uniq = {}
    for x, y in norm:
        ang = math.atan2(float(y), float(x))
        key = round(ang, 12)
        uniq.setdefault(key, (x, y))
    return [uniq[k] for k in sorted(uniq)]


def sector_points(rows):
    """Two independent points strictly inside each sector of the arrangement (d = 2)."""
    rays = _rays(rows)
    pts = []
    for i in range(len(rays)):
        r1, r2 = rays[i], rays[(i + 1) % len(rays)]
        pts.append((r1[0] + r2[0], r1[1] + r2[1]))
        pts.append((2 * r1[0] + r2[0], 2 * r1[1] + r2[1]))
    return pts


def block_value(W_up, W_down, x, b_up=None, b_down=None, residual=False):
    d = len(W_down)
    n = len(W_up)
    h = [relu(sum((W_up[i][q] * x[q] for q in range(d)), F(0)) + (b_up[i] if b_up else 0)) for i in range(n)]
    out = [sum((W_down[p][i] * h[i] for i in range(n)), F(0)) + (b_down[p] if b_down else 0) for p in range(d)]
    if residual:
        out = [o + x[p] for p, o in enumerate(out)]
    return out


def random_block(rng: random.Random, d: int, n: int):
    """Small integer weights with planted structure: parallel, opposite, duplicate and zero rows."""
    A, cols = [], []
    for _ in range(n):
        kind = rng.random()
        if A and kind < 0.35:
            base = rng.choice(A)
            lam = rng.choice([-2, -1, 1, 2, 3])
            A.append([lam * v for v in base])
        elif kind < 0.42:
            A.append([0] * d)
        else:
            A.append([rng.randint(-2, 2) for _ in range(d)])
        cols.append([rng.randint(-2, 2) for _ in range(d)])
    B = [[cols[i][p] for i in range(n)] for p in range(d)]
    return A, B


def solvable(rows, A, B, pts):
    """Is there W_down with W_down relu(rows x) == x + B relu(A x) on every point?"""
    m = len(rows)
    d = len(B)
    phi = [[relu(sum((r[q] * x[q] for q in range(d)), F(0))) for r in rows] for x in pts]
    target = [block_value(A, B, x, residual=True) for x in pts]
    for p in range(d):
        aug = [phi[s] + [target[s][p]] for s in range(len(pts))]
        if rank(aug) != rank([row[:m] for row in aug]):
            return False
    return True


def write_bf16_safetensors(path: Path, tensors: dict[str, tuple[list[int], list[int]]]) -> None:
    """Write raw bfloat16 bit patterns (uint16) with the BF16 dtype tag."""
    header, blobs, offset = {}, [], 0
    for name, (shape, bits) in tensors.items():
        blob = np.array(bits, dtype="<u2").tobytes()
        header[name] = {"dtype": "BF16", "shape": shape, "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    h = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(h)) + h + b"".join(blobs))


def evidence_entry_changed(inst: Instance, dec, i: int, j: int, change, match_weights: bool = True):
    """``(instance, decision)`` with the decision's evidence ``W_up`` numerator ``(i, j)``
    replaced by ``change(old)``; with ``match_weights`` the instance's ``W_up`` is changed to
    match (so the agreement check passes and only Coq can object)."""
    ev = dec.evidence
    rows = [list(r) for r in ev.A.rows]
    rows[i][j] = change(rows[i][j])
    A2 = type(ev.A)(tuple(tuple(r) for r in rows), ev.A.den)
    if match_weights:
        inst = replace(inst, W_up=tuple(tuple(F(v, A2.den) for v in r) for r in A2.rows))
    return inst, rebound(replace(dec, evidence=replace(ev, A=A2)), inst)


def rebound(dec, inst: Instance):
    """``dec`` with its weights digest forged to be ``inst``'s: what a decision for other
    weights must carry to get past the digest check, so that the later checks (agreement,
    statement vetting, Coq) are the ones tested."""
    from pybridge.decision.identity import weights_digest

    return replace(dec, weights_sha256=weights_digest(inst))


def run_main(capsys, *argv: str) -> tuple[int, str, str]:
    """Run the CLI in-process: (exit code, stdout, stderr)."""
    from pybridge.cli import main

    with pytest.raises(SystemExit) as info:
        main(list(argv))
    out, err = capsys.readouterr()
    return info.value.code, out, err
