#!/usr/bin/env python3
"""What 호가/체결 cost the server (issue 33), against `sise simulate` (books on Upbit's 100 ms grid,
10 a second per market, and its trades), the server pinned to CPU 0 and the simulator and clients
to CPU 1 (`taskset`, when there are two CPUs); the server's CPU read from /proc/PID/stat.

1. One watched market: a page on a coin's screen (its board view plus `{"type":"depth"}`) against
   the same page without the book, taking turns; the difference is what one market's book and
   tape cost (goal ≤ 0.5 % of a core). Also the bytes a second that page receives (goal ≤ 6 KB/s).
2. 1,000 pages on 10 different books: how many upstream depth subscriptions the exchange sees
   (`/_sim/depth`: goal ≤ 10, on one connection) and the server's own count.

    python3 scripts/bench-depth.py [--runs 3] [--seconds 20] [--pages 1000] [--sise .build-release/release/sise]

Needs the `websockets` package and a release build
(`swift build -c release --scratch-path .build-release --product sise`).
"""
import argparse
import asyncio
import json
import os
import pathlib
import resource
import statistics
import time
import urllib.request

import websockets

from pinned_servers import cpu_seconds, serving

ROOT = pathlib.Path(__file__).resolve().parents[1]
MARKETS = ["KRW-BTC", "KRW-ETH", "KRW-XRP", "KRW-SOL", "KRW-DOGE", "KRW-ADA", "KRW-TRX", "KRW-LINK", "KRW-AVAX", "KRW-DOT"]


def get_json(url):
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.load(answer)


async def page(url, market, seconds, counts, ready=None):
    """A phone on a coin's screen: a small board window, and the market's book when `market` is set."""
    async with websockets.connect(url.replace("http", "ws") + "/ws", origin=url, max_size=None, compression=None,
                                  open_timeout=60) as socket:
        await socket.send(json.dumps({"type": "view", "exchange": "upbit", "quote": "KRW", "lang": "ko",
                                      "window": {"from": 0, "to": 20}}))
        if market:
            await socket.send(json.dumps({"type": "depth", "exchange": "upbit", "market": market}))
        if ready is not None:
            ready.append(1)
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = await asyncio.wait_for(socket.recv(), timeout=left)
            except asyncio.TimeoutError:
                break
            counts[0] += 1
            counts[1] += len(message)
            if message.startswith(('{"type":"orderbook"', '{"type":"trades"')):
                counts[2] += len(message)


def one_market(sise, seconds, watch):
    """(server % of a core, KB/s to the page, KB/s of it the book and tape) for one page, with or without the book."""
    with serving(sise) as (server, url, _):
        loop = asyncio.new_event_loop()
        counts = [0, 0, 0]
        task = loop.create_task(page(url, "KRW-BTC" if watch else None, seconds + 3, counts))
        loop.run_until_complete(asyncio.sleep(3))   # the first snapshot and the book's start are not the steady cost
        before, started, received, depth = cpu_seconds(server.pid), time.monotonic(), counts[1], counts[2]
        loop.run_until_complete(asyncio.sleep(seconds))
        used, elapsed = cpu_seconds(server.pid) - before, time.monotonic() - started
        rate, depth_rate = (counts[1] - received) / elapsed / 1024, (counts[2] - depth) / elapsed / 1024
        loop.run_until_complete(task)
        loop.close()
        return used / elapsed * 100, rate, depth_rate


def many_pages(sise, pages, seconds):
    with serving(sise) as (_, url, sim_url):
        loop = asyncio.new_event_loop()
        ready, counts = [], [0, 0, 0]

        async def crowd():
            tasks = []
            for i in range(pages):
                tasks.append(asyncio.create_task(page(url, MARKETS[i % len(MARKETS)], seconds + 30, counts, ready)))
                if i % 50 == 49:
                    await asyncio.sleep(0.05)
            while len(ready) < pages:
                await asyncio.sleep(0.2)
            await asyncio.sleep(seconds)
            upstream = get_json(sim_url + "/_sim/depth?exchange=upbit")
            metrics = urllib.request.urlopen(url + "/metrics", timeout=10).read().decode()
            own = next((line.split()[1] for line in metrics.splitlines() if line.startswith("sise_depth_subscriptions ")), "?")
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            return upstream, own

        upstream, own = loop.run_until_complete(crowd())
        loop.close()
        return len(ready), upstream, own


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--sise", default=str(ROOT / ".build-release" / "release" / "sise"))
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"machine: {os.cpu_count()} CPUs; server {args.sise} on CPU 0; simulator and clients on CPU 1")
    costs, rates, depths, boards = [], [], [], []
    for run in range(args.runs):
        base, board, _ = one_market(args.sise, args.seconds, watch=False)
        watched, rate, depth = one_market(args.sise, args.seconds, watch=True)
        costs.append(watched - base)
        rates.append(rate)
        depths.append(depth)
        boards.append(board)
        print(f"run {run + 1}: page without the book {base:.2f} % of a core, with it {watched:.2f} % "
              f"→ the book and tape {watched - base:+.2f} %; the page receives {rate:.2f} KB/s "
              f"({depth:.2f} of it the book and tape; {board:.2f} KB/s without them)")
    print(f"median: one watched market costs {statistics.median(costs):.2f} % of a core (goal ≤ 0.5 %); "
          f"the book and tape send {statistics.median(depths):.2f} KB/s to the page, which receives {statistics.median(rates):.2f} KB/s "
          f"in all with its 20-row board window ({statistics.median(boards):.2f} KB/s without the book; goal ≤ 6 KB/s on the coin page)")
    connected, upstream, own = many_pages(args.sise, args.pages, 10)
    markets = upstream.get("markets", {})
    print(f"{connected} pages on {len(MARKETS)} books: the exchange sees {upstream.get('connections')} depth connection(s) "
          f"carrying {len(markets)} markets ({sum(markets.values())} subscriptions; goal ≤ 10); the server counts {own}")


if __name__ == "__main__":
    main()
