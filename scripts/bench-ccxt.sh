#!/usr/bin/env bash
# Installs ccxt into a local venv (PyPI) and times upbit.parse_ticker on the given frames.
# Usage: scripts/bench-ccxt.sh FRAMES.jsonl SECONDS
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/../.venv-bench"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "ccxt>=4.5,<5" >&2
fi
exec "$venv/bin/python" "$here/bench_ccxt.py" "$1" "$2"
