"""Every feature × exchange × face × language, one row each (issue "the same answer on every face").

Against one `sise simulate` and one `sise serve` pointed at it, each row crosses a feature —
premium, coin detail and its chart ranges, candles, alert validation and texts, unknown and
stopped markets, a quote the exchange lacks — with an exchange and the faces that show it (the
CLI's one-shots and `watch`, the HTTP API), and asserts that the faces agree with each other:
the same premium for the same market at the same moment, the same refusal with the documented
exit code / HTTP status (docs/errors.md), words in the asked language. A new face, exchange or
feature adds rows here.
"""
import json
import re
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest

from matrix_rig import exchange_ids, registry, simulator_flags, sise_binary, start

EXCHANGES = exchange_ids()
NAMES = {entry["id"]: entry["name"] for entry in registry()}
HANGUL = re.compile(r"[\uac00-\ud7a3\u3131-\u318e]")


@pytest.fixture(scope="module")
def rig():
    simulator, sim = start("simulate", "--port", "0")
    venues = simulator_flags(sim)
    premium = ["--binance-url", sim + "/binance", "--coingecko-url", sim + "/api/v3", "--okx-url", sim + "/okx", "--bybit-url", sim + "/bybit",
               "--dunamu-url", sim + "/dunamu"]
    data = tempfile.mkdtemp(prefix="sise-features-")
    server, serve = start("serve", "--port", "0", "--data-dir", data, *venues, *premium)
    yield {"sim": sim, "serve": serve, "venues": venues, "premium": premium, "gecko": premium[2:4], "data": data}
    for process in (server, simulator):
        process.terminate()
        process.wait(10)
    shutil.rmtree(data, ignore_errors=True)


def cli(rig, *args, lang="en", premium=False, gecko=False, timeout=60):
    """`sise ARGS` against the simulator (and its Binance and CoinGecko): (exit code, stdout, stderr)."""
    flags = rig["venues"] + (rig["premium"] if premium else rig["gecko"] if gecko else []) + ["--lang", lang]
    done = subprocess.run([sise_binary(), *args, *flags], capture_output=True, text=True, timeout=timeout,
                          env={"PATH": "/usr/bin:/bin", "HOME": rig["data"], "SISE_DATA_DIR": rig["data"] + "/cli"})
    return done.returncode, done.stdout, done.stderr


def api(rig, path, body=None, method=None, lang="en"):
    """(status, JSON) of the server's API; a state change as the page makes it (CSRF echo)."""
    headers = {"Accept-Language": lang, "Content-Type": "application/json"}
    # One browser for the whole module: its device owns the alerts it adds and reads back.
    jar = rig.setdefault("jar", {})
    if not jar:
        with urllib.request.urlopen(rig["serve"] + "/api/favorites", timeout=10) as response:
            for value in response.headers.get_all("Set-Cookie"):
                key, _, rest = value.split(";", 1)[0].partition("=")
                jar[key] = rest
    headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in jar.items())
    headers["X-CSRF-Token"] = jar.get("sise_csrf", "")
    request = urllib.request.Request(rig["serve"] + path, data=None if body is None else json.dumps(body).encode(), headers=headers,
                                     method=method or ("POST" if body is not None else "GET"))
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def wait_api(rig, path, ready, seconds=20):
    deadline = time.monotonic() + seconds
    while True:
        status, body = api(rig, path)
        if ready(status, body) or time.monotonic() > deadline:
            return status, body
        time.sleep(0.2)


# -- The kimchi premium: one per market per moment, on every face --------------------------------

@pytest.mark.parametrize("exchange", EXCHANGES)
def test_premium_is_the_same_on_the_cli_the_stream_and_the_api(rig, exchange):
    status, row = wait_api(rig, f"/api/markets/KRW-BTC?exchange={exchange}", lambda s, b: s == 200 and b.get("premium") is not None)
    assert status == 200 and row["premium"] is not None, row
    code, out, err = cli(rig, "price", "BTC", "--exchange", exchange, "--json", premium=True)
    assert code == 0, err
    one_shot = json.loads(out)[0]["premium"]
    code, out, err = cli(rig, "watch", "KRW-BTC", "--exchange", exchange, "--json", "--count", "3", "--duration", "20", premium=True)
    streamed = [line["premium"] for line in map(json.loads, out.splitlines()) if line.get("type") == "ticker"]
    assert streamed and streamed[-1] is not None, (code, err, out[-400:])
    _, again = api(rig, f"/api/markets/KRW-BTC?exchange={exchange}")
    # The simulator's prices walk between the reads: the faces agree within that walk.
    for value in (one_shot, streamed[-1]):
        assert value is not None and abs(value - again["premium"]) < 0.004, (exchange, one_shot, streamed[-1], again["premium"])


