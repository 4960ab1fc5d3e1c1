"""`promtool check metrics` (Prometheus's own checker, Debian's `prometheus` package) over a live
`sise serve --demo`'s /metrics after requests of every kind (matched, unmatched, a page on /ws):
no finding — every family has HELP, names and types as the text format wants."""

import shutil
import subprocess
import urllib.error
import urllib.request

import pytest

from live_server import live_server


pytestmark = pytest.mark.skipif(shutil.which("promtool") is None, reason="promtool is not installed (Debian's prometheus package; scripts/test.sh installs it)")


def test_promtool_finds_nothing():
    with live_server() as (url, _, _server):
        for path in ("/api/status", "/api/nothing-here", "/healthz", "/metrics/"):
            try:
                urllib.request.urlopen(url + path, timeout=5).read()
            except urllib.error.HTTPError:
                pass
        text = urllib.request.urlopen(url + "/metrics", timeout=5).read()
        check = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, timeout=60)
        assert check.returncode == 0 and not check.stdout.strip() and not check.stderr.strip(), (check.stdout + check.stderr).decode()[-3000:]
