"""`promtool check metrics` (Prometheus's own checker, Debian's `prometheus` package) over a live
`sise serve --demo`'s /metrics after requests of every kind (matched, unmatched, a page on /ws):
no finding — every family has HELP, names and types as the text format wants."""

import os
import pathlib
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SISE = os.environ.get("SISE_BIN", str(ROOT / ".build" / "debug" / "sise"))

pytestmark = pytest.mark.skipif(shutil.which("promtool") is None, reason="promtool is not installed (Debian's prometheus package; scripts/test.sh installs it)")


def test_promtool_finds_nothing():
    with tempfile.TemporaryDirectory() as work:
        server = subprocess.Popen([SISE, "serve", "--demo", "--port", "0", "--data-dir", work], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
        try:
            url = server.stdout.readline().split("listening on ", 1)[1].strip()
            deadline = time.time() + 30
            while time.time() < deadline:
                try:
                    if urllib.request.urlopen(url + "/api/markets", timeout=5).status == 200:
                        break
                except OSError:
                    time.sleep(0.3)
            for path in ("/api/status", "/api/nothing-here", "/healthz", "/metrics/"):
                try:
                    urllib.request.urlopen(url + path, timeout=5).read()
                except urllib.error.HTTPError:
                    pass
            text = urllib.request.urlopen(url + "/metrics", timeout=5).read()
            check = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, timeout=60)
            assert check.returncode == 0 and not check.stdout.strip() and not check.stderr.strip(), (check.stdout + check.stderr).decode()[-3000:]
        finally:
            server.terminate()
            server.wait(10)
