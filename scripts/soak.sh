#!/usr/bin/env bash
# Soak benchmark of `sise serve` (release build): steady pages, churning pages (each sends a view,
# reads nothing, some or one batch, and leaves by close frame, FIN or reset), bare connects and
# API traffic, for minutes — printing the server's RSS at intervals and, at the end, the KB kept
# per churned page and the RSS once every page has left. Upstream is `sise simulate` in its own
# process. With two CPUs the server is pinned to CPU 0, the simulator and load to CPU 1.
# Usage: scripts/soak.sh [soak.py options]   (default: 300 steady pages, 20 churners, 50,000
# churned pages, 60 s warm-up; e.g. `scripts/soak.sh --churn 5000 --warmup 20` for a short one)
# Environment: SERVER_BIN (another build's `sise` to serve), SERVE_ARGS (extra `sise serve` flags).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --scratch-path .build-release --product sise >/dev/null
bin=.build-release/release
server=${SERVER_BIN:-$bin/sise}
ulimit -n "$(ulimit -Hn)" || true
server_cpu=(); load_cpu=()
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then server_cpu=(taskset -c 0); load_cpu=(taskset -c 1); fi
wait_line() { for _ in $(seq 200); do grep -q "listening on" "$1" && return; sleep 0.1; done; echo "no listening line in $1" >&2; exit 1; }
work=$(mktemp -d)
cleanup() { kill "${pid:-}" "${sim:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
"${load_cpu[@]}" "$bin/sise" simulate --port 0 > "$work/sim" 2>/dev/null &
sim=$!
wait_line "$work/sim"
simurl=$(sed -n 's/^listening on //p' "$work/sim")
# shellcheck disable=SC2086
"${server_cpu[@]}" "$server" serve --port 0 --upbit-url "$simurl" --korbit-url "$simurl" --bithumb-url "$simurl/bithumb" --data-dir "$work" ${SERVE_ARGS:-} > "$work/out" 2>/dev/null &
pid=$!
wait_line "$work/out"
port=$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$work/out")
echo "machine: $(nproc) CPUs, $(date -u +%F); server $server ${server_cpu[*]:-unpinned}, pid $pid, port $port"
sleep 2
"${load_cpu[@]}" python3 scripts/soak.py --port "$port" --pid "$pid" "$@"
