"""Write a BERT-shaped (post-LayerNorm) checkpoint for the scan benchmark: MPNet / BERT-base size.

Plain script (not part of pytest). Usage:
    .venv/bin/python bench/make_bert_checkpoint.py OUT_DIR [--layers 12] [--d 768] [--seed 0]
Writes ``OUT_DIR/config.json`` (``model_type`` bert, GELU, ``layer_norm_eps`` 1e-12) and
``OUT_DIR/model.safetensors``: per layer the MLP (``intermediate.dense``, ``output.dense``:
weights N(0, 0.02), biases N(0, 0.02), float32), the attention output projection the reader
expects beside it, and the post-MLP LayerNorm ``output.LayerNorm`` (weight N(1, 0.02), bias
N(0, 0.02)). A scan decides each block (R9) and its post-LN sublayer (R11') and certifies both.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from safetensors.numpy import save_file


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--d", type=int, default=768)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    d, n = args.d, 4 * args.d
    rng = np.random.default_rng(args.seed)
    f = np.float32
    tensors: dict[str, np.ndarray] = {}
    for i in range(args.layers):
        p = f"bert.encoder.layer.{i}"
        tensors[f"{p}.attention.output.dense.weight"] = rng.normal(0, 0.02, (d, d)).astype(f)
        tensors[f"{p}.attention.output.dense.bias"] = rng.normal(0, 0.02, d).astype(f)
        tensors[f"{p}.intermediate.dense.weight"] = rng.normal(0, 0.02, (n, d)).astype(f)
        tensors[f"{p}.intermediate.dense.bias"] = rng.normal(0, 0.02, n).astype(f)
        tensors[f"{p}.output.dense.weight"] = rng.normal(0, 0.02, (d, n)).astype(f)
        tensors[f"{p}.output.dense.bias"] = rng.normal(0, 0.02, d).astype(f)
        tensors[f"{p}.output.LayerNorm.weight"] = rng.normal(1, 0.02, d).astype(f)
        tensors[f"{p}.output.LayerNorm.bias"] = rng.normal(0, 0.02, d).astype(f)
    args.out.mkdir(parents=True, exist_ok=True)
    config = {"model_type": "bert", "architectures": ["BertModel"], "num_hidden_layers": args.layers,
              "hidden_size": d, "intermediate_size": n, "hidden_act": "gelu", "layer_norm_eps": 1e-12}
    (args.out / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    save_file(tensors, str(args.out / "model.safetensors"))
    print(f"wrote {args.out}: {args.layers} layers, d = {d}, n = {n}")


if __name__ == "__main__":
    main()
