#!/usr/bin/env bash
# The scale-out check, loopback only: PostgreSQL, the simulator, three `sise serve` replicas and
# nginx (deploy/nginx.conf); API, WebSocket and headless-Chromium flows across replicas, a SIGKILL in the middle of
# writes, and throughput figures. Needs a built `sise` (SISE_BIN, default the debug build).
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || {
  $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; }
export PATH="$PATH:/usr/sbin"
[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] || {
  $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; }
python3 -c "import websocket, selenium" 2>/dev/null || python3 -m pip install -q --disable-pip-version-check websocket-client selenium
export SISE_BIN="${SISE_BIN:-$(swift build --show-bin-path)/sise}"
exec python3 scripts/cluster_test.py
