"""A TCP fault proxy for Sise's fault tests: sits between a client and an upstream on loopback
and breaks the path below HTTP, the way real networks break it.

Modes, switchable at any time from the same asyncio loop:
  pass     bytes flow both ways
  stall    every connection (open or new) stays open but no byte moves either way; bytes wait
           and flow again on resume, as on a frozen network path
  refuse   new connections are accepted and closed at once (a closed port behind a NAT)
  latency  every chunk is held `latency` seconds before it is forwarded
and `drop()` closes every open connection now (both sides).
"""

import asyncio


class FaultProxy:
    def __init__(self, upstream_host, upstream_port):
        self.upstream = (upstream_host, upstream_port)
        self.mode = "pass"
        self.latency = 0.0
        self.flowing = asyncio.Event()
        self.flowing.set()
        self.connections = set()
        self.accepted = 0
        self.server = None
        self.port = None

    async def start(self, port=0):
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", port)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def stop(self):
        self.drop()
        if self.server:
            self.server.close()

    def set_pass(self):
        self.mode, self.latency = "pass", 0.0
        self.flowing.set()

    def stall(self):
        self.mode = "stall"
        self.flowing.clear()

    def refuse(self):
        self.mode = "refuse"
        self.flowing.set()

    def delay(self, seconds):
        self.mode, self.latency = "latency", seconds
        self.flowing.set()

    def drop(self):
        for writer in list(self.connections):
            try:
                writer.transport.abort()
            except Exception:
                pass
        self.connections.clear()

    async def _serve(self, client_reader, client_writer):
        self.accepted += 1
        if self.mode == "refuse":
            client_writer.transport.abort()
            return
        await self.flowing.wait()
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            client_writer.transport.abort()
            return
        self.connections.update([client_writer, up_writer])
        await asyncio.gather(self._pipe(client_reader, up_writer), self._pipe(up_reader, client_writer),
                             return_exceptions=True)
        for writer in (client_writer, up_writer):
            self.connections.discard(writer)
            try:
                writer.transport.abort()
            except Exception:
                pass

    async def _pipe(self, reader, writer):
        """Reads as fast as bytes come; a second task forwards each chunk `latency` seconds
        after it arrived, and nothing at all while stalled."""
        loop = asyncio.get_running_loop()
        queue = asyncio.Queue()

        async def forward():
            while True:
                arrived, chunk = await queue.get()
                if chunk is None:
                    return
                await self.flowing.wait()
                due = arrived + self.latency - loop.time()
                if due > 0:
                    await asyncio.sleep(due)
                    await self.flowing.wait()
                writer.write(chunk)
                await writer.drain()

        sender = asyncio.ensure_future(forward())
        try:
            while True:
                chunk = await reader.read(65536)
                if not chunk:
                    break
                queue.put_nowait((loop.time(), chunk))
            queue.put_nowait((loop.time(), None))
            await sender
        except (ConnectionError, OSError, asyncio.CancelledError):
            pass
        finally:
            sender.cancel()
            try:
                writer.transport.abort()
            except Exception:
                pass
