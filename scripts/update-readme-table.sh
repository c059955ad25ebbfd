#!/usr/bin/env bash
# Rewrites the README's results table from `pybridge prove --markdown`.
set -euo pipefail
cd "$(dirname "$0")/.."
table=$(.venv/bin/pybridge prove --markdown)
TABLE="$table" .venv/bin/python - <<'PY'
import os, pathlib
p = pathlib.Path("README.md")
s = p.read_text()
a, b = "<!-- results-table:start -->\n", "<!-- results-table:end -->"
i, j = s.index(a) + len(a), s.index(b)
p.write_text(s[:i] + os.environ["TABLE"] + "\n" + s[j:])
PY
