#!/usr/bin/env bash
# The long fuzz run over every parser that takes outside bytes (the test command runs a short
# one). ITERATIONS per target (default 200000), SEED to vary the cases. A trap prints Swift's
# fatal error; the failing input becomes a case in ParserFuzzTests.regressions.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests >/dev/null
SISE_FUZZ_ITERATIONS="${ITERATIONS:-200000}" SISE_FUZZ_SEED="${SEED:-$RANDOM}" \
  swift test --skip-build --disable-xctest --filter ParserFuzzTests
