#!/usr/bin/env bash
# CPU of `sise tui` at the simulator's 150 ticks/s: the TUI (with its engine) runs in a tmux
# pane against `sise simulate` in another process; /proc gives its CPU time over the window.
# Usage: scripts/bench-tui.sh [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
swift build -c release --scratch-path .build-release --product sise >/dev/null
bin=$PWD/.build-release/release/sise
work=$(mktemp -d)
"$bin" simulate --port 0 > "$work/sim" 2>/dev/null &
sim=$!
for _ in $(seq 100); do grep -q "listening on" "$work/sim" && break; sleep 0.1; done
simurl=$(sed -n 's/^listening on //p' "$work/sim")
session="sise-bench-$$"
tmux new-session -d -s "$session" -x 120 -y 40 "env LANG=C.UTF-8 $bin tui --upbit-url $simurl --data-dir $work"
sleep 5
pid=$(pgrep -n -f "release/sise tui --upbit-url $simurl")
ticks=$(getconf CLK_TCK)
read_cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
before=$(read_cpu); sleep "$seconds"; after=$(read_cpu)
echo "sise tui at 150 ticks/s: $(echo "scale=2; ($after - $before) * 100 / $ticks / $seconds" | bc)% of one core over ${seconds}s (engine + rendering; 120x40 pane)"
tmux send-keys -t "$session" q
sleep 1
tmux kill-session -t "$session" 2>/dev/null || true
kill "$sim"; wait "$sim" 2>/dev/null || true
rm -rf "$work"
