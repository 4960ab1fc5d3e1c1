"""Portfolio, alerts and candle charts in real Chromium against `sise serve --demo`: a transaction
in, live P&L moving with the price; an alert created and received as a toast, a system
notification and a signed webhook; candles with indicator toggles and an interval picker."""
import datetime
import hashlib
import hmac
import http.server
import json
import tempfile
import threading
import time

import pytest
from selenium.webdriver.common.by import By

from conftest import Server, fill, open_tab, tap
from test_board import wait, open_board


@pytest.fixture
def alert_server():
    """The demo server, allowed to post webhooks to this test's loopback receiver."""
    with tempfile.TemporaryDirectory() as data_dir:
        running = Server(data_dir, extra=["--allow-private-webhooks"]).start()
        yield running
        running.stop()


class Receiver(http.server.BaseHTTPRequestHandler):
    received = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        Receiver.received.append((self.headers.get("X-Sise-Signature"), body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def receiver():
    Receiver.received = []
    httpd = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/hook"
    httpd.shutdown()


def test_a_transaction_shows_live_profit_and_loss(server, browser):
    open_board(browser, server)
    open_tab(browser, "portfolio")
    wait(browser, lambda d: d.find_element(By.ID, "portfolio-empty").is_displayed())
    fill(browser, "#tx-market", "KRW-BTC")
    fill(browser, "#tx-quantity", "0.5")
    fill(browser, "#tx-price", "100000000")
    fill(browser, "#tx-fee", "50000")
    tap(browser, browser.find_element(By.ID, "tx-submit"))
    row = '#portfolio-rows tr[data-market="KRW-BTC"]'
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, row))
    # Read in one script: the figures change under the test every second.
    cell = lambda d, col: d.execute_script("const td = document.querySelector(arguments[0]); return td ? td.textContent : ''",
                                           f'{row} [data-col="{col}"]')
    assert cell(browser, "averagePrice") == "100,100,000"
    assert cell(browser, "quantity") == "0.5"
    first = cell(browser, "unrealizedPnl")
    assert first[0] in "+-" or first == "0"
    # The socket streams the portfolio: the P&L follows the live price without a reload.
    wait(browser, lambda d: cell(d, "unrealizedPnl") != first, timeout=30)
    assert browser.find_element(By.CSS_SELECTOR, '#portfolio-totals [data-total="invested"]').text == "50,050,000"
    assert browser.find_elements(By.CSS_SELECTOR, '#portfolio-donut circle[data-market="KRW-BTC"]')
    # Refused input is worded, nothing is stored.
    browser.find_element(By.CSS_SELECTOR, '#tx-type option[value="sell"]').click()
    fill(browser, "#tx-quantity", "7")
    tap(browser, browser.find_element(By.ID, "tx-submit"))
    wait(browser, lambda d: d.find_element(By.ID, "tx-error").is_displayed() and "KRW-BTC" in d.find_element(By.ID, "tx-error").text)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#portfolio-transactions tr")) == 1


def test_an_alert_arrives_as_toast_notification_and_signed_webhook(alert_server, browser, receiver):
    open_board(browser, alert_server)
    browser.execute_cdp_cmd("Browser.grantPermissions", {"origin": alert_server.url, "permissions": ["notifications"]})
    # Record the notifications the page shows (headless Chromium draws none).
    browser.execute_script("""
        window.shown = [];
        window.Notification = class { constructor(title, options) { window.shown.push([title, options.body]); }
          static get permission() { return 'granted'; } static requestPermission() { return Promise.resolve('granted'); } };
    """)
    open_tab(browser, "alerts")
    secret = "browser-test-secret"
    fill(browser, "#webhook-url", receiver)
    fill(browser, "#webhook-secret", secret)
    tap(browser, browser.find_element(By.ID, "webhook-submit"))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#webhook-list li[data-webhook-id]"))
    fill(browser, "#alert-market", "KRW-BTC")
    fill(browser, "#alert-price", "1")
    tap(browser, browser.find_element(By.ID, "alert-submit"))
    toast = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#toasts [data-kind="alert"]'), timeout=15)
    assert "KRW-BTC" in toast[0].text
    wait(browser, lambda d: d.execute_script("return window.shown.length") == 1)
    assert "KRW-BTC" in browser.execute_script("return window.shown[0][1]")
    wait(browser, lambda d: len(Receiver.received) == 1, timeout=15)
    signature, body = Receiver.received[0]
    assert signature == "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    payload = json.loads(body)
    assert payload["market"] == "KRW-BTC" and payload["rule"] == "above" and payload["type"] == "alert"
    # The one-shot alert is off now, and its firing is in the history.
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#alert-list li[data-enabled="false"]'))
    assert browser.find_elements(By.CSS_SELECTOR, "#alert-history li[data-firing-id]")