GLOBAL_VENUES = ["binance", "okx", "bybit"]


@pytest.mark.parametrize("exchange", EXCHANGES)
@pytest.mark.parametrize("venue", GLOBAL_VENUES)
def test_a_matrix_cell_is_the_same_on_the_cli_and_the_api(rig, exchange, venue):
    """The premium matrix's cell of BTC on this exchange against this venue: the same state on
    `sise premium --matrix --json` and `GET /api/premium/matrix`, and the same figure within the
    simulator's walk between the reads."""
    path = f"/api/premium/matrix?venue={venue}&exchange={exchange}&symbols=BTC"
    # A cell is stale for a moment when its legs drift apart on a loaded machine: wait for a live one.
    status, table = wait_api(rig, path, lambda s, b: s == 200 and b["rows"] and b["rows"][0]["cells"][exchange][venue]["state"] == "live"
                             and b["fx"] is not None, seconds=30)
    assert status == 200, table
    served = table["rows"][0]["cells"][exchange][venue]
    code, out, err = cli(rig, "premium", "--matrix", "--venue", venue, "BTC", "--json", premium=True)
    assert code == 0, err
    cell = json.loads(out)["rows"][0]["cells"][exchange][venue]
    assert cell["state"] == served["state"] == "live", (exchange, venue, cell, served)
    assert abs(cell["premium"] - served["premium"]) < 0.004, (exchange, venue, cell, served)


@pytest.mark.parametrize("exchange", EXCHANGES)
def test_the_tether_premium_is_the_same_on_the_cli_and_the_api(rig, exchange):
    """테더 김프 of this exchange against the official rate, on `sise premium USDT --json` and
    `GET /api/premium/usdt`: the same rate source, the same state, the figure within the walk."""
    status, table = wait_api(rig, f"/api/premium/usdt?exchange={exchange}", lambda s, b: s == 200 and b["official"] is not None, seconds=30)
    assert status == 200 and table["official"]["source"] == "dunamu", table
    served = table["rows"][0]
    code, out, err = cli(rig, "premium", "USDT", "--json", premium=True)
    assert code == 0, err
    answered = json.loads(out)
    row = next(r for r in answered["rows"] if r["exchange"] == exchange)
    assert answered["official"]["source"] == table["official"]["source"]
    assert row["state"] == served["state"], (exchange, row, served)
    if row["premium"] is not None:
        assert abs(row["premium"] - served["premium"]) < 0.004, (exchange, row, served)


def test_compare_has_the_apis_premiums_and_refuses_an_unknown_symbol(rig):
    code, out, err = cli(rig, "compare", "BTC", "--json", premium=True)
    assert code == 0, err
    row = json.loads(out)[0]
    assert row["global"] is not None and all(row["premiums"][e] is not None for e in EXCHANGES), row
    status, rows = wait_api(rig, "/api/compare?symbols=BTC", lambda s, b: s == 200 and b and b[0].get("global"))
    assert status == 200 and abs(rows[0]["premiums"]["upbit"] - row["premiums"]["upbit"]) < 0.004
    code, _, err = cli(rig, "compare", "NOPE", premium=True)
    assert code == 2 and "unknown symbol" in err, err


# -- Coin detail, chart ranges and candles from what each exchange has ---------------------------

@pytest.mark.parametrize("exchange", EXCHANGES)
@pytest.mark.parametrize("chart", ["1d", "7d", "1y"])
def test_coin_detail_and_its_chart_on_the_cli_and_the_api(rig, exchange, chart):
    code, out, err = cli(rig, "coin", "BTC", "--exchange", exchange, "--range", chart, "--json", gecko=True)
    assert code == 0, err
    detail = json.loads(out)
    status, served = wait_api(rig, f"/api/coins/KRW-BTC?exchange={exchange}&range={chart}", lambda s, b: s == 200)
    assert status == 200, served
    for face, body in (("cli", detail), ("api", served)):
        assert len(body["points"]) >= 2, (face, exchange, chart)
        assert body["allTimeHigh"] and body["allTimeLow"] and body["display"]["ath"] != "-", (face, exchange, "52-week figures")
        assert body["quote"] == "KRW" and body["source"] == exchange


