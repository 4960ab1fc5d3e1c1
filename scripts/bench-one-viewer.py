#!/usr/bin/env python3
"""What one outside viewer costs the server: a plain Python `websockets` client (not sise-load)
that asks for the whole KRW board without a window — a desktop page, a script — against
`sise serve` fed by `sise simulate` (150 ticks/s). The server is pinned to CPU 0, the simulator and
the client to CPU 1 (`taskset`, when there are two CPUs); the server's CPU is read from
/proc/PID/stat over the window. Prints each run and the median (goal: ≤ 1 % of a core).

    python3 scripts/bench-one-viewer.py [--runs 3] [--seconds 20] [--sise .build-release/release/sise]

Needs the `websockets` package (`pip install websockets`) and a release build
(`swift build -c release --scratch-path .build-release --product sise`).
"""
import argparse
import asyncio
import json
import os
import pathlib
import statistics
import time

import websockets

from pinned_servers import cpu_seconds, serving

ROOT = pathlib.Path(__file__).resolve().parents[1]


async def view(url, seconds, deflate):
    """The whole KRW board, no window; returns (messages, bytes) over `seconds`."""
    async with websockets.connect(url.replace("http", "ws") + "/ws", origin=url, max_size=None,
                                  compression="deflate" if deflate else None) as socket:
        await socket.send(json.dumps({"type": "view", "exchange": "upbit", "quote": "KRW", "sort": "value", "order": "none",
                                      "q": "", "favoritesOnly": False, "lang": "ko"}))
        while json.loads(await socket.recv()).get("type") != "snapshot":
            pass
        messages = size = 0
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = await asyncio.wait_for(socket.recv(), timeout=left)
            except asyncio.TimeoutError:
                break
            messages += 1
            size += len(message)
        return messages, size


def run_once(sise, seconds, deflate):
    with serving(sise) as (server, url, _):
        # The first 2 s (the snapshot, the view's first batches) are not the steady cost.
        loop = asyncio.new_event_loop()
        task = loop.create_task(view(url, seconds + 2, deflate))
        loop.run_until_complete(asyncio.sleep(2))
        before, started = cpu_seconds(server.pid), time.monotonic()
        loop.run_until_complete(asyncio.sleep(seconds))
        used, elapsed = cpu_seconds(server.pid) - before, time.monotonic() - started
        messages, size = loop.run_until_complete(task)
        loop.close()
        return used / elapsed * 100, messages / (seconds + 2), size / (seconds + 2) / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--sise", default=str(ROOT / ".build-release" / "release" / "sise"))
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPUs; {args.runs} runs of {args.seconds:.0f} s each way; server {args.sise} on CPU 0")
    # Taking turns, so a machine whose speed drifts drifts for both alike.
    figures = {False: [], True: []}
    for run in range(args.runs):
        for deflate in (False, True):
            cpu, rate, kilobytes = run_once(args.sise, args.seconds, deflate)
            figures[deflate].append(cpu)
            print(f"run {run + 1} {'permessage-deflate' if deflate else 'uncompressed':>18}: server {cpu:.2f} % of a core · "
                  f"{rate:.1f} messages/s · {kilobytes:.1f} KB/s to the viewer (before compression)")
    for deflate in (False, True):
        print(f"median, {'permessage-deflate' if deflate else 'uncompressed'}: {statistics.median(figures[deflate]):.2f} % of a core (goal ≤ 1 %)")


if __name__ == "__main__":
    main()
