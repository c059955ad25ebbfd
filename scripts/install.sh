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

# The formal library builds while the Python side installs (each about a minute on a fresh
# machine); the tests and the main job then find it built (their `make` has nothing to do).
make -C coq -j2 >coq/.install-build.log 2>&1 &
build=$!
trap 'kill "$build" 2>/dev/null || true' EXIT

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
if ! wait "$build"; then
  echo "install: the Coq library did not build (coq/.install-build.log ends with):" >&2
  tail -n 20 coq/.install-build.log >&2
  exit 1
fi
