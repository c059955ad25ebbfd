"""Benchmark: exact decision + Coq certificate vs. the same decision in NumPy floats.

Plain script (not part of pytest). Usage:
    .venv/bin/python bench/bench_check.py [--stretch] [--quick] [--only NAME]
Each case runs in its own process under ``/usr/bin/time -v`` (peak memory of the
process and of coqc), on the same data: the exact decision + Coq-checked certificate,
then the unverified float decision by LU (``numpy.linalg.solve`` on the same ``n + 1``
block equations the certificate uses; the fastest of three runs), and their ratio; and
the coqc floor: starting coqc, loading the same library modules and ``Print Assumptions``
of the same lemma, which every certificate pays whatever its data. Prints a Markdown table;
copy the figures into bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pybridge.certify.pipeline import build_certificate, certify  # noqa: E402
from pybridge.coq.backend import CoqBackend  # noqa: E402
from pybridge.decision import decide  # noqa: E402
from pybridge.decision.subset_search import block_indices  # noqa: E402
from pybridge.exact.arrays import ArrayMatrix  # noqa: E402
from pybridge.model import Activation, Instance  # noqa: E402


def generic_instance(d: int, n: int, seed: int) -> tuple[Instance, np.ndarray, np.ndarray]:
    """Random integer weights in [-512, 512] over the denominator 1024."""
    rng = np.random.default_rng(seed)
    a = rng.integers(-512, 513, size=(n, d))
    b = rng.integers(-512, 513, size=(d, n))
    A = tuple(tuple(Fraction(int(v), 1024) for v in r) for r in a)
    B = tuple(tuple(Fraction(int(v), 1024) for v in r) for r in b)
    return Instance(Activation("relu"), A, B, source=f"generic d={d} n={n}"), a / 1024, b / 1024


def generic_array_instance(d: int, n: int, seed: int) -> tuple[Instance, np.ndarray, np.ndarray]:
    """The weights of :func:`generic_instance`, as float64 arrays (``k / 1024`` is exact),
    read the way array files and checkpoints are (``ArrayMatrix``: no Fraction per entry)."""
    inst, a, b = generic_instance(d, n, seed)
    arr = Instance(Activation("relu"), ArrayMatrix(a, exact=True), ArrayMatrix(b, exact=True),  # type: ignore[arg-type]
                   source=f"generic d={d} n={n} (arrays)")
    return arr, a, b


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
    """The unverified float version, by LU on the same n + 1 block equations the exact
    certificate uses (rows R of W_down, columns R of W_up): solve the first n of them for s
    (``numpy.linalg.solve``), round to 0/1, test ``B[:,S] A[S,:] = -I`` in floats."""
    t0 = time.perf_counter()
    n, d = a.shape
    R = list(block_indices(d, n))
    r = len(R)
    pos = [(k, l) for k in range(r) for l in range(r)][: n + 1]
    ks = np.array([R[k] for k, _ in pos])
    ls = np.array([R[l] for _, l in pos])
    verdict = "singular"
    for ks, ls in ((np.array([R[k] for k, _ in pos]), np.array([R[l] for _, l in pos])),
                   (np.arange(n) // d, np.arange(n) % d)):  # else the first n equations row by row
        if len(ks) < n:
            continue
        m = b[ks[:n], :] * a[:, ls[:n]].T  # n x n: coefficient of s_i in equation (k, l)
        rhs = -(ks[:n] == ls[:n]).astype(float)
        try:
            s = np.linalg.solve(m, rhs)
        except np.linalg.LinAlgError:
            continue
        s01 = np.round(s).clip(0, 1)
        full = (b * s01) @ a
        verdict = "absorbable" if np.allclose(full, -np.eye(d), atol=1e-8) else "not_absorbable"
        break
    return verdict, time.perf_counter() - t0


def run(label: str, inst: Instance, a, b, backend: CoqBackend, keep: Path | None) -> dict:
    t0, c0 = time.perf_counter(), time.process_time()
    dec = decide(inst)
    t_dec, c_dec = time.perf_counter() - t0, time.process_time() - c0
    t1 = time.perf_counter()
    cert = build_certificate(inst, dec)
    t_gen = time.perf_counter() - t1
    t2 = time.perf_counter()
    res = certify(inst, dec, backend, timeout=1200, keep_dir=keep)
    t_cert = time.perf_counter() - t2
    # the float side at its best: the fastest of three runs (the first pays BLAS warm-up)
    runs = [float_decision(a, b) for _ in range(3)]
    fv, t_float = runs[0][0], min(t for _, t in runs)
    size = len(cert.source) if cert else 0
    floor = coqc_floor(cert.source, backend) if cert else 0.0
    return dict(case=label, d=inst.d, n=inst.n, verdict=dec.verdict, decide=t_dec, decide_cpu=c_dec, gen=t_gen,
                coq=res.seconds if res else 0.0, floor=floor, certify=t_cert, total=t_dec + t_cert,
                accepted=bool(res and res.accepted), float=t_float, float_verdict=fv,
                ratio=(t_dec + t_cert) / t_float, kb=size / 1024, kind=cert.kind.value if cert else "",
                msg=(res.message if res and not res.accepted else ""))


def coqc_floor(source: str, backend: CoqBackend) -> float:
    """What any certificate of this kind costs coqc before reading its data: starting, loading
    the same library modules and ``Print Assumptions`` of the same ``Certify`` lemma."""
    head = source.split("Module Cert.", 1)[0]
    lemma = re.search(r"Proof\. exact \(([A-Za-z0-9_]+) ", source)
    if lemma is None:
        return float("nan")
    res = backend.check_file(head + f"Print Assumptions {lemma.group(1)}.\n", stem="Floor", timeout=300)
    return res.seconds if res.accepted else float("nan")


CASES = {
    "generic-256": ("generic ReLU", lambda: generic_instance(256, 1024, 1)),
    "planted-64": ("planted S", lambda: planted_instance(64, 256, 2)),
    "generic-768": ("generic ReLU (GPT-2 layer)", lambda: generic_instance(768, 3072, 3)),
    "generic-768-array": ("generic ReLU (GPT-2 layer), read from arrays",
                          lambda: generic_array_instance(768, 3072, 3)),
    "generic-32": ("generic ReLU", lambda: generic_instance(32, 128, 1)),
    "planted-16": ("planted S", lambda: planted_instance(16, 64, 2)),
}


def one_case(name: str, keep: Path | None) -> None:
    label, make = CASES[name]
    inst, a, b = make()
    print("RESULT " + json.dumps(run(label, inst, a, b, CoqBackend(), keep)))


def peak_mb(stderr: str) -> float:
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", stderr)
    return int(m.group(1)) / 1024 if m else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--stretch", action="store_true", help="also d=768, n=3072")
    ap.add_argument("--quick", action="store_true", help="small sizes only")
    ap.add_argument("--only", choices=sorted(CASES), action="append", help="run these cases only")
    ap.add_argument("--keep", type=Path, default=None, help="keep the certificates here")
    ap.add_argument("--case", choices=sorted(CASES), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.case:
        one_case(args.case, args.keep)
        return
    names = args.only or (["generic-32", "planted-16"] if args.quick else ["generic-256", "planted-64"])
    if args.stretch:
        names.append("generic-768")
    rows = []
    for name in names:
        cmd = ["/usr/bin/time", "-v", sys.executable, __file__, "--case", name]
        if args.keep:
            cmd += ["--keep", str(args.keep)]
        before = os.getloadavg()[0]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
        if line is None:
            print(f"{name}: failed\n{proc.stderr[-2000:]}")
            continue
        r = json.loads(line[7:])
        r["peak"] = peak_mb(proc.stderr)
        r["load"] = f"{before:.1f}-{os.getloadavg()[0]:.1f}"
        rows.append(r)
    load = os.getloadavg()
    print(f"load average before the last case: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print("| case | d | n | verdict | decide (s) | decide CPU (s) | certificate gen (s) | coqc (s) | "
          "coqc floor (s) | total exact+Coq (s) | accepted | kind | cert size (KiB) | float LU (s) | float verdict | "
          "ratio | peak RSS (MB) | load (1 min, before-after) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['case']} | {r['d']} | {r['n']} | {r['verdict']} | {r['decide']:.2f} | {r['decide_cpu']:.2f} | "
              f"{r['gen']:.2f} | {r['coq']:.2f} | {r['floor']:.2f} | {r['total']:.2f} | {r['accepted']} | {r['kind']} | "
              f"{r['kb']:.0f} | {r['float']:.3f} | {r['float_verdict']} | {r['ratio']:.1f}x | {r['peak']:.0f} | "
              f"{r['load']} |")
        if r["msg"]:
            print(f"  note: {r['msg'][:300]}")


if __name__ == "__main__":
    main()
