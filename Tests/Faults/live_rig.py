"""A live rig for fault tests: `sise simulate`, a TCP fault proxy in front of it, and a client
(`sise watch --json`) talking to the simulator only through the proxy. Everything on loopback,
every process stopped by the rig."""

import asyncio
import json
import os
import pathlib
import time
import urllib.request

from fault_proxy import FaultProxy

ROOT = pathlib.Path(__file__).resolve().parents[2]


def sise_binary():
    return os.environ.get("SISE_BIN", str(ROOT / ".build" / "debug" / "sise"))


async def start_listening(*args):
    """Starts `sise ARGS` and waits for its `listening on http://HOST:PORT` line."""
    process = await asyncio.create_subprocess_exec(
        sise_binary(), *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    line = await asyncio.wait_for(process.stdout.readline(), 60)
    text = line.decode()
    if not text.startswith("listening on "):
        process.kill()
        raise RuntimeError(f"sise {' '.join(args)} did not start: {text!r}")
    return process, int(text.rsplit(":", 1)[1])


def http(port, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data,
                                     headers={"Content-Type": "application/json"},
                                     method="POST" if data is not None else "GET")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


class Watch:
    """`sise watch --json` with every line stamped with its arrival time (monotonic)."""

    def __init__(self, url, *extra):
        self.url = url
        self.extra = extra
        self.lines = []
        self.process = None
        self.reader = None

    async def start(self):
        self.process = await asyncio.create_subprocess_exec(
            sise_binary(), "watch", "--json", "--upbit-url", self.url, *self.extra,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, limit=1 << 22)
        self.reader = asyncio.ensure_future(self._read())
        return self

    async def _read(self):
        while True:
            line = await self.process.stdout.readline()
            if not line:
                return
            self.lines.append((time.monotonic(), json.loads(line)))

    def statuses(self, since=0.0):
        return [(t, o["state"]) for t, o in self.lines if t >= since and o["type"] == "status"]

    def tickers(self, since=0.0, until=float("inf")):
        return [(t, o) for t, o in self.lines if since <= t < until and o["type"] == "ticker"]

    def state(self):
        states = self.statuses()
        return states[-1][1] if states else None

    async def wait_state(self, predicate, timeout, since=0.0):
        """The time of the first status line after `since` whose state satisfies `predicate`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for t, state in self.statuses(since):
                if predicate(state):
                    return t
            await asyncio.sleep(0.02)
        return None

    def max_rss_kb(self):
        try:
            for line in open(f"/proc/{self.process.pid}/status"):
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        except OSError:
            return None
        return None

    async def stop(self):
        if self.process and self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), 10)
            except asyncio.TimeoutError:
                self.process.kill()
        if self.reader:
            self.reader.cancel()


def duplicates(tickers):
    """Ticker lines that repeat the previous line of the same market exactly (but `at`)."""
    last, repeated = {}, 0
    for _, row in tickers:
        key = {k: v for k, v in row.items() if k != "at"}
        if last.get(row["market"]) == key:
            repeated += 1
        last[row["market"]] = key
    return repeated


class Rig:
    """Simulator + proxy + watch; `async with Rig() as rig:`."""

    def __init__(self, *simulate_args, watch_args=()):
        self.simulate_args = simulate_args
        self.watch_args = watch_args

    async def __aenter__(self):
        self.simulator, self.sim_port = await start_listening("simulate", "--port", "0", *self.simulate_args)
        self.proxy = await FaultProxy("127.0.0.1", self.sim_port).start()
        self.watch = await Watch(f"http://127.0.0.1:{self.proxy.port}", *self.watch_args).start()
        return self

    async def restart_simulator(self, pause=2.0):
        """Stops the simulator and starts it again on the same port."""
        self.simulator.terminate()
        await self.simulator.wait()
        await asyncio.sleep(pause)
        self.simulator, _ = await start_listening("simulate", "--port", str(self.sim_port), *self.simulate_args)

    def faults(self, **switches):
        return http(self.sim_port, "/_sim/faults", switches)

    def stats(self):
        return http(self.sim_port, "/_sim/stats")

    async def __aexit__(self, *exc):
        await self.watch.stop()
        await self.proxy.stop()
        if self.simulator.returncode is None:
            self.simulator.terminate()
            await self.simulator.wait()
