"""Sise's private-call signatures checked by an outsider: PyJWT verifies the tokens `sise portfolio
accounts` sends to Upbit (HS512) and Bithumb (HS256 with the time), a stand-in exchange on
loopback records them; and the key given to `sise portfolio keys add` appears in no output and
nowhere in the data directory's files in the clear."""

import http.server
import json
import os
import pathlib
import subprocess
import tempfile
import threading
import time
import uuid

import jwt
import pytest

# The test secrets are short on purpose (exchange secrets are what the exchange hands out).
pytestmark = pytest.mark.filterwarnings("ignore:The HMAC key")

SISE = os.environ.get("SISE_BIN", ".build-opt/debug/sise")
KEYS = {
    "upbit": ("upbit-access-key-ABCD", "upbit-secret-key-for-the-test-0001"),
    "bithumb": ("bithumb-access-key-EFGH", "bithumb-secret-key-for-the-test-0002"),
}


class Recorder(http.server.BaseHTTPRequestHandler):
    seen: list = []

    def do_GET(self):  # noqa: N802 (the standard library's name)
        Recorder.seen.append((self.path, self.headers.get("Authorization", "")))
        body = b"[]"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def stand_in():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    Recorder.seen = []
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def environment(base, data):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SISE_")}
    env.update(
        SISE_UPBIT_URL=base,
        SISE_BITHUMB_URL=base + "/bithumb",
        SISE_DATA_DIR=data,
        SISE_UPBIT_ACCESS_KEY=KEYS["upbit"][0],
        SISE_UPBIT_SECRET_KEY=KEYS["upbit"][1],
        SISE_BITHUMB_ACCESS_KEY=KEYS["bithumb"][0],
        SISE_BITHUMB_SECRET_KEY=KEYS["bithumb"][1],
    )
    return env


def test_pyjwt_verifies_the_upbit_and_bithumb_tokens(stand_in):
    with tempfile.TemporaryDirectory() as data:
        before = int(time.time() * 1000)
        run = subprocess.run([SISE, "portfolio", "accounts", "--json"], env=environment(stand_in, data), capture_output=True, text=True, timeout=60)
        after = int(time.time() * 1000)
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert [s["state"] for s in answer["sources"]] == ["live", "live"], answer
    by_path = {path: auth for path, auth in Recorder.seen}
    assert set(by_path) == {"/v1/accounts", "/bithumb/v1/accounts"}, Recorder.seen
    for exchange, path, algorithm in (("upbit", "/v1/accounts", "HS512"), ("bithumb", "/bithumb/v1/accounts", "HS256")):
        access, secret = KEYS[exchange]
        scheme, token = by_path[path].split(" ", 1)
        assert scheme == "Bearer"
        assert jwt.get_unverified_header(token) == {"alg": algorithm, "typ": "JWT"}
        claims = jwt.decode(token, secret, algorithms=[algorithm])
        assert claims["access_key"] == access
        uuid.UUID(claims["nonce"])
        assert "query_hash" not in claims, "a call without parameters hashes no query"
        if exchange == "bithumb":
            assert before - 1000 <= claims["timestamp"] <= after + 1000, claims
        else:
            assert "timestamp" not in claims
        with pytest.raises(jwt.InvalidSignatureError):
            jwt.decode(token, secret + "x", algorithms=[algorithm])


def test_a_kept_key_is_never_shown_nor_kept_in_the_clear(stand_in):
    with tempfile.TemporaryDirectory() as data:
        env = environment(stand_in, data)
        key_file = pathlib.Path(data) / "upbit.key"
        key_file.write_text("file-access-key-IJKL\nfile-secret-key-never-shown-0003\n")
        outputs = []
        for args in (
            ["portfolio", "keys", "add", "upbit", "--key-file", str(key_file)],
            ["portfolio", "keys", "add", "bithumb"],
            ["portfolio", "keys"],
            ["portfolio", "keys", "--json"],
            ["portfolio", "accounts"],
            ["db", "export"],
        ):
            run = subprocess.run([SISE, *args], env=env, capture_output=True, text=True, timeout=60)
            assert run.returncode == 0, (args, run.stderr)
            outputs.append(run.stdout + run.stderr)
        key_file.unlink()
        assert "…IJKL" in outputs[2] and "…EFGH" in outputs[2], outputs[2]
        assert {k["exchange"]: k["hint"] for k in json.loads(outputs[3])["keys"]} == {"upbit": "IJKL", "bithumb": "EFGH"}
        secrets = ["file-secret-key-never-shown-0003", KEYS["bithumb"][1], "file-access-key", "bithumb-access-key"]
        for text in outputs:
            for secret in secrets:
                assert secret not in text, (secret, text[:400])
        for path in pathlib.Path(data).rglob("*"):
            if path.is_file():
                body = path.read_bytes()
                for secret in secrets:
                    assert secret.encode() not in body, (secret, path)
        # The kept Upbit key (not the environment's) signed the call.
        tokens = [auth.split(" ", 1)[1] for path, auth in Recorder.seen if path == "/v1/accounts"]
        assert jwt.decode(tokens[-1], "file-secret-key-never-shown-0003", algorithms=["HS512"])["access_key"] == "file-access-key-IJKL"
