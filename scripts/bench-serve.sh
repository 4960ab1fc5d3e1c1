#!/usr/bin/env bash
# Load benchmark of `sise serve --demo`: N browser-protocol WebSocket clients (sise-load, a
# separate process) at the simulator's 150 ticks/s; prints p50/p99 tick→client latency, server
# CPU and RSS, and the upstream requests made during each run.
# Usage: scripts/bench-serve.sh [N ...]   (default: 1 100 1000 5000 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
counts=("$@"); [ ${#counts[@]} -gt 0 ] || counts=(1 100 1000 5000 10000)
swift build -c release --scratch-path .build-release --product sise >/dev/null
swift build -c release --scratch-path .build-release --product sise-load >/dev/null
bin=.build-release/release
ulimit -n "$(ulimit -Hn)" || true
for n in "${counts[@]}"; do
  data=$(mktemp -d)
  "$bin/sise" serve --demo --port 0 --data-dir "$data" > "$data/out" 2>/dev/null &
  pid=$!
  for _ in $(seq 100); do grep -q "listening on" "$data/out" && break; sleep 0.1; done
  url=$(sed -n 's/^listening on //p' "$data/out")
  sleep 2
  "$bin/sise-load" --url "$url" --clients "$n" --seconds "${SECONDS_PER_RUN:-15}" --pid "$pid"
  kill "$pid"; wait "$pid" 2>/dev/null || true
  rm -rf "$data"
done
