"""Every face of the tax preview says the same: one table row per face — the API, `sise tax
--json`, the page's 세금 tab and the TUI's tax line — for the same two trades, against the same
simulator. The cost paid is above any price the simulator quotes, so the figures do not move with
the live average (before 2027-01-01 it stands in as the deemed price) and are checked by hand too:

  buy 0.5 BTC at 1,000,000,000 on 2026-06-01; sell 0.2 at 1,100,000,000, fee 10,000, on 2027-03-01
  gain 0.2 × (1,100,000,000 − 1,000,000,000) − 10,000 = 19,990,000
  taxable 19,990,000 − 2,500,000 = 17,490,000; 20 % 3,498,000 + local 349,800 = 3,847,800
"""
import json
import pathlib
import re
import subprocess
import sys
import tempfile

import pytest
from selenium.webdriver.common.by import By

from conftest import fill, open_tab, sise_binary, tap
from test_board import open_board, wait

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Terminal"))
from tmux_pane import Pane  # noqa: E402

TRADES = [
    # (type, quantity, price, fee, at in KST)
    ("buy", "0.5", "1000000000", "0", "2026-06-01T09:00"),
    ("sell", "0.2", "1100000000", "10000", "2027-03-01T09:00"),
]
EXPECTED = {"income": "+19,990,000원", "taxable": "17,490,000원", "total": "3,847,800원"}


def upstream_flags(server) -> list:
    base = server.status()["simulator"]
    return ["--upbit-url", base, "--korbit-url", base, "--bithumb-url", base + "/bithumb", "--coinone-url", base + "/coinone"]


def won(text: str) -> str:
    return text if text.endswith("원") else text + "원"


def page_row(server, browser) -> dict:
    open_board(browser, server)
    open_tab(browser, "portfolio")
    wait(browser, lambda d: d.find_element(By.ID, "portfolio-empty").is_displayed())
    for kind, quantity, price, fee, at in TRADES:
        browser.find_element(By.CSS_SELECTOR, f'#tx-type option[value="{kind}"]').click()
        fill(browser, "#tx-market", "KRW-BTC")
        fill(browser, "#tx-quantity", quantity)
        fill(browser, "#tx-price", price)
        fill(browser, "#tx-fee", fee)
        # The field is read in the phone's time zone: in any zone each trade stays inside its year.
        browser.execute_script("document.getElementById('tx-at').value = arguments[0]", at)
        count = len(browser.find_elements(By.CSS_SELECTOR, "#portfolio-transactions tr"))
        tap(browser, browser.find_element(By.ID, "tx-submit"))
        wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#portfolio-transactions tr")) > count)
    tap(browser, browser.find_element(By.ID, "portfolio-view-tax"))
    total = '#tax-totals [data-total="total"]'
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, total) and d.find_element(By.CSS_SELECTOR, total).text != "")
    return {key: browser.find_element(By.CSS_SELECTOR, f'#tax-totals [data-total="{key}"]').text for key in EXPECTED}


def api_row(browser) -> dict:
    # The page's own device asks: the same owner, the same transactions.
    answer = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/api/tax/2027', {credentials: 'same-origin'}).then((r) => r.json()).then(done, (e) => done(String(e)));
    """)
    return {key: won(answer["totals"]["display"][key]) for key in EXPECTED}


def cli_row(server, data_dir) -> dict:
    for kind, quantity, price, fee, at in TRADES:
        subprocess.run([sise_binary(), "portfolio", "add", kind, "KRW-BTC", quantity, "--price", price, "--fee", fee,
                        "--at", at + ":00+09:00", "--data-dir", data_dir], check=True, capture_output=True)
    run = subprocess.run([sise_binary(), "tax", "2027", "--json", "--data-dir", data_dir] + upstream_flags(server),
                         check=True, capture_output=True, text=True)
    return {key: won(json.loads(run.stdout)["totals"]["display"][key]) for key in EXPECTED}


def tui_row(data_dir) -> dict:
    pane = Pane(width=140, height=30)
    try:
        pane.send(f"{sise_binary()} tui --demo --data-dir {data_dir}", "Enter")
        pane.wait(lambda s: "실시간" in s, what="the live board")
        pane.send("p")
        screen = pane.wait(lambda s: "예상 세액" in s and "과세표준" in s, what="the tax line")
        line = next(line for line in screen.splitlines() if "세금 미리보기" in line)
        found = re.search(r"소득 (\S+원) · 과세표준 (\S+원) · 예상 세액 (\S+원)", line)
        assert found, line
        pane.send("q")
        return dict(zip(EXPECTED, found.groups()))
    finally:
        pane.close()


@pytest.mark.skipif(subprocess.run(["which", "tmux"], capture_output=True).returncode != 0, reason="tmux is not installed")
def test_every_face_shows_the_same_tax_figures(server, browser):
    with tempfile.TemporaryDirectory() as terminal_data:
        rows = {
            "page": page_row(server, browser),
            "api": api_row(browser),
            "cli": cli_row(server, terminal_data),
            "tui": tui_row(terminal_data),
        }
    table = "\n".join(f"{face:5} " + " ".join(f"{row[key]:>15}" for key in EXPECTED) for face, row in rows.items())
    print("\nface  " + " ".join(f"{key:>15}" for key in EXPECTED) + "\n" + table)
    for face, row in rows.items():
        assert row == EXPECTED, f"{face} disagrees:\n{table}"
