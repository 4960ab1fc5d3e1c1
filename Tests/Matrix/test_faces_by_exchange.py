"""Every face that shows live prices × every exchange, one row each (ARCHITECTURE, habit 12).

Against one `sise simulate` and one `sise serve` pointed at it: the face shows the exchange's
KRW-BTC; a price set through the simulator's control API (`POST /_sim/price`) reaches the face
within 2 s; then the exchange's WebSocket is refused (and the open one dropped) and a new price
still reaches the face within 3 s, by REST. Adding a face or an exchange adds a row here.
"""
import json
import os
import shutil as _shutil
import pathlib
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.request

import pytest
import websocket  # websocket-client

from matrix_rig import ROOT, exchange_ids, simulator_flags, sise_binary, start  # noqa: F401

EXCHANGES = exchange_ids()


def post(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status


@pytest.fixture(scope="module")
def rig():
    simulator, sim_url = start("simulate", "--port", "0")
    flags = simulator_flags(sim_url)
    data = tempfile.mkdtemp(prefix="sise-matrix-")
    server, serve_url = start("serve", "--port", "0", "--data-dir", data, *flags)
    yield {"sim": sim_url, "serve": serve_url, "flags": flags}
    for process in (server, simulator):
        process.terminate()
        process.wait(10)
    shutil.rmtree(data, ignore_errors=True)


def row_price(row):
    return row.get("price") if isinstance(row, dict) and row.get("market") == "KRW-BTC" else None


class Streamed:
    """A face that streams: a reader thread keeps the latest KRW-BTC price it showed."""

    def __init__(self):
        self.latest = None
        self.stopped = False

    def price(self):
        return self.latest


class WatchFace(Streamed):
    name = "watch"

    def __init__(self, rig, exchange):
        super().__init__()
        self.process = subprocess.Popen([sise_binary(), "watch", "KRW-BTC", "--exchange", exchange, "--json", *rig["flags"]],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.process.stdout:
            message = json.loads(line)
            if message.get("type") == "ticker" and row_price(message) is not None:
                self.latest = message["price"]

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


class SocketFace(Streamed):
    name = "/ws"

    def __init__(self, rig, exchange):
        super().__init__()
        self.socket = websocket.create_connection(rig["serve"].replace("http", "ws") + "/ws", timeout=10)
        self.socket.send(json.dumps({"type": "view", "exchange": exchange, "quote": "KRW", "sort": "value", "order": "none", "q": ""}))
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        while not self.stopped:
            try:
                message = json.loads(self.socket.recv())
            except Exception:
                return
            for row in message.get("rows", []) if isinstance(message, dict) else []:
                if row_price(row) is not None:
                    self.latest = row["price"]

    def stop(self):
        self.stopped = True
        self.socket.close()


class Asked:
    """A face asked again each time (a one-shot command, a REST request)."""

    def stop(self):
        pass


class APIFace(Asked):
    name = "/api/markets"

    def __init__(self, rig, exchange):
        self.url = f"{rig['serve']}/api/markets/KRW-BTC?exchange={exchange}"

    def price(self):
        try:
            with urllib.request.urlopen(self.url, timeout=5) as response:
                return row_price(json.loads(response.read()))
        except OSError:
            return None


class CommandFace(Asked):
    def __init__(self, rig, exchange):
        self.args = [sise_binary(), *self.command, "--exchange", exchange, "--json", *rig["flags"]]

    def price(self):
        run = subprocess.run(self.args, capture_output=True, text=True, timeout=30)
        text = run.stdout.strip()
        try:
            rows = json.loads(text)
        except json.JSONDecodeError:
            rows = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
        rows = rows if isinstance(rows, list) else [rows]
        return next((row_price(row) for row in rows if row_price(row) is not None), None)


class MarketsFace(CommandFace):
    name = "markets"
    command = ["markets"]


class PriceFace(CommandFace):
    name = "price"
    command = ["price", "BTC"]


class Screen:
    """A face read as text: it shows a price when KRW-BTC's line has it, formatted."""

    def shows(self, price):
        line = self.line()
        return line is not None and f"{price:,}" in line

    def price(self):
        return self.line()


class TUIFace(Screen):
    name = "tui"

    def __init__(self, rig, exchange):
        self.session = f"sise-matrix-{os.getpid()}-{exchange}"
        # A tmux server of its own: tests side by side never share one (one ending its last
        # session used to take down another's as it started).
        self.tmux = ["tmux", "-L", self.session]
        command = " ".join([sise_binary(), "tui", "--exchange", exchange, "--lang", "en", *rig["flags"]])
        subprocess.run([*self.tmux, "new-session", "-d", "-s", self.session, "-x", "140", "-y", "40", command], check=True)

    def line(self):
        screen = subprocess.run([*self.tmux, "capture-pane", "-p", "-t", self.session], capture_output=True, text=True).stdout
        return next((line for line in screen.splitlines() if "Bitcoin" in line and "BTC/KRW" not in line[:0] and "," in line), None)

    def stop(self):
        subprocess.run([*self.tmux, "kill-server"], check=False)
        # tmux leaves its socket file behind: the private server's is ours to remove.
        socket = os.path.join(os.environ.get("TMUX_TMPDIR", "/tmp"), f"tmux-{os.getuid()}", self.session)
        if os.path.exists(socket):
            os.unlink(socket)


class PageFace(Screen):
    name = "page"

    def __init__(self, rig, exchange):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=390,844"):
            options.add_argument(argument)
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        # Reduced motion, as the browser suite's pages: no fading flash repainted every frame.
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        self.by = By
        self.exchange = exchange
        self.driver.get(rig["serve"])
        # The exchange switch, as a user taps it.
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            buttons = self.driver.find_elements(By.CSS_SELECTOR, f'[data-exchange="{exchange}"]:not(tr)')
            if buttons and buttons[0].is_displayed():
                buttons[0].click()
                break
            time.sleep(0.1)

    def line(self):
        rows = self.driver.find_elements(self.by.CSS_SELECTOR, f'tr[data-market="KRW-BTC"][data-exchange="{self.exchange}"]')
        try:
            return rows[0].text if rows else None
        except Exception:
            return None

    def stop(self):
        self.driver.quit()


FACES = [WatchFace, SocketFace, APIFace, MarketsFace, PriceFace]
if _shutil.which("tmux"):
    FACES.append(TUIFace)
if os.path.exists("/usr/bin/chromium") and os.path.exists("/usr/bin/chromedriver"):
    FACES.append(PageFace)


def shows(face, price, within):
    """How long the face took to show `price` (None when it did not within `within` seconds)."""
    began = time.monotonic()
    while time.monotonic() - began < within:
        if face.shows(price) if isinstance(face, Screen) else face.price() == price:
            return time.monotonic() - began
        time.sleep(0.05)
    return None


@pytest.mark.parametrize("exchange", EXCHANGES)
@pytest.mark.parametrize("face_type", FACES, ids=[f.name for f in FACES])
def test_a_price_move_reaches_the_face(rig, face_type, exchange):
    sim = rig["sim"]
    post(f"{sim}/_sim/reset?exchange={exchange}", {})
    face = face_type(rig, exchange)
    try:
        deadline = time.monotonic() + 20
        while face.price() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert face.price() is not None, f"{face_type.name} × {exchange}: no KRW-BTC row"
        # Unique prices per row, on KRW-BTC's 1,000-won tick.
        base = 100_000_000 + 1_000_000 * EXCHANGES.index(exchange) + 10_000 * FACES.index(face_type)
        assert post(f"{sim}/_sim/price?exchange={exchange}", {"market": "KRW-BTC", "price": base + 1_000}) == 200
        took = shows(face, base + 1_000, within=2)
        assert took is not None, f"{face_type.name} × {exchange}: the move did not show within 2 s (shows {face.price()})"
        post(f"{sim}/_sim/faults?exchange={exchange}", {"wsRefuse": True, "wsDropNow": True})
        assert post(f"{sim}/_sim/price?exchange={exchange}", {"market": "KRW-BTC", "price": base + 2_000}) == 200
        took = shows(face, base + 2_000, within=3)
        assert took is not None, f"{face_type.name} × {exchange}: with the WebSocket refused, no update by REST within 3 s (shows {face.price()})"
    finally:
        face.stop()
        post(f"{sim}/_sim/reset?exchange={exchange}", {})
