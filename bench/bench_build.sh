#!/usr/bin/env bash
# Clean build time of the whole Coq library: builds a fresh copy of coq/ (as
# committed) with `make -j2` and prints the wall-clock seconds and the number of
# Coq files (those coq/_CoqProject lists). MAKE=... overrides make (tests: MAKE=true).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git archive HEAD coq | tar -x -C "$tmp"
start=$(date +%s.%N)
"${MAKE:-make}" -s -C "$tmp/coq" -j2 >/dev/null 2>&1
end=$(date +%s.%N)
files=$(grep -cE '^[[:space:]]*theories/.*\.v[[:space:]]*$' "$tmp/coq/_CoqProject")
printf 'clean build of %d Coq files: %.1f s\n' "$files" "$(echo "$end - $start" | bc)"
