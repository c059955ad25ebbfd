"""Generated OPT-style and GPT-2-style checkpoints (real tensor names, biases), scanned.

OPT (ReLU, ``model.decoder.layers.{i}.fc1`` / ``fc2``) and GPT-2 (GELU_tanh,
``h.{i}.mlp.c_fc`` / ``c_proj``, Conv1D layout), three layers each:

0. random integer weights and biases: generic with biases, no S -> R9 (=>), certified;
1. a planted S (rows ``e_k`` with ``b_k = -e_k``) -> R5 (<=) with biases (R7), certified;
2. every row a positive multiple (1, 2 or 1/2) of one of 4 augmented rows: not generic with
   biases -> R8 with biases, decided exactly by the canonical form of the augmented rows and
   the width search, Coq-checked by the biased-grouping certificates (``CertifyBiasWidth``):
   ReLU groups rows by line (k <= 4 ridges, ``ReluBiasNecessity.relu_bias_grouped_iff``);
   GELU_tanh by sign, so the scaled copies are distinct ridges (k <= 12,
   ``PmBiasNecessity.gelu_tanh_bias_block_decided``).

Usage: ``.venv/bin/python bench/generated_checkpoints.py [OUTDIR] [--no-prove] [--d D --n N]``.
Prints one line per layer and writes ``OUTDIR/{opt,gpt2}/scan.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from safetensors.numpy import save_file


def _layers(d: int, n: int, seed: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """``(W_up n x d, b_up, W_down d x n, b_down)`` for the three layer kinds."""
    rng = np.random.default_rng(seed)

    def ints(*shape: int) -> np.ndarray:
        return rng.integers(-3, 4, size=shape).astype(np.float32)

    out = []
    up, down = ints(n, d), ints(d, n)
    up[up.sum(axis=1) == 0, 0] = 1.0
    down[:, (down == 0).all(axis=0)] = 1.0
    out.append((up, ints(n), down, ints(d)))
    up, down = ints(n, d), ints(d, n)
    up[:d] = np.eye(d, dtype=np.float32)
    down[:, :d] = -np.eye(d, dtype=np.float32)
    out.append((up, ints(n), down, ints(d)))
    base_up, base_b = ints(4, d), ints(4)
    base_up[base_up.sum(axis=1) == 0, 0] = 1.0
    scale = rng.choice(np.array([1.0, 2.0, 0.5], dtype=np.float32), size=n)
    up = (base_up[np.arange(n) % 4] * scale[:, None]).astype(np.float32)
    bup = (base_b[np.arange(n) % 4] * scale).astype(np.float32)
    out.append((up, bup, ints(d, n), ints(d)))
    return out


def write_opt(root: Path, d: int, n: int) -> Path:
    t = {}
    for i, (up, bup, down, bdown) in enumerate(_layers(d, n, 7)):
        p = f"model.decoder.layers.{i}"
        t[f"{p}.fc1.weight"], t[f"{p}.fc1.bias"] = up, bup
        t[f"{p}.fc2.weight"], t[f"{p}.fc2.bias"] = down, bdown
    root.mkdir(parents=True, exist_ok=True)
    save_file(t, str(root / "model.safetensors"))
    (root / "config.json").write_text(json.dumps({"model_type": "opt", "num_hidden_layers": 3,
                                                  "activation_function": "relu"}))
    return root


def write_gpt2(root: Path, d: int, n: int) -> Path:
    t = {}
    for i, (up, bup, down, bdown) in enumerate(_layers(d, n, 8)):
        p = f"h.{i}.mlp"
        t[f"{p}.c_fc.weight"], t[f"{p}.c_fc.bias"] = np.ascontiguousarray(up.T), bup  # Conv1D: (in, out)
        t[f"{p}.c_proj.weight"], t[f"{p}.c_proj.bias"] = np.ascontiguousarray(down.T), bdown
    root.mkdir(parents=True, exist_ok=True)
    save_file(t, str(root / "model.safetensors"))
    (root / "config.json").write_text(json.dumps({"model_type": "gpt2", "n_layer": 3,
                                                  "activation_function": "gelu_new"}))
    return root


def main() -> None:
    from pybridge.api import scan

    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default="out/generated")
    ap.add_argument("--no-prove", action="store_true")
    ap.add_argument("--d", type=int, default=8)
    ap.add_argument("--n", type=int, default=32)
    args = ap.parse_args()
    out = Path(args.out)
    for name, writer in (("opt", write_opt), ("gpt2", write_gpt2)):
        root = writer(out / name, args.d, args.n)
        start = time.monotonic()
        res = scan(root, prove=not args.no_prove)
        doc = res.to_json()
        (root / "scan.json").write_text(json.dumps(doc, indent=2))
        print(f"{name}: {time.monotonic() - start:.1f} s")
        for layer in doc["layers"]:
            print(f"  {layer['layer']}: {layer.get('activation')} {layer.get('verdict')} "
                  f"{layer.get('result')} checked={layer.get('checked')} {layer.get('theorem')}")


if __name__ == "__main__":
    main()
