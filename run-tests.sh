#!/usr/bin/env bash
# Installs whatever is missing (Debian 12, as root), builds the Coq library and
# runs the whole test suite, spread over the machine's cores (pytest-xdist).
set -euo pipefail
cd "$(dirname "$0")"
scripts/install.sh
# Large NumPy arrays on ordinary pages, as the CLI does (pybridge/exact/pages.py says why).
export NUMPY_MADVISE_HUGEPAGE="${NUMPY_MADVISE_HUGEPAGE:-0}"
exec .venv/bin/python -m pytest -q -p no:cacheprovider -n auto --dist load "$@"
