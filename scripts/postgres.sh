#!/usr/bin/env bash
# A throw-away PostgreSQL server on loopback, for the test command and the cluster test.
#   scripts/postgres.sh start   → prints "URL DIR" (trust auth, user sise, database postgres)
#   scripts/postgres.sh stop DIR → stops it and removes its data directory
# PostgreSQL refuses to run as root: as root the server runs as the `postgres` user.
# PG_FSYNC=on keeps fsync (the cluster test's throughput figures); tests turn it off.
set -euo pipefail
BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$BIN" ] && [ -x "$BIN/initdb" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 3; }
run=()
if [ "$(id -u)" -eq 0 ]; then run=(runuser -u postgres --); fi

case "${1:-start}" in
start)
  dir=$(mktemp -d /tmp/sise-pg.XXXXXX)
  chmod 755 "$dir"
  [ ${#run[@]} -gt 0 ] && chown postgres "$dir"
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "${run[@]}" "$BIN/initdb" -D "$dir/data" -U sise --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  "${run[@]}" "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=${PG_FSYNC:-off}" start >/dev/null \
    || { cat "$dir/server.log" >&2; exit 1; }
  echo "postgres://sise@127.0.0.1:$port/postgres $dir"
  ;;
stop)
  dir=${2:?usage: scripts/postgres.sh stop DIR}
  "${run[@]}" "$BIN/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  ;;
*) echo "usage: scripts/postgres.sh start | stop DIR" >&2; exit 2 ;;
esac
