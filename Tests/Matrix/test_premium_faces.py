"""The premium: face × exchange × global venue × FX source, one row each (issue "the premium,
everywhere and over time").

One `sise simulate`, and one `sise serve` per FX source (`--fx upbit-usdt | dunamu | eximbank`).
For each source the faces are read once — `sise premium --matrix BTC --json` (the one-shot CLI),
`GET /api/premium/matrix` (what the page's 김프 tab and the TUI's matrix draw), and the board row
`GET /api/markets/KRW-BTC?exchange=&venue=` (the 김프 column, what `/ws` sends) — and every
(exchange, venue) cell must agree across them: the same rate source, a figure on every face or on
none, and the same figure within the simulator's walk between the reads.
"""
import json
import shutil
import subprocess
import tempfile
import time
import urllib.request

import pytest

from matrix_rig import exchange_ids, simulator_flags, sise_binary, start

EXCHANGES = exchange_ids()
VENUES = ["binance", "okx", "bybit"]
FX_SOURCES = ["upbit-usdt", "dunamu", "eximbank"]
# The simulator's prices walk between the reads (a few hundredths of a percent a second).
WALK = 0.004


def get(url):
    with urllib.request.urlopen(url, timeout=20) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def faces():
    simulator, sim = start("simulate", "--port", "0")
    flags = simulator_flags(sim) + ["--binance-url", sim + "/binance", "--coingecko-url", sim + "/api/v3", "--okx-url", sim + "/okx",
                                    "--bybit-url", sim + "/bybit", "--dunamu-url", sim + "/dunamu", "--exim-url", sim + "/koreaexim",
                                    "--exim-key", "matrix-test-key"]
    data = tempfile.mkdtemp(prefix="sise-premium-faces-")
    servers = {fx: start("serve", "--port", "0", "--data-dir", f"{data}/{fx}", "--fx", fx, *flags) for fx in FX_SOURCES}
    read = {}

    def faces_of(fx):
        """Each face's cells of BTC for one FX source: {face: {(exchange, venue): (fx source, premium)}}."""
        if fx in read:
            return read[fx]
        serve = servers[fx][1]
        # Wait until the server's matrix has its rate and a live cell everywhere (a loaded machine
        # lets a cell's legs drift apart for a moment).
        deadline = time.monotonic() + 40
        while True:
            table = get(f"{serve}/api/premium/matrix?symbols=BTC")
            cells = table["rows"][0]["cells"] if table["rows"] else {}
            if table["fx"] and all(cells.get(e, {}).get(v, {}).get("state") == "live" for e in EXCHANGES for v in VENUES):
                break
            assert time.monotonic() < deadline, f"{fx}: the server's matrix never went live: {json.dumps(table)[:600]}"
            time.sleep(0.3)
        # The one-shot reads every leg itself: on a loaded machine its legs may drift apart for a
        # moment too (a cell then says so, with no figure) — it is asked again, as a person would.
        while True:
            done = subprocess.run([sise_binary(), "premium", "--matrix", "BTC", "--json", "--fx", fx, *flags], capture_output=True, text=True,
                                  timeout=60, env={"PATH": "/usr/bin:/bin", "HOME": data, "SISE_DATA_DIR": f"{data}/cli"})
            assert done.returncode == 0, done.stderr
            assert "matrix-test-key" not in done.stdout + done.stderr, "the key is never printed"
            one_shot = json.loads(done.stdout)
            shot = one_shot["rows"][0]["cells"] if one_shot["rows"] else {}
            if all(shot.get(e, {}).get(v, {}).get("premium") is not None for e in EXCHANGES for v in VENUES) or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        result = {"cli": {}, "api": {}, "board": {}}
        for name, answer in (("cli", one_shot), ("api", table)):
            source = answer["fx"]["source"] if answer["fx"] else None
            for exchange in EXCHANGES:
                for venue in VENUES:
                    result[name][(exchange, venue)] = (source, answer["rows"][0]["cells"][exchange][venue]["premium"])
        status = get(f"{serve}/api/premium?symbols=BTC")
        for exchange in EXCHANGES:
            for venue in VENUES:
                row = get(f"{serve}/api/markets/KRW-BTC?exchange={exchange}&venue={venue}")
                result["board"][(exchange, venue)] = (status["fx"]["source"] if status["fx"] else None, row["premium"])
        read[fx] = result
        return result

    faces_of.servers = servers
    yield faces_of
    for process, _ in servers.values():
        process.terminate()
        process.wait(10)
    simulator.terminate()
    simulator.wait(10)
    shutil.rmtree(data, ignore_errors=True)


@pytest.mark.parametrize("venue", VENUES)
@pytest.mark.parametrize("exchange", EXCHANGES)
@pytest.mark.parametrize("fx", FX_SOURCES)
def test_every_face_shows_the_same_premium(faces, fx, exchange, venue):
    read = faces(fx)
    answers = {face: read[face][(exchange, venue)] for face in ("cli", "api", "board")}
    sources = {source for source, _ in answers.values()}
    assert sources == {fx}, f"{fx} × {exchange} × {venue}: the rate's source on each face {answers}"
    figures = [premium for _, premium in answers.values()]
    assert all(figure is not None for figure in figures), f"{fx} × {exchange} × {venue}: a figure on every face {answers}"
    assert max(figures) - min(figures) < WALK, f"{fx} × {exchange} × {venue}: {answers}"


@pytest.mark.parametrize("exchange", EXCHANGES)
def test_the_board_has_a_figure_where_the_matrix_has_one(faces, exchange):
    """A coin Binance does not list has no Binance cell in the matrix; the board's 김프 column
    against Binance (what /ws sends, its sort, the bar) has no figure for it either — CoinGecko's
    price stands in only where a row names it (`globalSource` in the premium table)."""
    serve = faces.servers[FX_SOURCES[0]][1]
    faces(FX_SOURCES[0])  # the server is live
    matrix = get(f"{serve}/api/premium/matrix?venue=binance&exchange={exchange}")
    missing = {row["symbol"] for row in matrix["rows"] if row["cells"][exchange]["binance"]["state"] == "missing"}
    board = get(f"{serve}/api/markets?exchange={exchange}&venue=binance&quote=KRW")
    listed = {row["symbol"]: row for row in board if row["market"].startswith("KRW-") and row["symbol"] != "USDT"}
    unlisted = missing & set(listed)
    assert unlisted, f"{exchange}: the simulator lists every coin on Binance, so nothing here is tested"
    shown = {symbol: listed[symbol]["premium"] for symbol in unlisted if listed[symbol]["premium"] is not None}
    assert not shown, f"{exchange}: a 김프 against Binance for coins Binance does not list: {shown}"
    table = get(f"{serve}/api/premium?exchange={exchange}&venue=binance")
    sources = {row["symbol"]: row["globalSource"] for row in table["rows"] if row["symbol"] in unlisted and row["premium"] is not None}
    # (CoinGecko prices some of them: what the board showed as Binance's before.)
    assert sources and set(sources.values()) == {"coingecko"}, f"{exchange}: a stand-in row names its source: {sources}"
