"""Post-LayerNorm sublayer verdicts at real size (issue #19): a BERT-style layer with biases.

Writes one BERT-style post-LN layer (``bert.encoder.layer.0``: ``intermediate.dense`` =
``W_up`` + ``b_up``, ``output.dense`` = ``W_down`` + ``b_down``, ``output.LayerNorm`` gamma /
beta; float32 N(0, 0.02) weights and biases, gamma N(1, 0.02), eps 1e-12; ``hidden_act``
gelu) and measures, each once:

- ``decide``: :func:`pybridge.decision.postnorm.decide_postln` (exact; R11' through C·P);
- ``full``: the full certificate (``cert_postln_bias_not_absorbable``) built and checked by
  coqc through the driver (skipped with ``--no-full``; ``--full-timeout`` seconds);
- ``partial``: the partial (block) certificate, likewise;
- ``scan``: ``pybridge.scanning.scan`` of the checkpoint (reading, bare and sublayer
  verdicts, both Coq-checked): the sublayer verdict must be ``not_absorbable``, checked.

Usage: ``PYBRIDGE_ROOT=<checkout with the library built> .venv/bin/python bench/bench_postln.py
--d 384 --n 1536 --dir /tmp/postln``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
from safetensors.numpy import save_file

from pybridge.certify.postnorm import build_postln_certificate, expected_postln, run_postln
from pybridge.coq.backend import CoqBackend
from pybridge.decision.postnorm import decide_postln
from pybridge.io import checkpoints as ck  # noqa: F401  (the reader the scan uses)
from pybridge.model import Activation, Instance, Norm
from pybridge.scanning import scan


def write_layer(path: Path, d: int, n: int, seed: int) -> tuple[Instance, Norm]:
    """The checkpoint in ``path`` and the same layer as an exact instance and norm."""
    rng = np.random.default_rng(seed)
    f = np.float32
    W_up = rng.normal(0, 0.02, (n, d)).astype(f)
    b_up = rng.normal(0, 0.02, n).astype(f)
    W_down = rng.normal(0, 0.02, (d, n)).astype(f)
    b_down = rng.normal(0, 0.02, d).astype(f)
    gamma = rng.normal(1, 0.02, d).astype(f)
    beta = rng.normal(0, 0.02, d).astype(f)
    p = "bert.encoder.layer.0"
    t = {f"{p}.attention.output.dense.weight": np.eye(d, dtype=f),
         f"{p}.attention.output.dense.bias": np.zeros(d, dtype=f),
         f"{p}.intermediate.dense.weight": W_up, f"{p}.intermediate.dense.bias": b_up,
         f"{p}.output.dense.weight": W_down, f"{p}.output.dense.bias": b_down,
         f"{p}.output.LayerNorm.weight": gamma, f"{p}.output.LayerNorm.bias": beta}
    path.mkdir(parents=True, exist_ok=True)
    save_file(t, str(path / "model.safetensors"))
    (path / "config.json").write_text(json.dumps({
        "model_type": "bert", "num_hidden_layers": 1, "hidden_size": d, "intermediate_size": n,
        "hidden_act": "gelu", "layer_norm_eps": 1e-12}))

    def fr(a: np.ndarray) -> tuple:
        return tuple(Fraction(float(x)) for x in a.tolist())
    inst = Instance(Activation("gelu"), tuple(fr(r) for r in W_up), tuple(fr(r) for r in W_down),
                    b_up=fr(b_up), b_down=fr(b_down))
    norm = Norm("post", "layernorm", False, fr(gamma), fr(beta), Fraction(1e-12))
    return inst, norm


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--d", type=int, default=384)
    ap.add_argument("--n", type=int, default=1536)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dir", type=Path, default=Path("/tmp/bench_postln"))
    ap.add_argument("--no-full", action="store_true")
    ap.add_argument("--full-timeout", type=float, default=1800.0)
    args = ap.parse_args()
    out = args.dir / f"d{args.d}"
    print(f"load before: {os.getloadavg()[0]:.1f}", flush=True)
    inst, norm = write_layer(out, args.d, args.n, args.seed)
    backend = CoqBackend()
    t = time.perf_counter()
    pd = decide_postln(inst, norm)
    print(f"decide: {pd.verdict} in {time.perf_counter() - t:.1f} s ({pd.reason[:120]})", flush=True)
    forms = [("partial", True)] + ([] if args.no_full else [("full", False)])
    for name, partial in forms:
        t = time.perf_counter()
        cert = build_postln_certificate(inst, pd, partial=partial)
        built = time.perf_counter() - t
        res = run_postln(cert, expected_postln(inst, pd.verdict, cert.partial, cert.residues), backend,
                         timeout=args.full_timeout if not partial else 600)
        print(f"{name}: build {built:.1f} s, coqc {res.seconds:.1f} s, {res.outcome.value}, "
              f"{len(cert.source) / 1e6:.1f} MB; {res.message[:160]}", flush=True)
    t = time.perf_counter()
    result = scan(out, backend=backend, jobs=1, timeout=600, max_entries=10**9).to_json()
    layer = result["layers"][0]
    sub = layer["sublayer"]
    print(f"scan: {time.perf_counter() - t:.1f} s; bare {layer['verdict']} checked={layer['checked']}; "
          f"sublayer {sub['verdict']} checked={sub['checked']}: {sub.get('prover', {}).get('message', '')[:200]}")
    print(f"load after: {os.getloadavg()[0]:.1f}")
    sys.exit(0 if (sub["verdict"], sub["checked"]) == ("not_absorbable", True) else 1)


if __name__ == "__main__":
    main()
