"""Benchmark: certificates of float32 weights (coded numerators, ``CodedData.v``).

Plain script (not part of pytest). Usage:
    .venv/bin/python bench/bench_coded.py [--d 768 --n 3072] [--tiny] [--keep DIR]
A GELU-free ReLU block with float32 N(0, 0.02) weights (GPT-2's initialisation), so
numerators over one denominator per matrix need about 46 bits; with ``--tiny`` one
entry of each matrix is set to float32(1e-30) next to 1.0 (about 150 bits). Prints the
same figures as ``bench_check.py`` (decide, certificate generation, coqc, float LU).
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_check import run  # noqa: E402

from pybridge.coq.backend import CoqBackend  # noqa: E402
from pybridge.model import Activation, Instance  # noqa: E402


def float32_instance(d: int, n: int, seed: int, tiny: bool) -> tuple[Instance, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.normal(0, 0.02, size=(n, d)).astype(np.float32)
    b = rng.normal(0, 0.02, size=(d, n)).astype(np.float32)
    if tiny:
        a[0, 0], a[0, 1], b[1, 2] = np.float32(1e-30), np.float32(1.0), np.float32(1e-30)
    A = tuple(tuple(map(Fraction, r)) for r in a.astype(np.float64).tolist())
    B = tuple(tuple(map(Fraction, r)) for r in b.astype(np.float64).tolist())
    label = f"float32 ReLU{' with 1e-30 and 1' if tiny else ''}"
    return Instance(Activation("relu"), A, B, source=label), a.astype(np.float64), b.astype(np.float64)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--d", type=int, default=768)
    ap.add_argument("--n", type=int, default=3072)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--tiny", action="store_true")
    ap.add_argument("--keep", type=Path, default=None)
    args = ap.parse_args()
    inst, a, b = float32_instance(args.d, args.n, args.seed, args.tiny)
    print("RESULT " + json.dumps(run(inst.source, inst, a, b, CoqBackend(), args.keep)))


if __name__ == "__main__":
    main()
