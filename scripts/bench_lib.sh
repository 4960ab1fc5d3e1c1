# What the pinned load benchmarks share (sourced by bench-serve.sh and bench-peer.sh): the
# descriptor limit raised (every page is a descriptor in the server and another in sise-load), the
# server pinned to CPU 0 and the load to CPU 1 on a machine with two or more, and small helpers.
ulimit -Hn 100000 2>/dev/null || true
ulimit -n "$(ulimit -Hn)" || true
server_cpu=(); load_cpu=()
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then server_cpu=(taskset -c 0); load_cpu=(taskset -c 1); fi
# Waits for a server's "listening on" line in file $1.
wait_line() { for _ in $(seq 200); do grep -q "listening on" "$1" && return; sleep 0.1; done; echo "no listening line in $1" >&2; exit 1; }
# The number after label $1 in sise-load lines on stdin.
field() { sed -n "s/.*$1 *\([0-9.]*\).*/\1/p"; }
median() { sort -n | awk '{v[NR]=$1} END {if (NR==0) print "n/a"; else print v[int((NR+1)/2)]}'; }
