#!/usr/bin/env bash
# The one test command (README, CI): installs what a fresh machine lacks, builds, runs every
# Swift test, then the browser suite (real headless Chromium against `sise serve --demo`).
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
need_apt=()
command -v tmux >/dev/null 2>&1 || need_apt+=(tmux)
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
[ -x /usr/bin/chromedriver ] || need_apt+=(chromium-driver)
fc-list 2>/dev/null | grep -qi nanum || need_apt+=(fonts-nanum)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need_apt+=(postgresql)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need_apt+=(nginx-light)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "installing: ${need_apt[*]}"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
python3 -c "import selenium, pytest, axe_selenium_python" 2>/dev/null || python3 -m pip install -q --disable-pip-version-check selenium pytest axe-selenium-python
python3 -c "import schemathesis" 2>/dev/null || python3 -m pip install -q --disable-pip-version-check "schemathesis>=4,<5"

swift build --build-tests

# A throw-away PostgreSQL on loopback: the store's tests run against it as well as SQLite.
if pg=$(scripts/postgres.sh start); then
  export SISE_TEST_POSTGRES_URL=${pg% *}
  pg_dir=${pg#* }
  trap 'scripts/postgres.sh stop "$pg_dir"' EXIT
  echo "PostgreSQL for the tests: $SISE_TEST_POSTGRES_URL"
else
  echo "note: PostgreSQL could not start; its half of the store tests is skipped" >&2
fi
# Serial: the suites start many simulators and time recoveries; in parallel on 2 cores they
# measure the machine instead of the code.
swift test --skip-build --disable-xctest --no-parallel "$@"
# The API suites that live on the store, again with PostgreSQL as the store.
if [ -n "${SISE_TEST_POSTGRES_URL:-}" ] && [ $# -eq 0 ]; then
  SISE_TEST_STORE=postgres swift test --skip-build --disable-xctest --no-parallel \
    --filter 'AccountsAPITests|LoginThrottleTests|AccountFavoritesLiveTests|ClosedSignupTests|AvatarTests|InviteSignupTests|AlertsAPITests|FavoritesAPITests|FavoriteIdentityTests|PortfolioAPITests|SocialLoginTests|CoinInfoAPITests|HealthTests'
fi

export SE_OFFLINE=true
export SISE_BIN="$(swift build --show-bin-path)/sise"
python3 -m pytest -q Tests/Browser Tests/Terminal Tests/Faults Tests/Contract Tests/Matrix Tests/Proxy

# Scale-out: PostgreSQL, three replicas and nginx on loopback (flows, SIGKILL, figures).
scripts/cluster-test.sh
