"""Sise's private-call signatures checked by an outsider: PyJWT verifies the tokens `sise portfolio
accounts` sends to Upbit (HS512) and Bithumb (HS256 with the time), Python's hmac Korbit's
HMAC-SHA256 and Coinone's HMAC-SHA512, and `cryptography` Korbit's ED25519 — a stand-in exchange
on loopback records the calls; and the key given to `sise portfolio keys add` appears in no output
and nowhere in the data directory's files in the clear."""

import base64
import hashlib
import hmac
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
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from urllib.parse import unquote

# The test secrets are short on purpose (exchange secrets are what the exchange hands out).
pytestmark = pytest.mark.filterwarnings("ignore:The HMAC key")

SISE = os.environ.get("SISE_BIN", ".build-opt/debug/sise")
KEYS = {
    "upbit": ("upbit-access-key-ABCD", "upbit-secret-key-for-the-test-0001"),
    "bithumb": ("bithumb-access-key-EFGH", "bithumb-secret-key-for-the-test-0002"),
}


class Recorder(http.server.BaseHTTPRequestHandler):
    seen: list = []

    # What each exchange answers an account with nothing in it.
    EMPTY = {
        "/v2/balance": b'{"success":true,"data":[]}',
        "/coinone/v2.1/account/balance/all": b'{"result":"success","error_code":"0","balances":[]}',
    }

    def answer(self, body=None):
        path = self.path.split("?", 1)[0]
        Recorder.seen.append({"method": self.command, "path": self.path, "headers": dict(self.headers), "body": body})
        text = Recorder.EMPTY.get(path, b"[]")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text)

    def do_GET(self):  # noqa: N802 (the standard library's name)
        self.answer()

    def do_POST(self):  # noqa: N802
        self.answer(self.rfile.read(int(self.headers.get("Content-Length", "0"))))

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
    by_path = {call["path"]: call["headers"].get("Authorization", "") for call in Recorder.seen}
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
        tokens = [c["headers"]["Authorization"].split(" ", 1)[1] for c in Recorder.seen if c["path"] == "/v1/accounts"]
        assert jwt.decode(tokens[-1], "file-secret-key-never-shown-0003", algorithms=["HS512"])["access_key"] == "file-access-key-IJKL"


def korbit_and_coinone(base, data, korbit_secret):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SISE_")}
    env.update(
        SISE_KORBIT_URL=base,
        SISE_COINONE_URL=base + "/coinone",
        SISE_DATA_DIR=data,
        SISE_KORBIT_ACCESS_KEY="korbit-api-key-MNOP",
        SISE_KORBIT_SECRET_KEY=korbit_secret,
        SISE_COINONE_ACCESS_KEY="coinone-access-token-QRST",
        SISE_COINONE_SECRET_KEY="coinone-secret-for-the-test-0004",
    )
    return env


def accounts(env):
    run = subprocess.run([SISE, "portfolio", "accounts", "--json"], env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert [s["state"] for s in json.loads(run.stdout)["sources"]] == ["live", "live"], run.stdout


def korbit_call():
    calls = [c for c in Recorder.seen if c["path"].startswith("/v2/balance?")]
    assert len(calls) == 1, Recorder.seen
    call = calls[0]
    assert call["method"] == "GET" and call["headers"]["X-KAPI-KEY"] == "korbit-api-key-MNOP"
    query = call["path"].split("?", 1)[1]
    message, signature = query.rsplit("&signature=", 1)
    fields = dict(pair.split("=", 1) for pair in message.split("&"))
    assert abs(int(fields["timestamp"]) - time.time() * 1000) < 60_000 and 0 < int(fields["recvWindow"]) <= 60_000, fields
    return message, signature


def test_python_verifies_the_korbit_hmac_and_the_coinone_signatures(stand_in):
    with tempfile.TemporaryDirectory() as data:
        accounts(korbit_and_coinone(stand_in, data, "korbit-hmac-secret-for-the-test-0005"))
    message, signature = korbit_call()
    expected = hmac.new(b"korbit-hmac-secret-for-the-test-0005", message.encode(), hashlib.sha256).hexdigest()
    assert hmac.compare_digest(signature, expected), "Korbit: hex HMAC-SHA256 over the parameters as sent, signature last"

    calls = [c for c in Recorder.seen if c["path"] == "/coinone/v2.1/account/balance/all"]
    assert len(calls) == 1, Recorder.seen
    call = calls[0]
    assert call["method"] == "POST" and call["headers"]["Content-Type"] == "application/json"
    payload = call["headers"]["X-COINONE-PAYLOAD"]
    assert call["body"] == payload.encode(), "the base64 payload is the body too"
    fields = json.loads(base64.b64decode(payload))
    assert fields["access_token"] == "coinone-access-token-QRST"
    assert uuid.UUID(fields["nonce"]).version == 4
    expected = hmac.new(b"coinone-secret-for-the-test-0004", payload.encode(), hashlib.sha512).hexdigest()
    assert call["headers"]["X-COINONE-SIGNATURE"] == expected, "Coinone v2.1: hex HMAC-SHA512 of the payload under the secret as given"


def test_cryptography_verifies_the_korbit_ed25519_signature(stand_in):
    private = Ed25519PrivateKey.generate()
    pkcs8 = private.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    with tempfile.TemporaryDirectory() as data:
        accounts(korbit_and_coinone(stand_in, data, base64.b64encode(pkcs8).decode()))
    message, signature = korbit_call()
    # Base64, percent-encoded in the query; verify() raises on a bad signature.
    private.public_key().verify(base64.b64decode(unquote(signature)), message.encode())


def test_pyjwt_verifies_the_query_hash_of_every_history_call(stand_in):
    since = time.strftime("%Y-%m-%d", time.gmtime(time.time() - 10 * 86400))
    with tempfile.TemporaryDirectory() as data:
        run = subprocess.run([SISE, "portfolio", "sync", "--exchange", "upbit", "--since", since, "--json"],
                             env=environment(stand_in, data), capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    [outcome] = json.loads(run.stdout)
    assert outcome["exchange"] == "upbit" and outcome["orders"] == 0 and outcome["calls"] == 2, outcome
    calls = [c for c in Recorder.seen if c["path"].startswith("/v1/orders/closed?")]
    assert len(calls) == 2, Recorder.seen
    windows = []
    for call in calls:
        query = call["path"].split("?", 1)[1]
        claims = jwt.decode(call["headers"]["Authorization"].split(" ", 1)[1], KEYS["upbit"][1], algorithms=["HS512"])
        assert claims["query_hash"] == hashlib.sha512(query.encode()).hexdigest() and claims["query_hash_alg"] == "SHA512", query
        fields = dict(pair.split("=", 1) for pair in query.split("&"))
        assert fields["order_by"] == "asc" and fields["limit"] == "1000" and "states%5B%5D=done" in query, query
        windows.append((int(fields["start_time"]), int(fields["end_time"])))
    # Seven days a call at most, walked forward with no gap between two windows.
    assert all(end - start < 7 * 86_400_000 for start, end in windows), windows
    assert windows[1][0] == windows[0][1] + 1, windows
