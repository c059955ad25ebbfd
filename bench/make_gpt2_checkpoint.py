"""Write a GPT-2-shaped checkpoint (MLP tensors only) for the scan benchmark.

Plain script (not part of pytest). Usage:
    .venv/bin/python bench/make_gpt2_checkpoint.py OUT_DIR [--layers 12] [--d 768] [--seed 0]
        [--biases] [--norms] [--real]
Writes ``OUT_DIR/config.json`` (``model_type`` gpt2, ``activation_function`` gelu_new)
and ``OUT_DIR/model.safetensors``: per layer ``h.{i}.mlp.c_fc.weight`` (d x 4d, Conv1D
layout), ``h.{i}.mlp.c_proj.weight`` (4d x d), float32 N(0, 0.02) like GPT-2's
initialisation, and zero biases (bias-free blocks: R5 applies). As a trained GPT-2 has them:
``--biases``, biases N(0, 0.02) (R9 applies); ``--norms``, each layer's pre-MLP LayerNorm
``h.{i}.ln_2`` (weight N(1, 0.1), bias N(0, 0.02); ``layer_norm_epsilon`` 1e-5), so that
the scan also decides and certifies every sublayer (R11); ``--real``, both.
"""

from __future__ import annotations

import argparse
import json
import struct
from pathlib import Path

import numpy as np


def write_safetensors(path: Path, tensors: dict[str, np.ndarray]) -> None:
    """The safetensors layout: 8-byte header length, JSON header, raw little-endian data."""
    header: dict[str, dict] = {}
    offset = 0
    for name, arr in tensors.items():
        size = arr.nbytes
        header[name] = {"dtype": "F32", "shape": list(arr.shape), "data_offsets": [offset, offset + size]}
        offset += size
    raw = json.dumps(header, separators=(",", ":")).encode()
    raw += b" " * (-len(raw) % 8)
    with path.open("wb") as f:
        f.write(struct.pack("<Q", len(raw)))
        f.write(raw)
        for arr in tensors.values():
            f.write(np.ascontiguousarray(arr, dtype="<f4").tobytes())


def _bias(rng: np.random.Generator, size: int, real: bool) -> np.ndarray:
    return (rng.standard_normal(size) * 0.02).astype(np.float32) if real else np.zeros(size, dtype=np.float32)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--d", type=int, default=768)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--biases", action="store_true", help="nonzero biases")
    ap.add_argument("--norms", action="store_true", help="the ln_2 LayerNorms")
    ap.add_argument("--real", action="store_true", help="both")
    args = ap.parse_args()
    biases, norms = args.biases or args.real, args.norms or args.real
    d, n = args.d, 4 * args.d
    rng = np.random.default_rng(args.seed)
    tensors: dict[str, np.ndarray] = {}
    for i in range(args.layers):
        tensors[f"h.{i}.mlp.c_fc.weight"] = (rng.standard_normal((d, n)) * 0.02).astype(np.float32)
        tensors[f"h.{i}.mlp.c_fc.bias"] = _bias(rng, n, biases)
        tensors[f"h.{i}.mlp.c_proj.weight"] = (rng.standard_normal((n, d)) * 0.02).astype(np.float32)
        tensors[f"h.{i}.mlp.c_proj.bias"] = _bias(rng, d, biases)
        if norms:
            tensors[f"h.{i}.ln_2.weight"] = (1 + rng.standard_normal(d) * 0.1).astype(np.float32)
            tensors[f"h.{i}.ln_2.bias"] = (rng.standard_normal(d) * 0.02).astype(np.float32)
    args.out.mkdir(parents=True, exist_ok=True)
    config = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": d, "n_layer": args.layers,
              "n_inner": n, "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5}
    (args.out / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    write_safetensors(args.out / "model.safetensors", tensors)
    print(f"wrote {args.out}: {args.layers} layers, d = {d}, n = {n}")


if __name__ == "__main__":
    main()
