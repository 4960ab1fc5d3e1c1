"""Contract and fuzz run: schemathesis generates requests from `/openapi.yaml` of a running
`sise serve --demo` and checks that none gets a server error, every answer matches the
schema, and every request the schema forbids (a value outside an enum or a pattern, a list with an
empty item, an empty parameter, a wrong type) is refused with a 4xx: the document and the server
agree. The budgets are opened up for the run (the point is the API, not CoinGecko's quota)."""

import json
import os
import pathlib
import subprocess
import urllib.request
import http.cookiejar
import importlib.util
import sys

import pytest

from live_server import live_server

EXAMPLES = os.environ.get("SISE_SCHEMATHESIS_EXAMPLES", "25")
# The statuses a refusal may have, and nothing kept between runs (a clean clone runs as this one).
CONFIG = pathlib.Path(__file__).with_name("schemathesis.toml")

pytestmark = pytest.mark.skipif(importlib.util.find_spec("schemathesis") is None, reason="schemathesis is not installed")
# The CLI through this very interpreter: no dependence on PATH or shims.
SCHEMATHESIS = [sys.executable, "-c", "import sys; from schemathesis.cli import schemathesis; sys.argv[0] = 'schemathesis'; sys.exit(schemathesis())"]


def test_no_server_errors_and_every_answer_matches_the_schema():
    with live_server("--coingecko-calls-per-minute", "10000", "--favorite-writes-per-minute", "0") as (url, _, server):
        status = json.loads(urllib.request.urlopen(url + "/api/status", timeout=5).read())
        faults = urllib.request.Request(status["simulator"] + "/_sim/faults", data=b'{"geckoPerMinute":100000}',
                                        headers={"Content-Type": "application/json"}, method="POST")
        urllib.request.urlopen(faults, timeout=5).read()
        jar = http.cookiejar.CookieJar()
        urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar)).open(url + "/api/favorites").read()
        cookies = {c.name: c.value for c in jar}
        run = subprocess.run(
            SCHEMATHESIS + ["--config-file", str(CONFIG), "run", url + "/openapi.yaml", "-c", "not_a_server_error,response_schema_conformance,negative_data_rejection",
             "-n", EXAMPLES, "--request-timeout", "15", "--seed", "42", "--generation-database", "none",
             "-H", f"Cookie: sise_device={cookies['sise_device']}; sise_csrf={cookies['sise_csrf']}",
             "-H", f"X-CSRF-Token: {cookies['sise_csrf']}"],
            capture_output=True, text=True, timeout=900)
        assert run.returncode == 0, run.stdout[-6000:]
        assert server.poll() is None, "the server survived the run"
