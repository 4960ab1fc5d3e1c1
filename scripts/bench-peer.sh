#!/usr/bin/env bash
# Sise's fan-out against its peers side by side (issues 35 §1, 57 §1): the same messages to N
# WebSocket subscribers, each server in turn pinned to CPU 0, the load on CPU 1, one load generator.
#   sise:  `sise serve` fed by `sise simulate` (150 ticks/s); N sise-load pages, each asking for the
#          whole KRW board without a window (the per-batch messages Sise sends a page, ≈10 a second).
#   nats:  Debian's nats-server with its WebSocket listener; a publisher (scripts/nats_replay.py)
#          sends the very messages one such page received (captured first), at their pace, to one
#          subject; N sise-load subscribers (`--nats`) over WebSocket.
#   nchan: Debian's nginx with nchan, one worker; the same messages POSTed to its publisher, N
#          WebSocket subscribers (`--raw`).
#   floor: scripts/bare_writer.c — each message framed once and written to every page with one
#          write(2): what the kernel's loopback alone costs.
# Prints every run, then per N and server the medians: server CPU, µs of server CPU per delivered
# message and per delivered row, p50/p99 latency (Sise: the tick's arrival → the page, and in
# brackets its batch's publication → the page; the peers: the moment a message was due at its
# captured pace → the subscriber, so a server that takes its publisher's messages late — nchan
# answers a publish after the sweep before — counts that wait, as Sise's rows count theirs; in
# brackets from the moment the publisher handed it over), RSS per connection; and Sise's ratios.
# Usage: scripts/bench-peer.sh [N ...]   (default: 1000 5000 10000 19800 — 19,800: the most a
# process's 20,000 descriptors allow)
# Then the independent client's check: sise-load and scripts/ws_count.c (a C epoll client sharing
# nothing with it) take turns against each server but NATS at the first N; their µs per message
# must agree within 10 %, and their latencies are printed side by side.
# Environment: RUNS (default 3), SECONDS_PER_RUN (default 15), PEERS (default "sise nats nchan floor"),
# CHECK (default 1; 0 skips the independent client's check), LOADER (default sise-load; ws_count:
# the main table read by the C client — lighter, so at 19,800 pages it still reads what a server
# writes; NATS stays with sise-load; no RSS figures).
set -euo pipefail
cd "$(dirname "$0")/.."
counts=("$@"); [ ${#counts[@]} -gt 0 ] || counts=(1000 5000 10000 19800)
read -r -a peers <<<"${PEERS:-sise nats nchan floor}"
runs=${RUNS:-3}
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
need=()
command -v nats-server >/dev/null 2>&1 || [ -x /usr/sbin/nats-server ] || need+=(nats-server)
[ -x /usr/sbin/nginx ] || need+=(nginx-light)
[ -f /usr/lib/nginx/modules/ngx_nchan_module.so ] || need+=(libnginx-mod-nchan)
if [ ${#need[@]} -gt 0 ]; then
  $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
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
python3 scripts/nats_replay.py frames "$work/capture.jsonl" > "$work/capture.frames"
cc -O2 -o "$work/bare_writer" scripts/bare_writer.c
echo "machine: $(nproc) CPUs, $(uname -m), $(date -u +%F); ${runs} runs of ${SECONDS_PER_RUN:-15} s per count and server;" \
  "captured $(wc -l < "$work/capture.jsonl") messages in 20 s, $(( $(wc -c < "$work/capture.jsonl") / 20 / 1024 )) KB/s a page;" \
  "nats-server $(nats-server --version | awk '{print $2}'), $(/usr/sbin/nginx -v 2>&1 | sed 's/.*: //') + nchan $(dpkg-query -W -f '${Version}' libnginx-mod-nchan 2>/dev/null)"

cc -O2 -o "$work/ws_count" scripts/ws_count.c

# The load generator: sise-load, or (loader=ws_count) the independent C client, given the same
# arguments (it speaks Sise's /ws and the raw peers, not NATS).
loader=${LOADER:-sise-load}
load() {
  if [ "$loader" = ws_count ] && [[ " $* " != *" --nats "* ]]; then
    local path=/ws first='{"type":"view","quote":"KRW","sort":"value","order":"none","q":"","favoritesOnly":false,"lang":"ko"}' at="" of=""
    while [ $# -gt 0 ]; do
      case $1 in --raw) path=$2; first=""; shift 2 ;; --url) at=$2; shift 2 ;; --pid) of=$2; shift 2 ;; *) shift ;; esac
    done
    "${load_cpu[@]}" "$work/ws_count" "${at##*:}" "$path" "$n" "${SECONDS_PER_RUN:-15}" "$of" ${first:+"$first"}
  else
    "${load_cpu[@]}" "$bin/sise-load" --clients "$n" --seconds "${SECONDS_PER_RUN:-15}" "$@"
  fi
}

run_sise() {
  start_sise "$n"
  load --url "$url" --pid "$pid"
  kill "$pid" "$sim"; wait "$pid" "$sim" 2>/dev/null || true
}

run_nats() {
  local client_port ws_port nats publisher
  client_port=$(free_port); ws_port=$(free_port)
  printf 'listen: 127.0.0.1:%s\nmax_payload: 8MB\nmax_connections: 1000000\nwebsocket { listen: "127.0.0.1:%s", no_tls: true }\n' \
    "$client_port" "$ws_port" > "$work/nats.conf"
  "${server_cpu[@]}" nats-server -c "$work/nats.conf" > "$work/nats.log" 2>&1 &
  nats=$!
  for _ in $(seq 100); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $ws_port))" 2>/dev/null && break; sleep 0.1; done
  "${load_cpu[@]}" python3 scripts/nats_replay.py replay "127.0.0.1:$client_port" "$work/capture.jsonl" &
  publisher=$!
  load --nats sise.board --url "ws://127.0.0.1:$ws_port" --pid "$nats"
  kill "$publisher" "$nats"; wait "$publisher" "$nats" 2>/dev/null || true
}

