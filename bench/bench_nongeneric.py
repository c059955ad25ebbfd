"""Non-generic layers through the width route (issue 20 item 3): time decide and certify.

Cases are generated in memory as float32 arrays read exactly (``ArrayMatrix``, as a
checkpoint is read): a generic ReLU layer, the same with one zero row of ``W_up``
(a pruned neuron), with one zero column of ``W_down`` (a dead neuron), with duplicate rows,
a square layer whose rows are all identical, and a stride-0 view (``numpy.broadcast_to``)
of one row; and GPT-2's activation (``gelu_tanh``, R8'): generic, one zero row, one row the
negative of another.

    PYBRIDGE_ROOT=/work/wt/lib .venv/bin/python bench/bench_nongeneric.py [--no-prove] [--case NAME ...]

Prints one line per case: verdict, result, decide seconds, certify seconds (Coq), checked,
and the CPU seconds of the case (this process and its coqc children: less sensitive to the
machine's load than wall-clock time, which on a shared machine is noisy).
"""

from __future__ import annotations

import argparse
import resource
import time
from typing import Callable

import numpy as np

from pybridge.activations import resolve
from pybridge.certify.pipeline import certify
from pybridge.coq.backend import CoqBackend
from pybridge.decision.classify import decide
from pybridge.exact.arrays import ArrayMatrix
from pybridge.model import Instance


def _instance(act: str, A: np.ndarray, B: np.ndarray) -> Instance:
    return Instance(resolve(act), ArrayMatrix(A, exact=True), ArrayMatrix(B, exact=True))


def _random(d: int, n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    A = (rng.standard_normal((n, d)) * 0.02).astype(np.float32)
    B = (rng.standard_normal((d, n)) * 0.02).astype(np.float32)
    return A, B


def generic(d: int, n: int) -> Instance:
    A, B = _random(d, n)
    return _instance("relu", A, B)


def zero_row(d: int, n: int) -> Instance:
    A, B = _random(d, n)
    A[n // 2] = 0
    return _instance("relu", A, B)


def duplicate_rows(d: int, n: int) -> Instance:
    A, B = _random(d, n)
    A[1] = A[0]
    return _instance("relu", A, B)


def generic_gelu(d: int, n: int) -> Instance:
    A, B = _random(d, n)
    return _instance("gelu_tanh", A, B)


def zero_row_gelu(d: int, n: int) -> Instance:
    A, B = _random(d, n)
    A[n // 2] = 0
    return _instance("gelu_tanh", A, B)


def opposite_rows_gelu(d: int, n: int) -> Instance:
    A, B = _random(d, n)
    A[1] = -A[0]
    return _instance("gelu_tanh", A, B)


def dead_column(d: int, n: int) -> Instance:
    A, B = _random(d, n)
    B[:, n // 2] = 0
    return _instance("relu", A, B)


def identical_rows(d: int, n: int) -> Instance:
    A, B = _random(d, n)
    A[:] = A[0]
    return _instance("relu", A, B)


def stride0_view(d: int, n: int) -> Instance:
    A, B = _random(d, n)
    return _instance("relu", np.broadcast_to(A[0], (n, d)), B)


CASES: dict[str, tuple[Callable[[int, int], Instance], int, int]] = {
    "generic_64x256": (generic, 64, 256),
    "zero_row_64x256": (zero_row, 64, 256),
    "duplicate_64x256": (duplicate_rows, 64, 256),
    "generic_256x1024": (generic, 256, 1024),
    "zero_row_256x1024": (zero_row, 256, 1024),
    "identical_300x300": (identical_rows, 300, 300),
    "stride0_900x900": (stride0_view, 900, 900),
    "identical_4096x64": (identical_rows, 4096, 64),
    "generic_768x3072": (generic, 768, 3072),
    "zero_row_768x3072": (zero_row, 768, 3072),
    "dead_768x3072": (dead_column, 768, 3072),
    "duplicate_768x3072": (duplicate_rows, 768, 3072),
    "generic_gelu_768x3072": (generic_gelu, 768, 3072),
    "zero_row_gelu_768x3072": (zero_row_gelu, 768, 3072),
    "opposite_gelu_768x3072": (opposite_rows_gelu, 768, 3072),
}


def _cpu() -> float:
    """CPU seconds used so far by this process and its finished children (coqc)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-prove", action="store_true", help="decide only (no Coq)")
    ap.add_argument("--case", action="append", choices=sorted(CASES), help="run only these cases")
    ap.add_argument("--timeout", type=float, default=600.0)
    args = ap.parse_args()
    backend = None if args.no_prove else CoqBackend()
    for name in args.case or list(CASES):
        make, d, n = CASES[name]
        cpu0 = _cpu()
        t0 = time.perf_counter()
        inst = make(d, n)
        t1 = time.perf_counter()
        dec = decide(inst)
        t2 = time.perf_counter()
        cert_s, checked, note = None, None, ""
        if backend is not None and dec.verdict in ("absorbable", "not_absorbable"):
            res = certify(inst, dec, backend, timeout=args.timeout)
            cert_s = time.perf_counter() - t2
            checked = res is not None and res.accepted
            note = "" if checked or res is None else res.message.splitlines()[0][:160]
        print(f"{name}: read {t1 - t0:.2f}s  decide {t2 - t1:.2f}s  verdict {dec.verdict} ({dec.result})  "
              f"certify {'-' if cert_s is None else f'{cert_s:.1f}s'}  checked {checked}  "
              f"cpu {_cpu() - cpu0:.1f}s  {note}", flush=True)
        print(f"    {dec.reason[:240]}", flush=True)


if __name__ == "__main__":
    main()
