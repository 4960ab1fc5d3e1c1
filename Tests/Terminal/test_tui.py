"""`sise tui --demo` end to end under tmux: keys in with send-keys, the screen out with capture-pane."""
import json
import os
import re
import pathlib
import shutil
import subprocess
import tempfile
import time
import uuid

import pytest

from tmux_pane import Pane

ROOT = pathlib.Path(__file__).resolve().parents[2]
SISE = os.environ.get("SISE_BIN", str(ROOT / ".build" / "debug" / "sise"))

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


@pytest.fixture
def pane():
    p = Pane()
    yield p
    p.close()


def board_rows(screen: str):
    return [line for line in screen.splitlines()[2:-1] if "/" not in line and line.strip()]


def start(pane, data_dir):
    pane.send(f"{SISE} tui --demo --data-dir {data_dir}; echo EXITED $?", "Enter")
    return pane.wait(lambda s: "비트코인" in s and "실시간" in s, what="the live board")


def test_board_sort_search_favorite_resize_and_restore(pane):
    with tempfile.TemporaryDirectory() as data_dir:
        screen = start(pane, data_dir)
        assert "DEMO" in screen
        # 3 sorts by change (descending), again reverses it.
        pane.send("3")
        pane.wait(lambda s: "전일대비▼" in s, what="change descending")
        pane.send("3")
        pane.wait(lambda s: "전일대비▲" in s, what="change ascending")
        pane.send("3")
        pane.wait(lambda s: "▲" not in s and "▼" not in s, what="sort back to none")
        # / then ㅂㅌ leaves 비트코인.
        pane.send("/")
        pane.send("ㅂㅌ", literal=True)
        # The prompt is drawn as the key comes; the rows once the board's view of the search is
        # back (a frame later under load).
        pane.wait(lambda s: "검색: ㅂㅌ" in s and "비트코인" in s and "이더리움" not in s, what="비트코인 alone under the search prompt")
        pane.send("Escape")
        pane.wait(lambda s: "이더리움" in s, what="search cleared")
        # 2 sorts by price, highest first: 비트코인 on top whatever the simulated day's trade
        # values are (by trade value 이더리움 leads at some hours).
        pane.send("2")
        pane.wait(lambda s: "현재가▼" in s and s.splitlines()[2].find("비트코인") >= 0, what="price descending, 비트코인 first")
        # f marks the selected row (the top one, 비트코인) as a favorite.
        pane.send("f")
        pane.wait(lambda s: "★" in s and "관심 종목에 추가했습니다" in s, what="a favorite")
        # Enter opens the detail with a braille chart; t shows CoinGecko trending.
        pane.send("Enter")
        pane.wait(lambda s: "52주 최고" in s and any(0x2801 <= ord(c) <= 0x28FF for c in s), what="detail with a chart")
        pane.send("Escape")
        pane.send("t")
        # The title can be drawn before the rows arrive (or over the detail's last lines): wait for the ranked rows.
        pane.wait(lambda s: "트렌딩 코인" in s and sum(1 for line in s.splitlines() if line.strip()[:2].strip().isdigit()) >= 10,
                  what="trending with its ranked rows")
        pane.send("Escape")
        pane.wait(lambda s: "한글명" in s, what="back to the board")
        # Resizing reflows the table.
        pane.resize(70, 20)
        pane.wait(lambda s: max(len(line) for line in s.splitlines()) <= 70 and "비트코인" in s
                  and "대비금액" not in s, what="the narrow layout")
        pane.resize(120, 30)
        pane.wait(lambda s: "대비금액" in s, what="the wide layout")
        # q exits and the terminal is cooked again, with echo.
        pane.send("q")
        pane.wait(lambda s: "EXITED 0" in s, what="a clean exit")
        pane.send("stty -a | tr ' ' '\\n' | grep -E '^-?(echo|icanon)$' | tr '\\n' ' '; echo", "Enter")
        screen = pane.wait(lambda s: "icanon" in s.split("EXITED 0", 1)[-1], what="stty output")
        tail = screen.split("EXITED 0", 1)[-1]
        assert "-echo " not in tail and "-icanon" not in tail
        # The favorite survives a restart.
        pane.send("clear", "Enter")
        start(pane, data_dir)
        pane.send("F")
        # Waited for as a whole: a capture can land while a frame is half written.
        screen = pane.wait(lambda s: "[관심]" in s and "★" in s and "이더리움" not in s, what="the favorites view")
        assert "비트코인" in screen
        pane.send("q")
        pane.wait(lambda s: "EXITED 0" in s, what="a clean exit")


