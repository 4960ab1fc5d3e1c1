#!/usr/bin/env python3
"""Soak load for `sise serve`: steady pages, churning pages, bare connects and API traffic.

Speaks the page's WebSocket protocol at the byte level (asyncio, no library): the upgrade with
permessage-deflate offered as browsers do, the view as a masked text frame, then whatever the
server sends read and dropped. Prints the server's RSS (from /proc) at intervals, and at the
end the KB kept per churned page. Run by scripts/soak.sh, which builds and pins the server.
"""
import argparse
import asyncio
import base64
import json
import os
import random
import time
import urllib.request

QUOTES = [("upbit", "KRW"), ("upbit", "BTC"), ("upbit", "USDT"), ("bithumb", "KRW"), ("korbit", "KRW")]
SORTS = [("value", "none"), ("change", "desc"), ("price", "asc"), ("name", "asc")]


def view(index, favorites=False):
    exchange, quote = QUOTES[index % len(QUOTES)]
    sort, order = SORTS[(index // 5) % len(SORTS)]
    return json.dumps({"type": "view", "exchange": exchange, "quote": quote, "sort": sort, "order": order, "q": "",
                       "favoritesOnly": favorites, "lang": "ko" if index % 2 else "en"})


def frame(opcode, payload):
    mask = os.urandom(4)
    head = bytes([0x80 | opcode])
    head += bytes([0x80 | len(payload)]) if len(payload) < 126 else bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class Counts:
    def __init__(self):
        self.churned = self.bare = self.api = self.steady = self.errors = 0


async def open_page(port, deflate=True):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n")
    if deflate:
        request += "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
    writer.write((request + "\r\n").encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    if not head.startswith(b"HTTP/1.1 101"):
        writer.close()
        raise RuntimeError(head[:40])
    return reader, writer


def leave(writer, how):
    """A close frame, a plain close (FIN) or a reset (RST)."""
    if how == "close":
        writer.write(frame(0x8, (1000).to_bytes(2, "big")))
    elif how == "reset":
        sock = writer.get_extra_info("socket")
        if sock is not None:
            import socket
            import struct
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.close()


async def steady(port, index, stop, counts):
    while not stop.is_set():
        writer = None
        try:
            reader, writer = await open_page(port)
            writer.write(frame(0x1, view(index).encode()))
            counts.steady += 1
            while not stop.is_set():
                if not await reader.read(65536):
                    break
        except asyncio.CancelledError:
            break
        except Exception:
            counts.errors += 1
            await asyncio.sleep(1)
        finally:
            if writer is not None:
                counts.steady -= 1
                leave(writer, "close")


async def churn(port, worker, until, counts):
    index = worker
    while counts.churned < until:
        index += 97
        try:
            reader, writer = await open_page(port)
            writer.write(frame(0x1, view(index, favorites=index % 7 == 0).encode()))
            # Leave before the first message, mid-snapshot, or after a batch or two (a small view
            # may take a while to send that much: leaving after 2 s is leaving mid-wait).
            wanted = [0, 200, 3000, 8000][index % 4]
            got = 0
            try:
                while got < wanted:
                    chunk = await asyncio.wait_for(reader.read(65536), 2)
                    if not chunk:
                        break
                    got += len(chunk)
            except asyncio.TimeoutError:
                pass
            leave(writer, ["close", "reset", "fin"][index % 3])
            counts.churned += 1
        except Exception:
            counts.errors += 1
            await asyncio.sleep(0.2)


async def bare(port, stop, counts):
    while not stop.is_set():
        try:
            _, writer = await open_page(port, deflate=random.random() < 0.5)
            leave(writer, random.choice(["close", "reset", "fin"]))
            counts.bare += 1
        except Exception:
            counts.errors += 1
        await asyncio.sleep(0.05)


async def api(port, stop, counts):
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"GET /api/markets?quote=KRW HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
            while await reader.read(65536):
                pass
            writer.close()
            counts.api += 1
        except Exception:
            counts.errors += 1
        await asyncio.sleep(0.1)


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def objects(port):
    try:
        text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    except Exception:
        return "?"
    alive = [line.split("kind=")[1].replace('"}', "=").replace(" ", "").split(".")[0]
             for line in text.splitlines() if line.startswith("sise_ws_page_objects{")]
    clients = [line.split()[-1] for line in text.splitlines() if line.startswith("sise_ws_clients ")]
    return f"clients={clients[0].split('.')[0] if clients else '?'} " + " ".join(alive)


async def report(pid, port, counts, stop, label, every):
    start = time.monotonic()
    while not stop.is_set():
        await asyncio.sleep(every)
        print(f"  {label:>7} {time.monotonic() - start:6.0f} s  RSS {rss_kb(pid) / 1024:7.1f} MB  steady {counts.steady:4d}  "
              f"churned {counts.churned:6d}  bare {counts.bare:6d}  api {counts.api:5d}  errors {counts.errors}", flush=True)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--steady", type=int, default=300)
    parser.add_argument("--churners", type=int, default=20)
    parser.add_argument("--churn", type=int, default=50_000, help="pages to churn")
    parser.add_argument("--warmup", type=float, default=60)
    parser.add_argument("--settle", type=float, default=30)
    parser.add_argument("--every", type=float, default=15)
    args = parser.parse_args()
    counts = Counts()
    port, pid = args.port, args.pid
    print(f"start: RSS {rss_kb(pid) / 1024:.1f} MB", flush=True)

    steady_stop = asyncio.Event()
    steady_tasks = [asyncio.create_task(steady(port, i, steady_stop, counts)) for i in range(args.steady)]
    phase = asyncio.Event()
    reporter = asyncio.create_task(report(pid, port, counts, phase, "warm-up", args.every))
    await asyncio.sleep(args.warmup)
    phase.set()
    await reporter
    baseline = rss_kb(pid)
    print(f"baseline with {counts.steady} steady pages: RSS {baseline / 1024:.1f} MB  ({objects(port)})", flush=True)

    side_stop = asyncio.Event()
    side = [asyncio.create_task(bare(port, side_stop, counts)) for _ in range(4)]
    side += [asyncio.create_task(api(port, side_stop, counts)) for _ in range(2)]
    phase = asyncio.Event()
    reporter = asyncio.create_task(report(pid, port, counts, phase, "churn", args.every))
    started = time.monotonic()
    warmed = {}

    async def note_warm():
        # The churn's own working set (pages in flight, allocator arenas) settles within the
        # first tenth; what grows after that is what pages keep.
        while counts.churned < args.churn // 10:
            await asyncio.sleep(0.5)
        warmed.update(rss=rss_kb(pid), pages=counts.churned + counts.bare)
    await asyncio.gather(note_warm(), *[churn(port, w, args.churn, counts) for w in range(args.churners)])
    churn_seconds = time.monotonic() - started
    side_stop.set()
    await asyncio.gather(*side)
    phase.set()
    await reporter
    await asyncio.sleep(args.settle / 3)
    after = rss_kb(pid)
    kept = (after - baseline) / max(1, counts.churned + counts.bare)
    warm_kept = (after - warmed["rss"]) / max(1, counts.churned + counts.bare - warmed["pages"])
    print(f"churn warmed up at {warmed['rss'] / 1024:.1f} MB ({args.churn // 10} pages); since then "
          f"{100 * (after - warmed['rss']) / warmed['rss']:+.1f} %, {warm_kept:.3f} KB kept per page", flush=True)
    print(f"after {counts.churned} churned pages ({counts.churned / churn_seconds:.0f}/s), {counts.bare} bare connects, "
          f"{counts.api} API requests: RSS {after / 1024:.1f} MB = baseline {100 * (after - baseline) / baseline:+.1f} %, "
          f"{kept:.2f} KB kept per page  ({objects(port)})", flush=True)

    steady_stop.set()
    for task in steady_tasks:
        task.cancel()
    await asyncio.gather(*steady_tasks, return_exceptions=True)
    await asyncio.sleep(args.settle)
    gone = rss_kb(pid)
    print(f"{args.settle:.0f} s after every page left: RSS {gone / 1024:.1f} MB  ({objects(port)})", flush=True)
    print(f"SUMMARY baseline_mb={baseline / 1024:.1f} after_churn_mb={after / 1024:.1f} change_pct={100 * (after - baseline) / baseline:+.1f} "
          f"kb_per_page={kept:.2f} warmed_mb={warmed['rss'] / 1024:.1f} kb_per_page_after_warmup={warm_kept:.3f} after_pages_left_mb={gone / 1024:.1f} churned={counts.churned} errors={counts.errors}", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
