"""One GPT-2-shaped layer per size: the whole ``scan`` (read, exact decision, certificate, coqc)
against the float LU of the same equations, with the peak memory of each case.

Plain script (not part of pytest). Usage:
    .venv/bin/python bench/bench_layers.py [--d 768 --d 1024 ...] [--dir /tmp/bench_layers] [--biases]
Each size is written once by ``bench/make_gpt2_checkpoint.py --layers 1 --d D`` (float32
N(0, 0.02) weights in GPT-2's Conv1D layout, bias tensors present and zero, ``gelu_new``;
with ``--biases``, biases N(0, 0.02): the R9 route)
and measured in its own process, so that peak RSS (``getrusage``: the Python process, and
coqc among its children) is that case's alone. In the child:

- ``pybridge.scanning.scan(DIR, jobs=1, max_entries=10**9)``: ``total`` is its wall clock
  (reading the tensors included), ``decide`` and ``certify`` (certificate text, agreement
  check and coqc) the report's timings, ``coqc`` the prover's own time;
- ``float LU``: ``numpy.linalg.solve`` on the same ``n + 1`` block equations as the
  certificate (rows R of W_down, columns R of W_up; ``bench_check.float_decision``), the
  fastest of three runs, after the scan, with the same BLAS threads;
- ``ratio``: decide / float LU and total / float LU.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SIZES = (768, 1024, 1600, 2048, 4096)


def child(path: Path) -> dict:
    """Scan one checkpoint, then time the float LU of the same equations (in this process)."""
    import numpy as np

    sys.path.insert(0, str(HERE))
    from bench_check import float_decision

    from pybridge.io import checkpoints as ck
    from pybridge.scanning import scan

    t0 = time.perf_counter()
    res = scan(path, jobs=1, max_entries=10**9, timeout=3600)
    total = time.perf_counter() - t0
    peak_py = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    peak_coq = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    (layer,) = res.layers
    rep = layer.report
    assert rep is not None, layer.note
    ckpt = ck.open_checkpoint(path)
    lay = ck.find_layers(ckpt)[0]
    up = lay.weights["up"].file.array(lay.weights["up"].name)
    down = lay.weights["down"].file.array(lay.weights["down"].name)
    a = np.asarray(up, dtype=np.float64).T if lay.transposed else np.asarray(up, dtype=np.float64)
    b = np.asarray(down, dtype=np.float64).T if lay.transposed else np.asarray(down, dtype=np.float64)
    runs = [float_decision(a, b) for _ in range(3)]
    t_float = min(t for _, t in runs)
    return dict(d=rep.d, n=rep.n, verdict=rep.decision.verdict, checked=rep.checked,
                decide=rep.timings.get("decide", float("nan")), certify=rep.timings.get("certify", float("nan")),
                coqc=rep.prover.seconds if rep.prover else float("nan"), total=total, float=t_float,
                float_verdict=runs[0][0], peak_py_mb=peak_py, peak_coqc_mb=peak_coq)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--d", type=int, action="append", help=f"sizes (default {', '.join(map(str, SIZES))})")
    ap.add_argument("--dir", type=Path, default=Path("/tmp/bench_layers"), help="where the checkpoints go")
    ap.add_argument("--biases", action="store_true", help="nonzero biases (R9)")
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print("RESULT " + json.dumps(child(args.child)), flush=True)
        return
    print("| d, n | verdict | Coq | decide (s) | certify (s) | coqc (s) | **total** (s) | float LU (s) | "
          "decide / LU | total / LU | peak RSS Python / coqc | load before -> after |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for d in args.d or SIZES:
        path = args.dir / f"d{d}{'b' if args.biases else ''}"
        if not (path / "model.safetensors").exists():
            subprocess.run([sys.executable, str(HERE / "make_gpt2_checkpoint.py"), str(path), "--layers", "1",
                            "--d", str(d), *(["--biases"] if args.biases else [])], check=True, capture_output=True)
        before = os.getloadavg()[0]
        proc = subprocess.run([sys.executable, __file__, "--child", str(path)], capture_output=True, text=True)
        after = os.getloadavg()[0]
        line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
        if line is None:
            print(f"| {d} | failed: {proc.stderr.strip().splitlines()[-1:] } |", flush=True)
            continue
        r = json.loads(line[len("RESULT "):])
        print(f"| {r['d']}, {r['n']} | {r['verdict']} | {'yes' if r['checked'] else 'no'} | {r['decide']:.1f} | "
              f"{r['certify']:.1f} | {r['coqc']:.1f} | **{r['total']:.1f}** | {r['float']:.2f} | "
              f"{r['decide'] / r['float']:.1f}x | {r['total'] / r['float']:.1f}x | "
              f"{r['peak_py_mb'] / 1024:.2f} / {r['peak_coqc_mb'] / 1024:.2f} GB | {before:.1f} -> {after:.1f} |",
              flush=True)


if __name__ == "__main__":
    main()
