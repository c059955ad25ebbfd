"""Benchmark: indexing a checkpoint with a huge header (issue 20, item 6).

Plain script (not part of pytest). Usage:
    .venv/bin/python bench/bench_find_layers.py [--layers 10000] [--others 100000]
Writes one ``.safetensors`` whose header names ``layers`` LLaMA MLP blocks (3 tensors each)
and ``others`` other tensors spread over the layers (all of size 0: the header is the
file), then times ``open_checkpoint`` (reading and checking the header) and
``find_layers`` with a config.json and without one (family inferred from names). Before
issue 20, ``find_layers`` scanned every name once per layer: 371 s at 10,000 / 100,000.
"""

from __future__ import annotations

import argparse
import json
import struct
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pybridge.io import checkpoints as ck  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--layers", type=int, default=10_000)
    ap.add_argument("--others", type=int, default=100_000)
    args = ap.parse_args()
    header: dict = {}
    for i in range(args.layers):
        for role in ("gate_proj", "up_proj", "down_proj"):
            header[f"model.layers.{i}.mlp.{role}.weight"] = {"dtype": "F32", "shape": [0, 4], "data_offsets": [0, 0]}
    for k in range(args.others):
        header[f"model.layers.{k % args.layers}.self_attn.extra_{k}.weight"] = {
            "dtype": "F32", "shape": [0], "data_offsets": [0, 0]}
    blob = json.dumps(header).encode()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "model.safetensors").write_bytes(struct.pack("<Q", len(blob)) + blob)
        print(f"header: {len(blob) / 1e6:.1f} MB, {len(header)} tensor names")
        for config in ({"model_type": "llama", "num_hidden_layers": args.layers}, None):
            if config is not None:
                (d / "config.json").write_text(json.dumps(config))
            else:
                (d / "config.json").unlink()
            t0 = time.perf_counter()
            c = ck.open_checkpoint(d)
            t1 = time.perf_counter()
            layers = ck.find_layers(c)
            t2 = time.perf_counter()
            what = "with config.json" if config else "family inferred"
            print(f"{what}: open_checkpoint {t1 - t0:.2f} s, find_layers {t2 - t1:.2f} s, {len(layers)} layers")


if __name__ == "__main__":
    main()
