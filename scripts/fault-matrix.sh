#!/usr/bin/env bash
# The live-truth fault matrix (issue "live truth"): every fault against the real clients through
# a TCP fault proxy of our own, printed as a table. Release build; about four minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --scratch-path .build-release --product sise >/dev/null
export SISE_BIN="$PWD/.build-release/release/sise"
exec python3 scripts/fault_matrix.py "$@"
