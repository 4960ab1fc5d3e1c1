#!/usr/bin/env python3
"""Bytes on the wire for one phone's live board: starts `sise serve --demo` (its simulator streams
150 ticks/s), opens `/ws` through a counting TCP proxy the way a 390×844 phone does (Origin of
the page, permessage-deflate, a window of its visible ranks plus a margin) and prints the first
snapshot's bytes and the bytes per second over the next 10 s — and the same without compression
and window (every row, as before), for comparison; and a phone on a coin page (the board's window
plus the market's 호가 and 체결 pushed over the same socket).

    python3 scripts/bandwidth.py [--seconds 10] [--clients 1] [--sise .build/release/sise]
"""
import argparse
import asyncio
import json
import os
import pathlib
import socket
import subprocess
import tempfile
import time

import websockets

ROOT = pathlib.Path(__file__).resolve().parents[1]


class Counter:
    def __init__(self):
        self.down = 0


async def proxy(listen_socket, target_port, counter):
    async def pipe(reader, writer, count):
        try:
            while data := await reader.read(65536):
                if count:
                    counter.down += len(data)
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def handle(client_reader, client_writer):
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target_port)
        await asyncio.gather(pipe(client_reader, server_writer, False), pipe(server_reader, client_writer, True))

    server = await asyncio.start_server(handle, sock=listen_socket)
    async with server:
        await server.serve_forever()


async def measure(listen_socket, port, seconds, phone, depth=False):
    """One client through the counting proxy: (snapshot bytes, bytes/s after it, messages/s)."""
    counter = Counter()
    relay = asyncio.create_task(proxy(listen_socket.dup(), port, counter))
    proxy_port = listen_socket.getsockname()[1]
    await asyncio.sleep(0.1)
    view = {"type": "view", "exchange": "upbit", "quote": "KRW", "sort": "value", "order": "none", "q": "", "favoritesOnly": False, "lang": "ko"}
    if phone:
        # 844 px tall at about 44 px a row: 19 ranks on screen, a screen's margin each side.
        view["window"] = {"from": 0, "to": 38}
    async with websockets.connect(f"ws://127.0.0.1:{proxy_port}/ws", origin=f"http://127.0.0.1:{proxy_port}",
                                  compression="deflate" if phone else None, max_size=None) as socket:
        await socket.send(json.dumps(view))
        if depth:
            await socket.send(json.dumps({"type": "depth", "exchange": "upbit", "market": "KRW-BTC"}))
        while True:
            message = json.loads(await socket.recv())
            if message.get("type") == "snapshot":
                break
        snapshot_bytes = counter.down
        start, messages = time.monotonic(), 0
        while (elapsed := time.monotonic() - start) < seconds:
            try:
                await asyncio.wait_for(socket.recv(), timeout=seconds - elapsed)
                messages += 1
            except asyncio.TimeoutError:
                break
        rate = (counter.down - snapshot_bytes) / seconds
    relay.cancel()
    return snapshot_bytes, rate, messages / seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--sise", default=os.environ.get("SISE_BIN", str(ROOT / ".build" / "debug" / "sise")))
    args = parser.parse_args()
    # The proxy's address is the public one (the page's Origin and Host name it).
    listen_socket = socket.socket()
    listen_socket.bind(("127.0.0.1", 0))
    listen_socket.listen(64)
    public = f"http://127.0.0.1:{listen_socket.getsockname()[1]}"
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen([args.sise, "serve", "--demo", "--port", "0", "--data-dir", data, "--public-url", public],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            url = server.stdout.readline().split("listening on ", 1)[1].strip()
            port = int(url.rsplit(":", 1)[1])
            time.sleep(3)   # the board goes live
            print(f"{'client':<34} {'first snapshot':>15} {'then, per second':>17} {'messages/s':>11}")
            for label, phone, depth in (("phone: deflate + window of ranks", True, False), ("phone on a coin page: + 호가/체결", True, True),
                                        ("every row, uncompressed (before)", False, False)):
                snapshot, rate, per_second = asyncio.run(measure(listen_socket, port, args.seconds, phone, depth))
                print(f"{label:<34} {snapshot / 1024:>12.1f} KB {rate / 1024:>13.2f} KB/s {per_second:>11.1f}")
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