def test_sigterm_restores_the_terminal(pane):
    with tempfile.TemporaryDirectory() as data_dir:
        start(pane, data_dir)
        subprocess.run(["pkill", "-TERM", "-f", f"tui --demo --data-dir {data_dir}"], check=False)
        pane.wait(lambda s: "EXITED" in s, what="exit on SIGTERM")
        pane.send("stty -a | grep -o -- '-icanon' || echo COOKED", "Enter")
        pane.wait(lambda s: "COOKED" in s, what="cooked mode")


def test_e_cycles_exchanges_and_c_compares(pane):
    with tempfile.TemporaryDirectory() as data_dir:
        start(pane, data_dir)
        pane.wait(lambda s: "비트코인" in s and "실시간" in s, what="the live board")
        pane.send("e")
        pane.wait(lambda s: "Korbit" in s.splitlines()[-1] and "비트코인" in s and "실시간" in s, what="the Korbit board")
        pane.send("e")
        pane.wait(lambda s: "Bithumb" in s.splitlines()[-1] and "비트코인" in s, what="the Bithumb board")
        pane.send("c")
        screen = pane.wait(lambda s: "Upbit" in s and "Korbit" in s and "%" in s, what="the compare screen")
        assert "BTC" in screen
        pane.send("q")
        pane.wait(lambda s: "EXITED 0" in s, what="a clean exit")


def test_r_shows_the_ranking_with_pages_sort_search_and_a_way_to_the_board(pane):
    with tempfile.TemporaryDirectory() as data_dir:
        start(pane, data_dir)
        pane.send("r")
        screen = pane.wait(lambda s: "코인 랭킹" in s and "비트코인 BTC" in s and "전체 시가총액" in s and "조" in s, what="the ranking")
        ranked = [line for line in screen.splitlines() if line.strip()[:1].isdigit()]
        assert ranked[0].split()[0] == "1" and "비트코인" in ranked[0]
        # 4 sorts by 24h, descending first.
        pane.send("4")
        pane.wait(lambda s: "24시간▼" in s, what="24h descending")
        pane.send("4")
        pane.wait(lambda s: "24시간▲" in s, what="24h ascending")
        pane.send("4")
        pane.wait(lambda s: "▲" not in s and "▼" not in s, what="rank order again")
        # → to the next page (ranks from 101).
        pane.send("Right")
        pane.wait(lambda s: "2쪽" in s and any(line.strip().startswith("101 ") for line in s.splitlines()), what="page 2")
        pane.send("Left")
        pane.wait(lambda s: "1쪽" in s and "비트코인 BTC" in s, what="page 1")
        # / searches the page; ㅇㄷ finds 이더리움.
        pane.send("/")
        pane.send("ㅇㄷ", literal=True)
        pane.wait(lambda s: "검색: ㅇㄷ" in s and "이더리움 ETH" in s and "비트코인 BTC" not in s, what="the ranking search")
        pane.send("Enter")
        # f stars the coin (by its CoinGecko id); Enter goes to its live board row.
        pane.send("f")
        pane.wait(lambda s: "★" in s and "추가" in s, what="a starred coin")
        pane.send("Enter")
        pane.wait(lambda s: "한글명" in s and "이더리움" in s and "비트코인" not in s, what="the board searched for ETH")
        pane.send("q")
        pane.wait(lambda s: "EXITED 0" in s, what="a clean exit")


def change_column(screen: str):
    """The 전일대비 cell of each board row (the first percentage after the price)."""
    values = []
    for line in screen.splitlines()[2:-1]:
        cells = [cell for cell in line.split() if cell.endswith("%")]
        if len(cells) >= 2:
            values.append(float(cells[0].rstrip("%")))
    return values


