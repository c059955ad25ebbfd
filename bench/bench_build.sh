#!/usr/bin/env bash
# Clean build time of the whole Coq library: builds a fresh copy of coq/ (as
# committed) with `make -j2` and prints the wall-clock seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git archive HEAD coq | tar -x -C "$tmp"
start=$(date +%s.%N)
make -s -C "$tmp/coq" -j2 >/dev/null 2>&1
end=$(date +%s.%N)
files=$(ls "$tmp"/coq/theories/*.v | wc -l)
printf 'clean build of %d theory files: %.1f s\n' "$files" "$(echo "$end - $start" | bc)"
