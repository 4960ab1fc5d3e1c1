#!/usr/bin/env python3
"""The peers' publisher for scripts/bench-peer.sh (issues 35 §1, 57 §1): the same messages Sise
sends a page, published through NATS or nchan, or written by the bare-write floor.

    nats_replay.py capture SISE_URL SECONDS > capture.jsonl   # what one full-board page receives
    nats_replay.py replay  NATS_HOST:PORT capture.jsonl [SUBJECT]   # those messages, at their pace, forever
    nats_replay.py replay-http PUBLISH_URL capture.jsonl      # the same, POSTed to nchan's publisher
    nats_replay.py frames capture.jsonl > capture.frames      # the records scripts/bare_writer.c reads

`capture` opens Sise's `/ws` as the load generator's pages do (the whole KRW board, no window) and
keeps every message after the first snapshot with its time. `replay` publishes them over the
NATS text protocol (TCP) at the same pace, each row's `"ts"` (and a patch's `"at"`, when Sise
published it) set to the moment it was due at that pace and the moment it was handed over (13
digits either way: the sizes stay the same), so a subscriber measures publish→receive both ways."""
import asyncio
import json
import re
import http.client
import socket
import struct
import sys
import urllib.parse
import time

VIEW = {"type": "view", "quote": "KRW", "sort": "value", "order": "none", "q": "", "favoritesOnly": False, "lang": "ko"}
STAMP = re.compile(rb'"(ts|at)":\d{13}')


async def capture(url, seconds):
    import websockets
    async with websockets.connect(url.replace("http", "ws", 1) + "/ws", origin=url, max_size=None, compression=None) as page:
        await page.send(json.dumps(VIEW))
        while json.loads(await page.recv()).get("type") != "snapshot":
            pass
        start = time.monotonic()
        while (left := seconds - (time.monotonic() - start)) > 0:
            try:
                message = await asyncio.wait_for(page.recv(), timeout=left)
            except asyncio.TimeoutError:
                break
            print(json.dumps({"t": round(time.monotonic() - start, 4), "text": message}, ensure_ascii=False), flush=True)


def replay(address, path, subject):
    host, port = address.rsplit(":", 1)
    nats = socket.create_connection((host, int(port)))
    nats.recv(4096)  # INFO
    nats.sendall(b'CONNECT {"verbose":false,"pedantic":false}\r\n')
    nats.setblocking(False)
    head = subject.encode()

    def answer_pings():
        try:
            if b"PING" in nats.recv(4096):
                nats.sendall(b"PONG\r\n")
        except BlockingIOError:
            pass

    for payload in paced(load(path), idle=answer_pings):
        nats.setblocking(True)
        nats.sendall(b"PUB %s %d\r\n%s\r\n" % (head, len(payload), payload))
        nats.setblocking(False)


def load(path):
    messages = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    if not messages:
        sys.exit("nothing captured")
    return messages


def paced(messages, idle=None):
    """Each message when its captured moment comes round, forever: its rows' "ts" set to that
    moment — a server that takes a message late (nchan answers its publisher's request after
    the sweep before) has it waiting, and the wait counts, as it does for Sise's rows timed from
    their tick — and a patch's "at" to the moment it is handed over (13 digits either way: the
    sizes stay the same). `idle` is called every 50 ms while waiting."""
    span = messages[-1]["t"] + 0.1
    began = time.monotonic()
    cycle = 0
    while True:
        for message in messages:
            due = began + cycle * span + message["t"]
            while (wait := due - time.monotonic()) > 0:
                time.sleep(min(wait, 0.05))
                if idle:
                    idle()
            now = time.time()
            stamps = {b"ts": b"%d" % int((now - (time.monotonic() - due)) * 1000), b"at": b"%d" % int(now * 1000)}
            yield STAMP.sub(lambda m: b'"' + m.group(1) + b'":' + stamps[m.group(1)], message["text"].encode())
        cycle += 1


def replay_http(url, path):
    """nchan's publisher: one POST per message on one kept-alive connection."""
    target = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(target.hostname, target.port)
    for payload in paced(load(path)):
        connection.request("POST", target.path, body=payload, headers={"Content-Type": "text/plain"})
        connection.getresponse().read()


def frames(path):
    """Records of (seconds: float64, length: uint32, text), native order, for bare_writer.c."""
    out = sys.stdout.buffer
    for message in load(path):
        text = message["text"].encode()
        out.write(struct.pack("=dI", message["t"], len(text)) + text)


if __name__ == "__main__":
    if sys.argv[1:2] == ["capture"]:
        asyncio.run(capture(sys.argv[2], float(sys.argv[3])))
    elif sys.argv[1:2] == ["replay-http"]:
        replay_http(sys.argv[2], sys.argv[3])
    elif sys.argv[1:2] == ["frames"]:
        frames(sys.argv[2])
    elif sys.argv[1:2] == ["replay"]:
        replay(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "sise.board")
    else:
        sys.exit(__doc__)