def test_a_live_board_sorted_by_change_stays_sorted_in_every_frame(pane):
    # The screen places only the rows that changed since the last frame; every frame must still
    # be the board sorted, while the figures move.
    with tempfile.TemporaryDirectory() as data_dir:
        start(pane, data_dir)
        pane.send("3")
        pane.wait(lambda s: "전일대비▼" in s, what="change descending")
        seen, unsorted = set(), []
        deadline = time.time() + 8
        while time.time() < deadline:
            for _ in range(4):
                # A capture can land while a frame is half written: look again before judging.
                values = change_column(pane.text())
                if values == sorted(values, reverse=True):
                    break
                time.sleep(0.1)
            else:
                unsorted.append(values)
            seen.add(tuple(values))
            time.sleep(0.25)
        assert not unsorted, f"frames not sorted by change: {unsorted[:2]}"
        assert len(seen) >= 5, "the figures did not move"
        pane.send("q")
        pane.wait(lambda s: "EXITED 0" in s, what="a clean exit")


def test_5_sorts_the_board_by_the_kimchi_premium(pane):
    with tempfile.TemporaryDirectory() as data_dir:
        start(pane, data_dir)
        screen = pane.wait(lambda s: "김프" in s and "+" in s.split("김프", 1)[1], what="the premium column")
        pane.send("5")

        def premiums(screen):
            values = []
            for line in screen.splitlines()[2:-1]:
                cells = line.split()
                if cells and cells[-2].endswith("%"):
                    values.append(float(cells[-2].rstrip("%")))
            return values

        # A capture can land while the terminal is half redrawn (the header new, rows below still
        # the last frame's): the whole frame is what is judged, so the wait is for a sorted one.
        def sorted_frame(screen):
            values = premiums(screen)
            return "김프▼" in screen and len(values) >= 5 and values == sorted(values, reverse=True)

        screen = pane.wait(sorted_frame, what="premium descending, every row in order")
        assert len(premiums(screen)) >= 5
        pane.send("q")
        pane.wait(lambda s: "EXITED 0" in s, what="a clean exit")


class Receiver:
    """A webhook receiver on loopback: the bodies POSTed to it, in order."""

    def __init__(self):
        import http.server
        import threading
        bodies = self.bodies = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                bodies.append(self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode())
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def test_p_shows_the_portfolio_and_an_alert_rings_the_bell_and_reaches_the_webhook(pane):
    receiver = Receiver()
    with tempfile.TemporaryDirectory() as data_dir:
        for command in (["portfolio", "add", "buy", "KRW-BTC", "0.5", "--price", "100000000"],
                        ["alerts", "add", "KRW-BTC", "above", "1"],
                        ["alerts", "webhook", "add", receiver.url, "terminal-secret", "--allow-private"]):
            subprocess.run([SISE] + command + ["--data-dir", data_dir], check=True, capture_output=True)
        pane.send(f"{SISE} tui --demo --allow-private-webhooks --data-dir {data_dir}; echo EXITED $?", "Enter")
        pane.wait(lambda s: "비트코인" in s and "실시간" in s, what="the live board")
        # The alert already true fires at its first tick: the bell rings and the status line says so.
        pane.wait(lambda s: "🔔 Upbit KRW-BTC" in s, what="the alert's line, naming its exchange")
        bell = subprocess.run([*pane.tmux, "display-message", "-p", "-t", pane.name, "#{window_bell_flag}"],
                              capture_output=True, text=True).stdout.strip()
        assert bell == "1"
        # …and the terminal delivers it as `sise watch --alerts` does: one signed POST.
        deadline = time.time() + 20
        while not receiver.bodies and time.time() < deadline:
            time.sleep(0.2)
        receiver.close()
        assert len(receiver.bodies) == 1, receiver.bodies
        assert '"market":"KRW-BTC"' in receiver.bodies[0] and '"rule":"above"' in receiver.bodies[0]
        pane.send("p")
        screen = pane.wait(lambda s: "포트폴리오" in s and "KRW-BTC" in s and "평균매수가" in s and "100,000,000" in s,
                           what="the portfolio")
        assert "합계" in screen and "█" in screen
        # Under the P&L, the tax line: 2027's preview (before the instant, the live average stands
        # in as the deemed price), its figures whole, with what a sale of everything now would owe.
        screen = pane.wait(lambda s: "예상 세액" in s and "지금 모두 팔면" in s, what="the tax line")
        assert "2027 세금 미리보기(잠정·예상치)" in screen
        assert re.search(r"지금 모두 팔면 예상 세액 [\d,]+원", screen), screen
        pane.send("p")
        pane.wait(lambda s: "비트코인" in s and "평균매수가" not in s, what="the board again")
        # Enter on the top row (sorted by value), then v: hourly candles in block characters.
        pane.send("Enter")
        pane.wait(lambda s: "v 캔들/라인" in s, what="the detail")
        pane.send("v")
        pane.wait(lambda s: "캔들 1h" in s and "█" in s, what="the candles")
        pane.send("q")
        pane.wait(lambda s: "EXITED 0" in s, what="a clean exit")