# nginx with one worker (the one measured: the master only waits); the channel keeps a few
# messages, a subscriber starts at the newest.
run_nchan() {
  local port master worker publisher
  port=$(free_port)
  rm -rf "$work/nginx"; mkdir -p "$work/nginx/logs"
  cat > "$work/nginx/nginx.conf" <<CONF
load_module /usr/lib/nginx/modules/ngx_nchan_module.so;
worker_processes 1;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log warn;
events { worker_connections 50000; use epoll; }
http {
  access_log off;
  client_body_temp_path $work/nginx/body;
  client_body_buffer_size 4m;
  client_max_body_size 8m;
  server {
    listen 127.0.0.1:$port backlog=4096;
    location = /pub { nchan_publisher; nchan_channel_id board; nchan_message_buffer_length 16; }
    location = /sub { nchan_subscriber websocket; nchan_channel_id board; nchan_subscriber_first_message newest; }
  }
}
CONF
  "${server_cpu[@]}" /usr/sbin/nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" &
  master=$!
  worker=""
  for _ in $(seq 100); do worker=$(pgrep -P "$master" || true); worker=${worker%%$'\n'*}; [ -n "$worker" ] && break; sleep 0.1; done
  for _ in $(seq 100); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break; sleep 0.1; done
  "${load_cpu[@]}" python3 scripts/nats_replay.py replay-http "http://127.0.0.1:$port/pub" "$work/capture.jsonl" &
  publisher=$!
  load --raw /sub --url "http://127.0.0.1:$port" --pid "$worker"
  kill "$publisher" "$master"; wait "$publisher" "$master" 2>/dev/null || true
}

run_floor() {
  local floor floor_url
  "${server_cpu[@]}" "$work/bare_writer" "$work/capture.frames" > "$work/floor" &
  floor=$!
  wait_line "$work/floor"
  floor_url=$(sed -n 's/^listening on //p' "$work/floor")
  load --raw / --url "$floor_url" --pid "$floor"
  kill "$floor" 2>/dev/null || echo "  the floor's writer had already exited" >&2; wait "$floor" 2>/dev/null || true
}