@pytest.mark.parametrize("exchange,market,quote", [("upbit", "BTC-ETH", "BTC"), ("upbit", "USDT-BTC", "USDT"), ("bithumb", "BTC-ETH", "BTC")])
def test_a_market_is_shown_in_its_own_quote(rig, exchange, market, quote):
    code, out, err = cli(rig, "coin", market, "--exchange", exchange, gecko=True)
    assert code == 0 and f" {quote} " in out.splitlines()[0] and "KRW" not in out, out
    status, detail = wait_api(rig, f"/api/coins/{market}?exchange={exchange}", lambda s, b: s == 200)
    assert status == 200 and detail["quote"] == quote and "₩" not in json.dumps(detail["display"], ensure_ascii=False), detail


@pytest.mark.parametrize("exchange", EXCHANGES)
def test_candles_on_the_cli_and_the_api(rig, exchange):
    code, out, err = cli(rig, "candles", "BTC", "--exchange", exchange, "--interval", "1h", "--count", "3", "--json")
    assert code == 0 and len(json.loads(out)) == 3, err
    status, body = wait_api(rig, f"/api/candles/KRW-BTC?exchange={exchange}&interval=1h&count=3", lambda s, b: s == 200)
    assert status == 200 and len(body["candles"] if isinstance(body, dict) else body) == 3, body


# -- Refusals: the same on every face, with the documented code --------------------------------

REFUSALS = [
    # (exchange, market, CLI exit, HTTP status, words in English)
    ("upbit", "KRW-NOPE", 2, 404, "unknown symbol"),
    ("korbit", "KRW-NOPE", 2, 404, "unknown symbol"),
    ("bithumb", "KRW-NOPE", 2, 404, "unknown symbol"),
    ("korbit", "KRW-ANKR", 2, 404, "unknown symbol"),  # a pair Korbit has stopped
    ("korbit", "BTC-ETH", 2, 400, "Korbit has no BTC market (it has KRW)"),
    ("korbit", "USDT-BTC", 2, 400, "Korbit has no USDT market (it has KRW)"),
    ("bithumb", "USDT-BTC", 2, 400, "Bithumb has no USDT market (it has KRW, BTC)"),
    ("coinone", "KRW-NOPE", 2, 404, "unknown symbol"),
    ("coinone", "BTC-ETH", 2, 400, "Coinone has no BTC market (it has KRW)"),
]


@pytest.mark.parametrize("exchange,market,exit_code,http,words", REFUSALS)
@pytest.mark.parametrize("face", ["price", "candles", "orderbook", "trades", "alerts add", "api market", "api candles", "api orderbook",
                                  "api trades", "api alerts"])
def test_a_market_the_exchange_lacks_is_refused_alike(rig, exchange, market, exit_code, http, words, face):
    if face == "price" and http == 400:
        pytest.skip("`price` names markets of every quote the exchange has; a quote it lacks reads as an unknown symbol")
    if face.startswith("api"):
        wait_api(rig, f"/api/markets?exchange={exchange}", lambda s, b: s == 200 and len(b) > 0)
        status, body = {
            "api market": lambda: api(rig, f"/api/markets/{market}?exchange={exchange}"),
            "api candles": lambda: api(rig, f"/api/candles/{market}?exchange={exchange}"),
            "api orderbook": lambda: api(rig, f"/api/orderbook/{market}?exchange={exchange}"),
            "api trades": lambda: api(rig, f"/api/trades/{market}?exchange={exchange}"),
            "api alerts": lambda: api(rig, "/api/alerts", {"exchange": exchange, "market": market, "type": "above", "price": "1"}),
        }[face]()
        assert status == http and words in body["error"]["message"], (face, status, body)
        return
    args = {"price": ["price", market], "candles": ["candles", market], "orderbook": ["orderbook", market], "trades": ["trades", market],
            "alerts add": ["alerts", "add", market, "above", "1"]}[face]
    code, _, err = cli(rig, *args, "--exchange", exchange)
    assert code == exit_code and words in err, (face, code, err)


