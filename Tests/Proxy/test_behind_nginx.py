"""Behind nginx, people are people: distinct loopback source addresses (127.0.0.x) stand for
distinct visitors, and a real nginx, configured exactly as deploy/nginx.conf, sits in front of
`sise serve --demo --trusted-proxy 127.0.0.1/32` (issue "behind nginx every visitor is one
address"). Each test fails when Sise judges everyone by nginx's address, or believes a header a
client made up.
"""
import http.client
import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import nginx_rig  # noqa: E402


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def site():
    work = tempfile.mkdtemp(prefix="sise-proxy-")
    port = free_port()
    public = f"127.0.0.1:{port}"
    server = subprocess.Popen([os.environ.get("SISE_BIN", str(ROOT / ".build/debug/sise")), "serve", "--demo", "--port", "0",
                               "--data-dir", work, "--public-url", f"http://{public}", "--trusted-proxy", "127.0.0.1/32",
                               # Dozens of sign-ups: bcrypt at its least cost (the throttles are the point here).
                               "--password-cost", "4"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    assert line.startswith("listening on "), line
    direct = int(line.rsplit(":", 1)[1])
    nginx = nginx_rig.start(work, port, [direct])
    yield {"nginx": port, "direct": direct, "host": public}
    for process in (nginx, server):
        process.terminate()
        process.wait(10)
    shutil.rmtree(work, ignore_errors=True)


class Person:
    """A browser at its own address: its cookies, the page's CSRF echo, one connection."""

    def __init__(self, site, address, direct=False):
        self.site, self.address = site, address
        self.port = site["direct"] if direct else site["nginx"]
        self.cookies = {}
        self.request("GET", "/api/favorites")

    def request(self, method, path, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(self.address, 0))
        fields = {"Host": self.site["host"], "Content-Type": "application/json", **(headers or {})}
        if self.cookies:
            fields["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if "sise_csrf" in self.cookies:
            fields["X-CSRF-Token"] = self.cookies["sise_csrf"]
        connection.request(method, path, body=None if body is None else json.dumps(body), headers=fields)
        response = connection.getresponse()
        text = response.read().decode()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.split(";", 1)[0].partition("=")
                self.cookies[key] = rest
        connection.close()
        return response.status, text

    def sign_up(self, username):
        return self.request("POST", "/api/auth/signup", {"username": username, "password": "a long secret", "nickname": username})[0]

    def log_in(self, username, password="a long secret"):
        return self.request("POST", "/api/auth/login", {"login": username, "password": password})[0]

    def log_out(self):
        return self.request("POST", "/api/auth/logout", {})[0]


def test_thirty_six_people_from_thirty_six_addresses_all_sign_up_within_a_minute(site):
    """More than one address's burst (30): behind nginx each person is judged on her own address."""
    statuses = [Person(site, f"127.0.1.{n}").sign_up(f"person{n}") for n in range(2, 38)]
    assert statuses == [201] * 36, statuses


def test_one_address_signing_up_without_end_is_stopped(site):
    """The same budget does stop a script: nginx's own address is not what is counted."""
    statuses = [Person(site, "127.0.2.2").sign_up(f"script{n}") for n in range(31)]
    assert statuses[:30] == [201] * 30 and statuses[30] == 429, statuses


@pytest.mark.parametrize("stranger_address", ["127.0.3.9", "127.0.3.2"], ids=["stranger elsewhere", "stranger on her address"])
def test_a_strangers_failures_do_not_stop_the_owner_on_her_browser(site, stranger_address):
    owner = Person(site, "127.0.3.2")
    name = "owner" + stranger_address.rsplit(".", 1)[1]
    assert owner.sign_up(name) == 201
    assert owner.log_out() == 200
    stranger = Person(site, stranger_address)
    statuses = [stranger.log_in(name, "guess guess") for _ in range(30)]
    assert 429 in statuses, "the stranger is slowed down"
    assert stranger.log_in(name) == 429, "an untrusted browser waits, even with the password"
    assert owner.log_in(name) == 200, "the owner's browser, which logged in before, gets in"


def test_a_direct_client_inventing_forwarded_addresses_stays_one_address(site):
    """Headers a client made up are believed from nobody but the trusted proxy; through nginx
    the made-up entries sit left of the real one, which is what counts."""
    for direct, address in ((True, "127.0.4.2"), (False, "127.0.4.3")):
        statuses = []
        for n in range(31):
            person = Person(site, address, direct=direct)
            statuses.append(person.request("POST", "/api/auth/signup",
                                           {"username": f"forger{int(direct)}{n}", "password": "a long secret", "nickname": "위조"},
                                           headers={"X-Forwarded-For": f"10.9.{n}.1", "X-Real-IP": f"10.8.{n}.1"})[0])
        assert statuses[:30] == [201] * 30 and statuses[30] == 429, (direct, statuses)


def raw_exchange(port, request, source="127.0.0.1", timeout=10):
    """Sends bytes exactly as written (no client normalises the path) and reads the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0)) as conn:
        conn.sendall(request.encode())
        chunks = []
        while True:
            try:
                chunk = conn.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks).decode(errors="replace")


@pytest.mark.parametrize("path", ["/metrics", "/metrics/", "/metrics//", "/METRICS", "/Metrics/", "/%6detrics", "/%6D%65trics/",
                                  "//metrics", "/./metrics", "/api/../metrics", "/metrics/.", "/metrics%2F", "/metrics?x=1"])
def test_metrics_stay_off_the_public_side_in_every_spelling(site, path):
    """nginx keeps the Prometheus text from the public side however the path is written (Sise
    itself serves it to this machine only, and at its exact path only)."""
    answer = raw_exchange(site["nginx"], f"GET {path} HTTP/1.1\r\nHost: {site['host']}\r\nConnection: close\r\n\r\n", source="127.0.5.2")
    assert not answer.startswith("HTTP/1.1 200"), answer[:200]
    assert "sise_" not in answer, answer[:400]


def test_one_address_holds_at_most_256_connections(site):
    """The config's limit_conn: one address's 257th connection with a request in progress is
    refused by nginx; another address is not held to it."""
    held = []
    try:
        # Requests whose bodies never come: nginx holds each connection, counted, waiting for them.
        for _ in range(256):
            conn = socket.create_connection(("127.0.0.1", site["nginx"]), timeout=10, source_address=("127.0.6.2", 0))
            conn.sendall(f"POST /api/favorites HTTP/1.1\r\nHost: {site['host']}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n".encode())
            held.append(conn)
        time.sleep(0.5)
        over = raw_exchange(site["nginx"], f"GET /healthz HTTP/1.1\r\nHost: {site['host']}\r\nConnection: close\r\n\r\n", source="127.0.6.2")
        assert over.startswith("HTTP/1.1 503"), over[:200]
        other = raw_exchange(site["nginx"], f"GET /healthz HTTP/1.1\r\nHost: {site['host']}\r\nConnection: close\r\n\r\n", source="127.0.6.3")
        assert other.startswith("HTTP/1.1 200"), other[:200]
    finally:
        for conn in held:
            conn.close()


def test_one_address_sending_without_end_is_slowed_down(site):
    """The config's limit_req: a script's flood of requests from one address gets 429s while
    another address is answered. The flood comes over eight connections at once, so it outruns
    the limit (100 a second after a burst of 400) however busy the machine is."""
    import concurrent.futures
    import threading
    limited = threading.Event()

    def flood():
        conn = http.client.HTTPConnection("127.0.0.1", site["nginx"], timeout=10, source_address=("127.0.7.2", 0))
        statuses = []
        for _ in range(1000):
            if limited.is_set():
                break
            conn.request("GET", "/healthz", headers={"Host": site["host"]})
            response = conn.getresponse()
            response.read()
            statuses.append(response.status)
            if response.status == 429:
                limited.set()
        conn.close()
        return statuses

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        statuses = [status for one in pool.map(lambda _: flood(), range(8)) for status in one]
    assert 429 in statuses and statuses.count(200) >= 400, (len(statuses), statuses.count(200), statuses.count(429))
    assert Person(site, "127.0.7.3").request("GET", "/healthz")[0] == 200


def test_answers_through_nginx_carry_hsts_once(site):
    answer = raw_exchange(site["nginx"], f"GET /api/status HTTP/1.1\r\nHost: {site['host']}\r\nConnection: close\r\n\r\n", source="127.0.8.2")
    assert answer.lower().count("strict-transport-security: max-age=31536000") == 1, answer[:600]
    refused = raw_exchange(site["nginx"], f"GET /metrics/ HTTP/1.1\r\nHost: {site['host']}\r\nConnection: close\r\n\r\n", source="127.0.8.2")
    assert "strict-transport-security" in refused.lower(), refused[:400]
