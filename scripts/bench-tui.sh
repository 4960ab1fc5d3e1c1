#!/usr/bin/env bash
# CPU of `sise tui` at the simulator's 150 ticks/s: the TUI (with its engine) runs in a tmux
# pane against `sise simulate` in another process; /proc gives its CPU time over the window. With
# two or more CPUs the TUI is pinned to CPU 0 and the simulator to CPU 1.
# Usage: scripts/bench-tui.sh [seconds]   (RUNS=3 by default; prints each run and the median)
# SISE_BIN measures another build (e.g. the commit before a change) with this script.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
runs=${RUNS:-3}
swift build -c release --scratch-path .build-release --product sise >/dev/null
bin=${SISE_BIN:-$PWD/.build-release/release/sise}
tui_cpu=(); sim_cpu=()
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then tui_cpu=(taskset -c 0); sim_cpu=(taskset -c 1); fi
ticks=$(getconf CLK_TCK)
results=()
for run in $(seq "$runs"); do
  work=$(mktemp -d)
  "${sim_cpu[@]}" "$bin" simulate --port 0 > "$work/sim" 2>/dev/null &
  sim=$!
  for _ in $(seq 100); do grep -q "listening on" "$work/sim" && break; sleep 0.1; done
  simurl=$(sed -n 's/^listening on //p' "$work/sim")
  session="sise-bench-$$-$run"
  tmux new-session -d -s "$session" -x 120 -y 40 "env LANG=C.UTF-8 ${tui_cpu[*]} $bin tui --upbit-url $simurl --data-dir $work"
  sleep 5
  pid=$(pgrep -n -f " tui --upbit-url $simurl")
  read_cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
  before=$(read_cpu); sleep "$seconds"; after=$(read_cpu)
  share=$(echo "scale=2; ($after - $before) * 100 / $ticks / $seconds" | bc)
  results+=("$share")
  echo "run $run: sise tui at 150 ticks/s: ${share}% of one core over ${seconds}s (engine + rendering; 120x40 pane)"
  tmux send-keys -t "$session" q
  sleep 1
  tmux kill-session -t "$session" 2>/dev/null || true
  kill "$sim"; wait "$sim" 2>/dev/null || true
  rm -rf "$work"
done
median=$(printf '%s\n' "${results[@]}" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
echo "median of $runs: ${median}% of one core ($bin)"
