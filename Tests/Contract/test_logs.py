"""`sise serve --log-format json`: every line on standard error is one JSON object an operator's
log shipper can read (time, level, label, message, request ids), and a bad format stops start-up."""
import json
import os
import pathlib
import subprocess
import tempfile
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
SISE = os.environ.get("SISE_BIN", str(ROOT / ".build" / "debug" / "sise"))


def test_json_logs_are_one_object_per_line():
    with tempfile.TemporaryDirectory() as data_dir:
        server = subprocess.Popen([SISE, "serve", "--demo", "--port", "0", "--data-dir", data_dir, "--log-format", "json"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env={**os.environ, "LOG_LEVEL": "debug"})
        try:
            url = server.stdout.readline().split("listening on ", 1)[1].strip()
            urllib.request.urlopen(url + "/api/status", timeout=10).read()
        finally:
            server.terminate()
            _, errors = server.communicate(timeout=20)
    lines = [line for line in errors.splitlines() if line.strip()]
    assert lines, "debug level logs something"
    events = [json.loads(line) for line in lines]
    for event in events:
        assert {"ts", "level", "label", "message"} <= event.keys()
        assert event["level"] in ("trace", "debug", "info", "notice", "warning", "error", "critical")
    assert any("hb.request.id" in event for event in events), "request events carry their id"


def test_an_unknown_log_format_stops_start_up():
    result = subprocess.run([SISE, "serve", "--demo", "--port", "0", "--log-format", "yaml"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "--log-format must be text or json" in result.stderr