# The median p50 / p99 of a server's run lines (stdin): from the rows' "ts" (Sise's tick, the
# peers' due moment), then, in brackets, from a patch's "at" where the lines have it — Sise's
# batch's publication, the peers' hand-over by their publisher (a server late to take a message is
# not counted there). $1: the server; $2: what follows the first pair (" ms" in the main table).
timing() {
  local lines since; lines=$(cat)
  local text="$(field p50 <<<"$lines" | median) / $(field p99 <<<"$lines" | median)${2:-}"
  [ "$1" = sise ] && since=publication || since="hand-over"
  grep -q published <<<"$lines" && text+=" (from $since: $(field 'published p50' <<<"$lines" | median) / $(field 'published p99' <<<"$lines" | median))"
  echo "$text"
}
table=()
ratios=()
for n in "${counts[@]}"; do
  for peer in "${peers[@]}"; do : > "$work/$peer.lines"; done
  for run in $(seq "$runs"); do
    for peer in "${peers[@]}"; do
      printf '%-6s' "$peer"; "run_$peer" | tee -a "$work/$peer.lines"
    done
  done
  row="| $n"
  declare -A per_message=()
  for peer in "${peers[@]}"; do
    lines=$(grep -E '^(clients|connected)' "$work/$peer.lines" || true)
    cpu=$(field 'cpu' <<<"$(sed 's/cpu\/message.*//' <<<"$lines")" | median)
    per_message[$peer]=$(field 'cpu\/message' <<<"$lines" | median)
    latency=$(timing "$peer" " ms" <<<"$lines")
    row+=" | $(field connected <<<"$lines" | median) | ${cpu} % | ${per_message[$peer]} µs | $(field 'cpu\/row' <<<"$lines" | median) µs | $latency | $(field 'rss\/connection' <<<"$lines" | median) KB"
  done
  table+=("$row |")
  ratio="| $n"
  for peer in "${peers[@]}"; do
    [ "$peer" = sise ] && continue
    ratio+=" | $(awk -v a="${per_message[sise]:-0}" -v b="${per_message[$peer]:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%.2f×", a / b; else print "n/a" }')"
  done
  ratios+=("$ratio |")
  echo "median of $runs, N=$n: ${row} |"
done
echo
header="| N"; rule="|---"
for peer in "${peers[@]}"; do
  header+=" | $peer connected | $peer CPU | $peer µs/message | $peer µs/row | $peer p50 / p99 | $peer RSS/connection"
  rule+="|---|---|---|---|---|---"
done
echo "$header |"; echo "$rule|"
printf '%s\n' "${table[@]}"
echo
header="| N"; rule="|---"
for peer in "${peers[@]}"; do [ "$peer" = sise ] && continue; header+=" | Sise / $peer (µs per message)"; rule+="|---"; done
echo "$header |"; echo "$rule|"
printf '%s\n' "${ratios[@]}"

if [ "${CHECK:-1}" != 0 ]; then
  n=${counts[0]}
  echo
  # Latency by both clients too (timing, above).
  echo "| N | server | sise-load µs/message | ws_count µs/message | sise-load / ws_count | sise-load p50 / p99 ms | ws_count p50 / p99 ms |"
  echo "|---|---|---|---|---|---|---|"
  for peer in "${peers[@]}"; do
    [ "$peer" = nats ] && continue
    : > "$work/check-load"; : > "$work/check-count"
    for run in $(seq "$runs"); do
      loader=sise-load; "run_$peer" | grep '^clients' >> "$work/check-load"
      loader=ws_count; "run_$peer" | grep '^connected' >> "$work/check-count"
    done
    a=$(field 'cpu\/message' < "$work/check-load" | median); b=$(field 'cpu\/message' < "$work/check-count" | median)
    echo "| $n | $peer | $a | $b | $(awk -v a="$a" -v b="$b" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "n/a" }') | $(timing "$peer" < "$work/check-load") | $(timing "$peer" < "$work/check-count") |"
  done
fi
