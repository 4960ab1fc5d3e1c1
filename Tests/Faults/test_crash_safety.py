"""Crash safety of writes: `sise serve` killed with SIGKILL in the middle of 1,000 favorite
toggles from several clients. After a restart on the same data directory every acknowledged
write (a 2xx came back) is there, and nothing else was added."""

import http.cookiejar
import json
import os
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request

from live_rig import sise_binary

CLIENTS = 4
TOGGLES = 1_000
KILL_AFTER = 450


def start_server(data_dir):
    # The write limit per address is not what this test is about: off.
    process = subprocess.Popen([sise_binary(), "serve", "--demo", "--port", "0", "--data-dir", data_dir,
                                "--favorite-writes-per-minute", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    assert line.startswith("listening on "), line
    url = line.split("listening on ", 1)[1].strip()
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url + "/api/markets?quote=KRW", timeout=5) as response:
                if response.status == 200:
                    return process, url
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise AssertionError("the board never loaded")


class Client:
    """One browser: its own device cookie and CSRF token."""

    def __init__(self, url):
        self.url = url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.opener.open(url + "/api/favorites", timeout=10).read()
        self.csrf = next(c.value for c in self.jar if c.name == "sise_csrf")
        self.device = next(c.value for c in self.jar if c.name == "sise_device")

    def send(self, method, item):
        request = urllib.request.Request(f"{self.url}/api/favorites/{item}", method=method,
                                         headers={"X-CSRF-Token": self.csrf})
        with self.opener.open(request, timeout=10) as response:
            return response.status

    def favorites(self, url):
        request = urllib.request.Request(url + "/api/favorites",
                                         headers={"Cookie": f"sise_device={self.device}; sise_csrf={self.csrf}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return set(json.loads(response.read())["favorites"])


def test_acknowledged_favorites_survive_sigkill():
    with tempfile.TemporaryDirectory() as data_dir:
        process, url = start_server(data_dir)
        with urllib.request.urlopen(url + "/api/markets?quote=KRW", timeout=10) as response:
            items = [row["market"] for row in json.loads(response.read())[:40]]
        clients = [Client(url) for _ in range(CLIENTS)]
        acked = [dict() for _ in clients]      # item → state after its last acknowledged write
        unsure = [set() for _ in clients]      # items whose last write got no answer
        count = {"acks": 0}
        lock = threading.Lock()
        killed = threading.Event()

        def work(index):
            client, state = clients[index], {}
            for n in range(TOGGLES // CLIENTS):
                item = items[(n * 7 + index * 13) % len(items)]
                want = not state.get(item, False)
                try:
                    status = client.send("PUT" if want else "DELETE", item)
                except (urllib.error.URLError, OSError, ConnectionError):
                    unsure[index].add(item)
                    return
                if 200 <= status < 300:
                    state[item] = want
                    acked[index][item] = want
                    unsure[index].discard(item)
                    with lock:
                        count["acks"] += 1
                        if count["acks"] >= KILL_AFTER and not killed.is_set():
                            killed.set()
                            os.kill(process.pid, signal.SIGKILL)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        process.wait(10)
        assert killed.is_set(), "the server was killed mid-way"
        assert process.returncode == -signal.SIGKILL

        process, url = start_server(data_dir)
        try:
            for index, client in enumerate(clients):
                stored = client.favorites(url)
                assert stored <= set(items), f"nothing else was added: {stored - set(items)}"
                for item, present in acked[index].items():
                    if item in unsure[index]:
                        continue
                    assert (item in stored) == present, f"client {index}: {item} should be {'on' if present else 'off'}"
                for item in stored - set(acked[index]):
                    assert item in unsure[index], f"client {index}: {item} was never acknowledged"
        finally:
            process.terminate()
            process.wait(10)
