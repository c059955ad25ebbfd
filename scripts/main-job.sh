#!/usr/bin/env bash
# The main job: the status of every paper result (building the Coq library),
# the lemma-graph site (graph, paper view, coqdoc source pages: out/graph/), and
# Coq-checked verdicts on the shipped example instances.
set -euo pipefail
cd "$(dirname "$0")/.."
PB=.venv/bin/pybridge
$PB prove
$PB graph --out out/graph
for f in examples/*.json; do
  echo "== pybridge check $f"
  $PB check "$f"
done