@pytest.mark.parametrize("name", ["Upbit", "Korbit", "Bithumb"])
def test_o_shows_the_book_and_t_the_tape_on_the_detail_screen(pane, name):
    with tempfile.TemporaryDirectory() as data_dir:
        start(pane, data_dir)
        for _ in range(["Upbit", "Korbit", "Bithumb"].index(name)):
            pane.send("e")
        # The exchange's own board, live (not the last one's rows still on screen).
        pane.wait(lambda s: name in s.splitlines()[0] + s.splitlines()[-1] and "비트코인" in s and "실시간" in s, what=f"the {name} board")
        pane.send("Enter")
        pane.wait(lambda s: "o 호가" in s, what="the detail screen and its keys")
        pane.send("o")
        screen = pane.wait(lambda s: "매도잔량" in s and "매수잔량" in s, what="the order book")
        # Asks above the bids: the first price under the header is the highest ask.
        prices = [int(m.replace(",", "")) for m in re.findall(r"\b(\d{1,3}(?:,\d{3}){2,})\b", screen.split("매도잔량", 1)[1])]
        assert len(prices) >= 6 and prices == sorted(prices, reverse=True), prices
        pane.send("t")
        pane.wait(lambda s: "체결강도" in s and "매도잔량" not in s, what="the tape")
        pane.send("t")
        pane.wait(lambda s: "체결강도" not in s and "매도잔량" not in s, what="the chart again")
        pane.send("q")
        pane.wait(lambda s: "EXITED 0" in s, what="a clean exit")


def test_the_detail_screen_says_the_coins_wallets(pane):
    """입출금 현황 on the detail screen: Upbit without a key says it needs one (never "open");
    Korbit, which publishes its wallets, says the coin's networks are open."""
    with tempfile.TemporaryDirectory() as data_dir:
        start(pane, data_dir)
        pane.send("Enter")
        screen = pane.wait(lambda s: "입출금 현황" in s, what="the wallets line on Upbit's detail screen")
        line = next(l for l in screen.splitlines() if "입출금 현황" in l)
        assert "API 키 필요" in line and "가능" not in line, line
        pane.send("Escape")
        pane.send("e")
        pane.wait(lambda s: "Korbit" in s.splitlines()[0] + s.splitlines()[-1] and "비트코인" in s and "실시간" in s, what="the Korbit board")
        pane.send("Enter")
        screen = pane.wait(lambda s: "입출금 현황" in s and "가능 (" in s, what="Korbit's wallets on the detail screen")
        line = next(l for l in screen.splitlines() if "입출금 현황" in l)
        assert re.search(r"가능 \([A-Z]+\)", line), line
        pane.send("q")
        pane.wait(lambda s: "EXITED 0" in s, what="a clean exit")


