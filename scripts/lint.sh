#!/usr/bin/env bash
# The house style, checked with swift-format (the toolchain's `swift format`) and `.swift-format`,
# which is Hummingbird's configuration as it is (150 columns, its rules): every rule and the
# pretty-printer's layout must hold everywhere. `swift format format --configuration .swift-format
# --recursive --in-place Sources Tests Benchmarks` puts a change into that layout.
set -euo pipefail
cd "$(dirname "$0")/.."
findings=$(swift format lint --configuration .swift-format --recursive --parallel Sources Tests Benchmarks 2>&1 | grep 'warning: \[' || true)
if [ -n "$findings" ]; then
  printf '%s\n' "$findings"
  echo "swift-format: $(printf '%s\n' "$findings" | wc -l) finding(s) (see .swift-format; swift format format … --in-place fixes most)" >&2
  exit 1
fi
echo "swift-format: the rules and the layout hold"
