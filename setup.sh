#!/usr/bin/env bash
# Installs everything (Debian 12, as root) and runs the main job: build and
# report the formal library, write the lemma graph, check the example instances.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install.sh
scripts/main-job.sh