def test_a_suspended_wallet_says_so_on_the_detail_screen(pane):
    """A suspension end to end in the terminal: Korbit's BTC deposits suspended on a simulator of
    the test's own, `sise tui` pointed at it says 입금 중단 on BTC's detail screen, with the network."""
    import json
    import urllib.request
    simulator = subprocess.Popen([SISE, "simulate", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = simulator.stdout.readline().split("listening on ", 1)[1].strip()
        request = urllib.request.Request(url + "/_sim/wallets", data=json.dumps({"exchange": "korbit", "currency": "BTC", "deposit": False}).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        urllib.request.urlopen(request, timeout=10).read()
        exchanges = json.loads(subprocess.run([SISE, "exchanges", "--json"], capture_output=True, text=True, check=True).stdout)
        flags = " ".join(f"{entry['restFlag']} {url}{entry['simulatorPath']}" for entry in exchanges)
        with tempfile.TemporaryDirectory() as data_dir:
            pane.send(f"{SISE} tui --exchange korbit --data-dir {data_dir} {flags}; echo EXITED $?", "Enter")
            pane.wait(lambda s: "비트코인" in s and "실시간" in s, what="Korbit's live board")
            pane.send("Enter")
            screen = pane.wait(lambda s: "입출금 현황" in s and "입금 중단" in s, what="the suspension on BTC's detail screen")
            line = next(l for l in screen.splitlines() if "입출금 현황" in l)
            assert "BTC" in screen.splitlines()[0] + screen, screen
            assert re.search(r"입금 중단 \([A-Z]+\)", line), line
            pane.send("q")
            pane.wait(lambda s: "EXITED 0" in s, what="a clean exit")
    finally:
        simulator.terminate()
        simulator.wait(10)


def test_a_sets_an_alert_on_the_selected_coin_and_on_a_list(pane):
    """`a` opens a prompt in the status line: a line typed there is an alert on the coin under the
    cursor (kept in the data directory, armed at once: it rings), or on a whole list — refused in
    the status line while that list names nothing, as every face refuses it."""
    with tempfile.TemporaryDirectory() as data_dir:
        start(pane, data_dir)
        pane.send("a")
        pane.wait(lambda s: "알림 (예:" in s, what="the alert prompt")
        pane.send("favorites move 5 10", literal=True)
        pane.send("Enter")
        pane.wait(lambda s: "관심 코인이 없습니다" in s, what="the refusal of an empty list")
        pane.send("a")
        pane.send("above 1", literal=True)
        pane.send("Enter")
        pane.wait(lambda s: "🔔 Upbit" in s, what="the new alert ringing at once")
        listed = subprocess.run([SISE, "alerts", "list", "--json", "--data-dir", data_dir], capture_output=True, text=True, check=True)
        rules = json.loads(listed.stdout)["alerts"]
        assert len(rules) == 1 and rules[0]["type"] == "above" and rules[0]["price"] == "1", rules
        assert rules[0]["market"].startswith("KRW-"), rules
        # Esc leaves the prompt with nothing kept.
        pane.send("a")
        pane.send("below 5", literal=True)
        pane.send("Escape")
        pane.wait(lambda s: "알림 (예:" not in s, what="the prompt closed")
        pane.send("q")
        pane.wait(lambda s: "EXITED 0" in s, what="a clean exit")
        listed = subprocess.run([SISE, "alerts", "list", "--json", "--data-dir", data_dir], capture_output=True, text=True, check=True)
        assert len(json.loads(listed.stdout)["alerts"]) == 1


def test_p_shows_what_the_exchange_accounts_hold(pane):
    # The simulator's demo Upbit key from the environment, a wrong Korbit secret beside it: the
    # Upbit account is read under the typed portfolio, the Korbit refusal says what to fix.
    with tempfile.TemporaryDirectory() as data_dir:
        keys = ("SISE_UPBIT_ACCESS_KEY=sim-upbit-account-access SISE_UPBIT_SECRET_KEY=sim-upbit-account-secret-0123456789 "
                "SISE_KORBIT_ACCESS_KEY=sim-korbit-account-access SISE_KORBIT_SECRET_KEY=not-the-secret-0000")
        pane.send(f"env {keys} {SISE} tui --demo --data-dir {data_dir}; echo EXITED $?", "Enter")
        pane.wait(lambda s: "비트코인" in s and "실시간" in s, what="the live board")
        pane.send("p")
        screen = pane.wait(lambda s: "거래소 보유자산" in s and "총 평가금액" in s, what="the accounts' holdings")
        assert "SISEDROP" in screen and "마켓 없음" in screen, screen
        assert "1,300,000.5" in screen, "won, free and locked"
        assert re.search(r"Korbit.*비밀 키", screen), screen
        assert "sim-upbit-account-secret" not in screen and "not-the-secret" not in screen
        pane.send("q")
        pane.wait(lambda s: "EXITED 0" in s, what="a clean exit")
