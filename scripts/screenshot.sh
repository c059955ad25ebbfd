#!/usr/bin/env bash
# Regenerates the README's screenshots of the lemma-graph site with headless Chromium:
#   docs/graph.png  a focus view (result R3's proof coloured by status, its headline theorem selected)
#   docs/paper.png  the paper view (statements, Coq statements, status)
# Usage: scripts/screenshot.sh [SITE_DIR]   (default: out/graph, written first if absent)
set -euo pipefail
cd "$(dirname "$0")/.."
SITE=${1:-out/graph}
if [ ! -f "$SITE/graph.html" ]; then
  .venv/bin/pybridge graph --out "$SITE" >/dev/null
fi
CHROMIUM=$(command -v chromium || command -v chromium-browser)
URL="file://$(realpath "$SITE")/graph.html"
shot() {  # shot OUTPUT FRAGMENT
  local tmp
  tmp=$(mktemp --suffix=.png)
  "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,860 \
    --virtual-time-budget=4000 --screenshot="$tmp" "$URL#$2" >/dev/null 2>&1
  if command -v pngquant >/dev/null; then
    pngquant --force --quality=70-90 --output "$1" "$tmp"
  else
    cp "$tmp" "$1"
  fi
  rm -f "$tmp"
  echo "wrote $1 ($(du -h "$1" | cut -f1))"
}
shot docs/graph.png "result=R3&depth=2&sel=Absorb.results.Gated.gated_not_absorbable"
shot docs/paper.png "view=paper"
