"""Benchmark: exact decision + Coq certificate vs. the same decision in NumPy floats.

Plain script (not part of pytest). Usage:
    .venv/bin/python bench/bench_check.py [--stretch] [--quick]
Prints a Markdown table; copy the figures into bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pybridge.certificates import build_certificate, certify  # noqa: E402
from pybridge.decision import decide  # noqa: E402
from pybridge.model import Activation, Instance  # noqa: E402
from pybridge.prover import CoqBackend  # noqa: E402


def generic_instance(d: int, n: int, seed: int) -> tuple[Instance, np.ndarray, np.ndarray]:
    """Random integer weights in [-512, 512] over the denominator 1024."""
    rng = np.random.default_rng(seed)
    a = rng.integers(-512, 513, size=(n, d))
    b = rng.integers(-512, 513, size=(d, n))
    A = tuple(tuple(Fraction(int(v), 1024) for v in r) for r in a)
    B = tuple(tuple(Fraction(int(v), 1024) for v in r) for r in b)
    return Instance(Activation("relu"), A, B, source=f"generic d={d} n={n}"), a / 1024, b / 1024


def planted_instance(d: int, n: int, seed: int) -> tuple[Instance, np.ndarray, np.ndarray]:
    """A_S = L U (unit triangular, entries in {-1,0,1}), B_S = -(A_S)^-1, the rest random."""
    rng = random.Random(seed)
    L = np.eye(d, dtype=object)
    U = np.eye(d, dtype=object)
    for i in range(d):
        for j in range(i):
            if rng.random() < 0.05:
                L[i, j] = rng.choice((-1, 1))
            if rng.random() < 0.05:
                U[j, i] = rng.choice((-1, 1))
    As = L.dot(U)
    # exact inverse of unit triangular factors: U^-1 L^-1
    def inv_unit_lower(M):
        m = len(M)
        X = np.eye(m, dtype=object)
        for i in range(m):
            for j in range(i):
                X[i, j] = -sum(M[i, k] * X[k, j] for k in range(j, i))
        return X
    Linv = inv_unit_lower(L)
    Uinv = inv_unit_lower(U.T).T
    Bs = -(Uinv.dot(Linv))
    S = sorted(rng.sample(range(n), d))
    a = np.array([[rng.randint(-9, 9) for _ in range(d)] for _ in range(n)], dtype=object)
    b = np.array([[rng.randint(-9, 9) for _ in range(n)] for _ in range(d)], dtype=object)
    for t, i in enumerate(S):
        a[i, :] = As[t, :]
        b[:, i] = Bs[:, t]
    A = tuple(tuple(Fraction(int(v)) for v in r) for r in a)
    B = tuple(tuple(Fraction(int(v)) for v in r) for r in b)
    return Instance(Activation("relu"), A, B, source=f"planted d={d} n={n}"), a.astype(float), b.astype(float)


def float_decision(a: np.ndarray, b: np.ndarray) -> tuple[str, float]:
    """The unverified float version: least squares for s on rows k < K of the system, round, test."""
    t0 = time.perf_counter()
    n, d = a.shape
    K = d if d * d * n <= 2 * 10**7 else min(d, -(-(n + 9) // d))
    m = np.concatenate([(b[k][:, None] * a).T for k in range(K)])  # (K d) x n
    rhs = np.concatenate([-np.eye(d)[k] for k in range(K)])
    s, *_ = np.linalg.lstsq(m, rhs, rcond=None)
    s01 = np.round(s).clip(0, 1)
    full = (b * s01) @ a
    verdict = "absorbable" if np.allclose(full, -np.eye(d), atol=1e-8) else "not_absorbable"
    return verdict, time.perf_counter() - t0


def run(label: str, inst: Instance, a, b, backend: CoqBackend, keep: Path | None) -> dict:
    t0 = time.perf_counter()
    dec = decide(inst)
    t_dec = time.perf_counter() - t0
    t1 = time.perf_counter()
    cert = build_certificate(inst, dec)
    t_gen = time.perf_counter() - t1
    t2 = time.perf_counter()
    res = certify(inst, dec, backend, timeout=1200, keep_dir=keep)
    t_cert = time.perf_counter() - t2
    fv, t_float = float_decision(a, b)
    size = len(cert.source) if cert else 0
    return dict(case=label, d=inst.d, n=inst.n, verdict=dec.verdict, decide=t_dec, gen=t_gen,
                coq=res.seconds if res else 0.0, certify=t_cert, total=t_dec + t_cert,
                accepted=bool(res and res.accepted), float=t_float, float_verdict=fv,
                ratio=(t_dec + t_cert) / t_float, kb=size / 1024, msg=(res.message if res and not res.accepted else ""))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--stretch", action="store_true", help="also d=768, n=3072")
    ap.add_argument("--quick", action="store_true", help="small sizes only")
    ap.add_argument("--keep", type=Path, default=None, help="keep the certificates here")
    args = ap.parse_args()
    backend = CoqBackend()
    cases = []
    if args.quick:
        cases += [("generic ReLU", *generic_instance(32, 128, 1)), ("planted S", *planted_instance(16, 64, 2))]
    else:
        cases += [("generic ReLU", *generic_instance(256, 1024, 1)), ("planted S", *planted_instance(64, 256, 2))]
    if args.stretch:
        cases.append(("generic ReLU (stretch)", *generic_instance(768, 3072, 3)))
    rows = [run(label, inst, a, b, backend, args.keep) for label, inst, a, b in cases]
    print("| case | d | n | verdict | decide (s) | certificate gen (s) | coqc (s) | total exact+Coq (s) | "
          "accepted | cert size (KiB) | NumPy float (s) | float verdict | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['case']} | {r['d']} | {r['n']} | {r['verdict']} | {r['decide']:.2f} | {r['gen']:.2f} | "
              f"{r['coq']:.2f} | {r['total']:.2f} | {r['accepted']} | {r['kb']:.0f} | {r['float']:.3f} | "
              f"{r['float_verdict']} | {r['ratio']:.0f}x |")
        if r["msg"]:
            print(f"  note: {r['msg'][:300]}")


if __name__ == "__main__":
    main()
