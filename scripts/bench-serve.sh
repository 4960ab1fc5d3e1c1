#!/usr/bin/env bash
# Load benchmark of `sise serve`: N browser-protocol WebSocket clients (sise-load, a separate
# process) against a server fed by `sise simulate` (a third process, 150 ticks/s), so the figures
# are the server's own. On a machine with two or more CPUs the server is pinned to CPU 0 and the
# simulator and load generator to CPU 1 (`taskset`), so "cpu" is the share of the server's one core.
# Prints every run (p50/p99 tick→client latency, server CPU and RSS, server CPU per delivered
# message, the upstream requests during the window) and, per client count, the median of the runs.
# Usage: scripts/bench-serve.sh [N ...]   (default: 1 1000 5000 10000 20000)
# Environment: RUNS (default 3), SECONDS_PER_RUN (default 15), SERVE_ARGS (extra `sise serve` flags),
# LOAD_ARGS (extra sise-load flags: `--rss-every 5` prints the server's RSS every 5 s of the window),
# SERVER_BIN (another build's `sise` to serve, e.g. the commit before a change; the simulator and
# the load generator stay this tree's, so both sides are measured with the same tools). Several
# builds, space-separated (SERVER_BIN="/tmp/before/sise .build-release/release/sise"), take turns
# run by run, so a machine whose speed drifts (a shared VM) drifts for all of them alike.
set -euo pipefail
cd "$(dirname "$0")/.."
counts=("$@"); [ ${#counts[@]} -gt 0 ] || counts=(1 1000 5000 10000 20000)
runs=${RUNS:-3}
swift build -c release --scratch-path .build-release --product sise >/dev/null
swift build -c release --scratch-path .build-release --product sise-load >/dev/null
bin=.build-release/release
read -r -a servers <<<"${SERVER_BIN:-$bin/sise}"
# Every page is a descriptor in the server and another in sise-load. Where the hard limit cannot
# be raised (20,000 on the machine README quotes), sise-load opens 64 fewer clients than it and
# says so. The server's own cap (--max-connections, 16,384 by default) is raised to the count.
# shellcheck source=scripts/bench_lib.sh
. scripts/bench_lib.sh
echo "machine: $(nproc) CPUs, $(uname -m), $(date -u +%F); ${runs} runs of ${SECONDS_PER_RUN:-15} s per count; server ${servers[*]} ${server_cpu[*]:-unpinned}"
for n in "${counts[@]}"; do
  results=()
  for server in "${servers[@]}"; do results+=("$(mktemp)"); done
  for run in $(seq "$runs"); do
    for index in "${!servers[@]}"; do
      server=${servers[$index]}
      work=$(mktemp -d)
      "${load_cpu[@]}" "$bin/sise" simulate --port 0 > "$work/sim" 2>/dev/null &
      sim=$!
      wait_line "$work/sim"
      simurl=$(sed -n 's/^listening on //p' "$work/sim")
      # shellcheck disable=SC2086
      "${server_cpu[@]}" "$server" serve --port 0 --upbit-url "$simurl" --data-dir "$work" --max-connections "$((n + 64))" ${SERVE_ARGS:-} > "$work/out" 2>/dev/null &
      pid=$!
      wait_line "$work/out"
      url=$(sed -n 's/^listening on //p' "$work/out")
      sleep 2
      [ ${#servers[@]} -eq 1 ] || printf '%s: ' "$server"
      "${load_cpu[@]}" "$bin/sise-load" --url "$url" --sim "$simurl" --clients "$n" --seconds "${SECONDS_PER_RUN:-15}" --pid "$pid" ${LOAD_ARGS:-} | tee -a "${results[$index]}"
      kill "$pid" "$sim"; wait "$pid" "$sim" 2>/dev/null || true
      rm -rf "$work"
    done
  done
  for index in "${!servers[@]}"; do
    lines=$(grep '^clients' "${results[$index]}")
    [ ${#servers[@]} -eq 1 ] || printf '%s: ' "${servers[$index]}"
    printf 'median of %s  clients %s  connected %s  p50 %s ms  p99 %s ms  cpu %s%%  rss %s MB  cpu/message %s us\n' "$runs" "$n" \
      "$(field connected <<<"$lines" | median)" "$(field p50 <<<"$lines" | median)" "$(field p99 <<<"$lines" | median)" \
      "$(field 'cpu' <<<"$(sed 's/cpu\/message.*//' <<<"$lines")" | median)" "$(field rss <<<"$(sed 's/rss\/connection.*//' <<<"$lines")" | median)" \
      "$(field 'cpu\/message' <<<"$lines" | median)"
    rm -f "${results[$index]}"
  done
done