def test_a_webhooks_quiet_hours_hold_back_what_the_page_shows_at_once(alert_server, browser, receiver):
    """A webhook added with quiet hours around now (KST) and a daily cap: listed with both in
    words; an alert that fires shows on the page at once, and the webhook gets nothing (held for
    the digest at the quiet hours' end)."""
    open_board(browser, alert_server)
    open_tab(browser, "alerts")
    kst = datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=9)))
    start = (kst - datetime.timedelta(hours=1)).strftime("%H:%M")
    end = (kst + datetime.timedelta(hours=1)).strftime("%H:%M")
    fill(browser, "#webhook-url", receiver)
    fill(browser, "#webhook-secret", "browser-test-secret")
    browser.execute_script("document.getElementById('webhook-quiet-start').value = arguments[0];"
                           "document.getElementById('webhook-quiet-end').value = arguments[1];"
                           "document.getElementById('webhook-cap').value = '5';", start, end)
    tap(browser, browser.find_element(By.ID, "webhook-submit"))
    listed = wait(browser, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#webhook-list li[data-webhook-id]") if "조용히" in e.text])
    assert f"{start}~{end} 조용히 (Asia/Seoul)" in listed[0] and "하루 5건까지" in listed[0], listed
    fill(browser, "#alert-market", "KRW-ETH")
    fill(browser, "#alert-price", "1")
    tap(browser, browser.find_element(By.ID, "alert-submit"))
    toast = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#toasts [data-kind="alert"]'), timeout=15)
    assert "KRW-ETH" in toast[0].text
    time.sleep(3)  # a delivery would have come by now
    assert Receiver.received == [], "held back in the quiet hours"


def test_candles_with_indicator_toggles_and_intervals(server, browser):
    open_board(browser, server)
    browser.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-BTC"] td:nth-child(2)').click()
    wait(browser, lambda d: d.find_element(By.ID, "chart-modes").is_displayed())
    browser.find_element(By.CSS_SELECTOR, '[data-chart-mode="candles"]').click()
    # The chart is drawn again as candles move: each look reads it whole, in one round trip.
    chart = lambda d: d.execute_script(
        "const c = document.getElementById('candle-chart');"
        "return c ? {interval: c.dataset.interval, overlays: c.dataset.overlays, candles: c.querySelectorAll('g.candle').length} : null")
    drawn = wait(browser, chart)
    assert drawn == {"interval": "1h", "overlays": "ma", "candles": 100}, drawn
    browser.find_element(By.CSS_SELECTOR, '[data-indicator="rsi"]').click()
    browser.find_element(By.CSS_SELECTOR, '[data-indicator="bb"]').click()
    wait(browser, lambda d: (chart(d) or {}).get("overlays") == "ma,bb,rsi")
    assert browser.find_elements(By.CSS_SELECTOR, "#candle-chart path.rsi")
    assert browser.find_elements(By.CSS_SELECTOR, "#candle-chart path.bb")
    browser.find_element(By.CSS_SELECTOR, '[data-interval="1d"]').click()
    wait(browser, lambda d: (chart(d) or {}).get("interval") == "1d")
    # Back to the line.
    browser.find_element(By.CSS_SELECTOR, '[data-chart-mode="line"]').click()
    wait(browser, lambda d: d.find_elements(By.ID, "price-chart"))
