#!/usr/bin/env bash
# The house style, checked with swift-format (the toolchain's `swift format`) and `.swift-format`:
# its rules (ordered imports, no semicolons, shorthand type names, triple-slash doc comments, …)
# must hold everywhere. Its pretty-printer's layout findings are not enforced: the house style
# aligns continuation lines under their opening parenthesis, which swift-format cannot keep, and
# reformatting every file to its layout is not worth the churn. `scripts/lint.sh --all` shows them.
set -euo pipefail
cd "$(dirname "$0")/.."
layout='\[(Indentation|AddLines|RemoveLine|Spacing|LineLength|EndOfLineComment|TrailingComma)\]'
findings=$(swift format lint --configuration .swift-format --recursive --parallel Sources Tests Benchmarks 2>&1 || true)
if [ "${1:-}" = "--all" ]; then printf '%s\n' "$findings"; exit 0; fi
rules=$(printf '%s\n' "$findings" | grep 'warning: \[' | grep -Ev "$layout" || true)
if [ -n "$rules" ]; then
  printf '%s\n' "$rules"
  echo "swift-format: $(printf '%s\n' "$rules" | wc -l) finding(s) of the house rules (see .swift-format)" >&2
  exit 1
fi
echo "swift-format: the house rules hold ($(printf '%s\n' "$findings" | grep -c 'warning: \[' || true) layout findings not enforced)"
