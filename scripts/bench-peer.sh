#!/usr/bin/env bash
# Sise's fan-out against NATS side by side (issue 35 §1): the same messages to N WebSocket
# subscribers, each server in turn pinned to CPU 0, the load on CPU 1, the same load generator.
#   sise: `sise serve` fed by `sise simulate` (150 ticks/s); N sise-load pages, each asking for the
#         whole KRW board without a window (the per-batch messages Sise sends a page, ≈10 a second).
#   nats: Debian's nats-server with its WebSocket listener; a publisher (scripts/nats_replay.py)
#         sends the very messages one such page received (captured first), at their pace, to one
#         subject; N sise-load subscribers (`--nats`) over WebSocket.
# Prints every run, then per N and server the medians: server CPU, µs of server CPU per delivered
# message, p50/p99 latency (Sise: the tick's arrival → the page; NATS: publish → the subscriber),
# RSS per connection; and the ratios.
# Usage: scripts/bench-peer.sh [N ...]   (default: 1 1000 5000 10000 20000)
# Environment: RUNS (default 3), SECONDS_PER_RUN (default 15).
set -euo pipefail
cd "$(dirname "$0")/.."
counts=("$@"); [ ${#counts[@]} -gt 0 ] || counts=(1 1000 5000 10000 20000)
runs=${RUNS:-3}
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
command -v nats-server >/dev/null 2>&1 || [ -x /usr/sbin/nats-server ] || {
  $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server >/dev/null; }
export PATH="$PATH:/usr/sbin"
python3 -c "import websockets" 2>/dev/null || python3 -m pip install -q --disable-pip-version-check websockets
swift build -c release --scratch-path .build-release --product sise >/dev/null
swift build -c release --scratch-path .build-release --product sise-load >/dev/null
bin=.build-release/release
# shellcheck source=scripts/bench_lib.sh
. scripts/bench_lib.sh
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

start_sise() {  # → $pid, $url, $sim (the simulator's pid)
  "${load_cpu[@]}" "$bin/sise" simulate --port 0 > "$work/sim" 2>/dev/null &
  sim=$!
  wait_line "$work/sim"
  local simurl; simurl=$(sed -n 's/^listening on //p' "$work/sim")
  rm -rf "$work/data"; mkdir -p "$work/data"
  "${server_cpu[@]}" "$bin/sise" serve --port 0 --upbit-url "$simurl" --data-dir "$work/data" --max-connections "$(( ${1:-1} + 64 ))" > "$work/out" 2>/dev/null &
  pid=$!
  wait_line "$work/out"
  url=$(sed -n 's/^listening on //p' "$work/out")
  sleep 2
}

# The messages one full-board page receives, once, for the publisher.
start_sise 1
python3 scripts/nats_replay.py capture "$url" 20 > "$work/capture.jsonl"
kill "$pid" "$sim"; wait "$pid" "$sim" 2>/dev/null || true
echo "machine: $(nproc) CPUs, $(uname -m), $(date -u +%F); ${runs} runs of ${SECONDS_PER_RUN:-15} s per count and server;" \
  "captured $(wc -l < "$work/capture.jsonl") messages in 20 s, $(( $(wc -c < "$work/capture.jsonl") / 20 / 1024 )) KB/s a page; nats-server $(nats-server --version | awk '{print $2}')"

table=()
for n in "${counts[@]}"; do
  : > "$work/sise.lines"; : > "$work/nats.lines"
  for run in $(seq "$runs"); do
    start_sise "$n"
    printf 'sise  ' ; "${load_cpu[@]}" "$bin/sise-load" --url "$url" --clients "$n" --seconds "${SECONDS_PER_RUN:-15}" --pid "$pid" | tee -a "$work/sise.lines"
    kill "$pid" "$sim"; wait "$pid" "$sim" 2>/dev/null || true

    client_port=$(free_port); ws_port=$(free_port)
    printf 'listen: 127.0.0.1:%s\nmax_payload: 8MB\nmax_connections: 1000000\nwebsocket { listen: "127.0.0.1:%s", no_tls: true }\n' \
      "$client_port" "$ws_port" > "$work/nats.conf"
    "${server_cpu[@]}" nats-server -c "$work/nats.conf" > "$work/nats.log" 2>&1 &
    nats=$!
    for _ in $(seq 100); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $ws_port))" 2>/dev/null && break; sleep 0.1; done
    "${load_cpu[@]}" python3 scripts/nats_replay.py replay "127.0.0.1:$client_port" "$work/capture.jsonl" &
    publisher=$!
    printf 'nats  ' ; "${load_cpu[@]}" "$bin/sise-load" --nats sise.board --url "ws://127.0.0.1:$ws_port" --clients "$n" \
      --seconds "${SECONDS_PER_RUN:-15}" --pid "$nats" | tee -a "$work/nats.lines"
    kill "$publisher" "$nats"; wait "$publisher" "$nats" 2>/dev/null || true
  done
  row="| $n"
  for side in sise nats; do
    lines=$(grep '^clients' "$work/$side.lines")
    cpu=$(field 'cpu' <<<"$(sed 's/cpu\/message.*//' <<<"$lines")" | median)
    row+=" | $(field connected <<<"$lines" | median) | ${cpu} % | $(field 'cpu\/message' <<<"$lines" | median) µs | $(field p50 <<<"$lines" | median) / $(field p99 <<<"$lines" | median) ms | $(field 'rss\/connection' <<<"$lines" | median) KB"
  done
  table+=("$row |")
  echo "median of $runs, N=$n: ${row}"
done
echo
echo "| N | Sise connected | Sise CPU | Sise CPU/message | Sise p50 / p99 | Sise RSS/connection | NATS connected | NATS CPU | NATS CPU/message | NATS p50 / p99 | NATS RSS/connection |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${table[@]}"
