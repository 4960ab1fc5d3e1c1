"""A `sise serve --demo` for one test, on an ephemeral loopback port, stopped by the test."""
import contextlib
import os
import pathlib
import subprocess
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
SISE = os.environ.get("SISE_BIN", str(ROOT / ".build" / "debug" / "sise"))


@contextlib.contextmanager
def live_server(*flags, ready="/api/markets"):
    """Yields (url, data directory, process) once `ready` answers 200 (30 s at most)."""
    with tempfile.TemporaryDirectory() as work:
        server = subprocess.Popen([SISE, "serve", "--demo", "--port", "0", "--data-dir", work, *flags],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            url = server.stdout.readline().split("listening on ", 1)[1].strip()
            deadline = time.time() + 30
            while time.time() < deadline:
                try:
                    if urllib.request.urlopen(url + ready, timeout=5).status == 200:
                        break
                except OSError:
                    time.sleep(0.3)
            yield url, work, server
        finally:
            server.terminate()
            server.wait(10)
