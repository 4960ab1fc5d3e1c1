#!/usr/bin/env bash
# Load benchmark of `sise serve`: N browser-protocol WebSocket clients (sise-load, a separate
# process) against a server fed by `sise simulate` (a third process, 150 ticks/s), so the figures
# are the server's own. Prints p50/p99 tick→client latency, server CPU and RSS, and the upstream
# requests the server made during each run (the same for 1 client and for N).
# Usage: scripts/bench-serve.sh [N ...]   (default: 1 100 1000 5000 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
counts=("$@"); [ ${#counts[@]} -gt 0 ] || counts=(1 100 1000 5000 10000)
swift build -c release --scratch-path .build-release --product sise >/dev/null
swift build -c release --scratch-path .build-release --product sise-load >/dev/null
bin=.build-release/release
ulimit -n "$(ulimit -Hn)" || true
wait_line() { for _ in $(seq 200); do grep -q "listening on" "$1" && return; sleep 0.1; done; echo "no listening line in $1" >&2; exit 1; }
for n in "${counts[@]}"; do
  work=$(mktemp -d)
  "$bin/sise" simulate --port 0 > "$work/sim" 2>/dev/null &
  sim=$!
  wait_line "$work/sim"
  simurl=$(sed -n 's/^listening on //p' "$work/sim")
  "$bin/sise" serve --port 0 --upbit-url "$simurl" --data-dir "$work" > "$work/out" 2>/dev/null &
  pid=$!
  wait_line "$work/out"
  url=$(sed -n 's/^listening on //p' "$work/out")
  sleep 2
  "$bin/sise-load" --url "$url" --sim "$simurl" --clients "$n" --seconds "${SECONDS_PER_RUN:-15}" --pid "$pid"
  kill "$pid" "$sim"; wait "$pid" "$sim" 2>/dev/null || true
  rm -rf "$work"
done
