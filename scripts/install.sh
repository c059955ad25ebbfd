#!/usr/bin/env bash
# Installs what the project needs on Debian 12 (as root): Coq and its libraries,
# Graphviz and Chromium from Debian; pybridge and its Python dependencies in .venv.
# Idempotent: a second run installs nothing that is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

DEB_PACKAGES=(coq libcoq-coquelicot libcoq-mathcomp-analysis libcoq-dpdgraph
              coq-dpdgraph-tools graphviz chromium make python3-venv)

missing=()
for p in "${DEB_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install: Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "install: creating .venv"
  "$PY" -m venv .venv
fi
stamp=.venv/.pybridge-installed
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "install: pybridge and its Python dependencies"
  .venv/bin/pip install -q --upgrade pip >/dev/null
  .venv/bin/pip install -q -e '.[test]'
  echo "$want" > "$stamp"
fi
