#!/usr/bin/env bash
# The main job: the status of every paper result (building the Coq library),
# the lemma graph, and Coq-checked verdicts on the shipped example instances.
set -euo pipefail
cd "$(dirname "$0")/.."
PB=.venv/bin/pybridge
$PB prove
if $PB graph --help >/dev/null 2>&1; then
  $PB graph --out out/graph
  echo "lemma graph: out/graph/graph.html"
fi
if $PB check --help >/dev/null 2>&1; then
  for f in examples/*.json; do
    echo "== pybridge check $f"
    $PB check "$f"
  done
fi