@pytest.mark.parametrize("exchange,quote", [("korbit", "BTC"), ("korbit", "USDT"), ("bithumb", "USDT"), ("coinone", "USDT")])
def test_a_board_of_a_quote_the_exchange_lacks(rig, exchange, quote):
    code, _, err = cli(rig, "markets", "--exchange", exchange, "--quote", quote)
    status, body = api(rig, f"/api/markets?exchange={exchange}&quote={quote}")
    words = f"{NAMES[exchange]} has no {quote} market"
    assert code == 2 and words in err, err
    assert status == 400 and words in body["error"]["message"], body


# -- Languages: every refusal in the asked language ---------------------------------------------

USAGE = [
    ("markets", "--exchange", "korbit", "--quote", "BTC"),
    ("alerts", "add", "BTC-ETH", "premium-above", "3"),
    ("portfolio", "add", "buy", "BTC-ETH", "1", "--price", "1"),
    ("candles", "KRW-NOPE"),
    ("markets", "--quote", "BTC", "--sort", "premium"),
]


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("args", USAGE, ids=[" ".join(a[:3]) for a in USAGE])
def test_usage_errors_speak_the_users_language(rig, lang, args):
    code, _, err = cli(rig, *args, lang=lang)
    assert code == 2, err
    message = err.strip()
    if lang == "en":
        assert not HANGUL.search(message), message
    else:
        assert HANGUL.search(message), message


# -- Alert texts name their exchange ------------------------------------------------------------

@pytest.mark.parametrize("exchange", EXCHANGES)
def test_an_alert_firing_names_its_exchange(rig, exchange):
    wait_api(rig, f"/api/markets?exchange={exchange}", lambda s, b: s == 200 and len(b) > 0)
    status, rule = api(rig, "/api/alerts", {"exchange": exchange, "market": "KRW-ETH", "type": "above", "price": "1"})
    assert status == 201, rule
    deadline = time.monotonic() + 15
    fired = None
    while time.monotonic() < deadline and not fired:
        _, history = api(rig, "/api/alerts/history")
        fired = next((f for f in history["history"] if f["alertId"] == rule["id"]), None)
        time.sleep(0.2)
    assert fired, "the rule never fired"
    assert fired["exchange"] == exchange and fired["message"]["en"].startswith(NAMES[exchange] + " KRW-ETH"), fired
    assert fired["message"]["ko"].startswith(NAMES[exchange] + " KRW-ETH"), fired


# -- 호가 and 체결 on every exchange and quote, CLI and API alike --------------------------------------

@pytest.mark.parametrize("exchange,market", [("upbit", "KRW-BTC"), ("korbit", "KRW-BTC"), ("bithumb", "KRW-BTC"), ("coinone", "KRW-BTC"),
                                             ("upbit", "BTC-ETH"), ("upbit", "USDT-BTC"), ("bithumb", "BTC-ETH")])
def test_the_book_and_the_tape_on_the_cli_and_the_api(rig, exchange, market):
    code, out, err = cli(rig, "orderbook", market, "--exchange", exchange, "--levels", "5", "--json")
    assert code == 0, err
    status, served = wait_api(rig, f"/api/orderbook/{market}?exchange={exchange}&levels=5", lambda s, b: s == 200)
    assert status == 200, served
    for face, book in (("cli", json.loads(out)), ("api", served)):
        asks = [float(level["price"]) for level in book["asks"]]
        bids = [float(level["price"]) for level in book["bids"]]
        assert len(asks) == 5 and asks == sorted(asks) and bids == sorted(bids, reverse=True) and bids[0] < asks[0], (face, book)
        assert book["exchange"] == exchange and book["market"] == market
    code, out, err = cli(rig, "trades", market, "--exchange", exchange, "--count", "5", "--json")
    status, tape = wait_api(rig, f"/api/trades/{market}?exchange={exchange}&count=5", lambda s, b: s == 200)
    assert code == 0 and status == 200, (err, tape)
    for face, trades in (("cli", json.loads(out)), ("api", tape)):
        assert len(trades) == 5 and len({t["id"] for t in trades}) == 5 and all(t["side"] in ("buy", "sell") for t in trades), face
