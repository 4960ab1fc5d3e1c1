"""입출금 현황 as a phone user meets it, against `sise serve --demo` (Upbit without a key): a wallet
suspended on the simulator's Bithumb marks that coin's row on Bithumb's board (and only there),
the coin page lists the coin's networks on every exchange with their fees, says "key needed" for
Upbit, and the mark goes when the wallet reopens; the coin page's timeline keeps what changed."""
import json
import tempfile
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import Server, make_driver, tap
from test_board import wait, open_board


@pytest.fixture(scope="module")
def site():
    with tempfile.TemporaryDirectory() as data_dir:
        running = Server(data_dir, extra=["--wallets-every", "1", "--events-every", "1"]).start()
        yield running
        running.stop()


@pytest.fixture(scope="module")
def phone():
    driver = make_driver(390, 844)
    yield driver
    driver.quit()


def switch(site, body):
    with urllib.request.urlopen(site.url + "/api/status", timeout=10) as answer:
        simulator = json.loads(answer.read())["simulator"]
    request = urllib.request.Request(simulator.rstrip("/") + "/_sim/wallets", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    urllib.request.urlopen(request, timeout=10).read()


def marks(site):
    with urllib.request.urlopen(site.url + "/api/wallets/marks?exchange=bithumb", timeout=10) as answer:
        return json.loads(answer.read())["exchanges"][0]["marks"]


ETH = '#rows tr[data-market="KRW-ETH"]'


def test_a_suspended_wallet_is_marked_and_the_coin_page_says_where(site, phone):
    switch(site, {"exchange": "bithumb", "currency": "ETH", "deposit": False, "withdraw": False})
    try:
        wait(phone, lambda d: "ETH" in marks(site), timeout=15)
        open_board(phone, site)
        phone.find_element(By.CSS_SELECTOR, '[data-exchange="bithumb"]').click()
        row = wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, ETH + '[data-exchange="bithumb"][data-wallet="shut"]'), timeout=20)[0]
        chip = row.find_element(By.CSS_SELECTOR, ".wallet")
        assert chip.text == "입출×" and chip.get_attribute("aria-label") == "입출금 중단", (chip.text, chip.get_attribute("aria-label"))
        assert phone.execute_script(
            "const c = arguments[0].getBoundingClientRect(), cell = arguments[0].closest('td').getBoundingClientRect();"
            "return c.width > 0 && c.left >= cell.left && c.right <= cell.right + 0.5", chip), "the mark shows whole in its cell"
        # Upbit's ETH is not suspended: no mark there.
        phone.find_element(By.CSS_SELECTOR, '[data-exchange="upbit"]').click()
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, ETH + '[data-exchange="upbit"]'), timeout=20)
        assert not phone.find_elements(By.CSS_SELECTOR, ETH + '[data-wallet="shut"]')

        # The coin page: every exchange's networks; Bithumb's ETH shut, Upbit says it needs a key.
        phone.get(site.url + "/coin/KRW-ETH?exchange=bithumb")
        section = wait(phone, lambda d: d.find_element(By.ID, "coin-wallets").is_displayed() and d.find_element(By.ID, "coin-wallets"), timeout=20)
        assert section.find_element(By.ID, "coin-wallets-title").text == "입출금 현황"
        notes = section.find_element(By.ID, "coin-wallets-notes").text
        assert "Upbit" in notes and "API 키 필요" in notes, notes
        rows = section.find_elements(By.CSS_SELECTOR, "#coin-wallets-rows tr")
        shut = [r.text for r in rows if r.get_attribute("data-wallet").startswith("bithumb:")]
        assert shut and all("중단" in text for text in shut), shut
        assert any(r.get_attribute("data-wallet").startswith("korbit:") and "가능" in r.text for r in rows)
        assert all(cell.text for cell in section.find_elements(By.CSS_SELECTOR, "#coin-wallets-rows td.num")), "a fee or '-' in every row"
    finally:
        switch(site, {"reset": True})
    # Reopened: the mark goes at the next read (and the page's next look).
    wait(phone, lambda d: "ETH" not in marks(site), timeout=15)
    open_board(phone, site)
    phone.find_element(By.CSS_SELECTOR, '[data-exchange="bithumb"]').click()
    wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, ETH + '[data-exchange="bithumb"]'), timeout=20)
    assert not phone.find_elements(By.CSS_SELECTOR, ETH + '[data-wallet="shut"]')


def test_the_executable_premium_goes_with_a_shut_wallet_and_returns(site, phone):
    """The coin page's 실행 가능 김프: both ways with a figure; a suspended deposit on Bithumb takes the
    way in away and names the wallet; reopened, the figure returns."""
    way_in = '#executable-premium [data-way="toKorea"]'

    def ask_again(driver):
        field = driver.find_element(By.ID, "executable-amount")
        field.clear()
        field.send_keys("2000000")
        driver.execute_script("arguments[0].dispatchEvent(new Event('change'))", field)

    phone.get(site.url + "/coin/KRW-BTC?exchange=bithumb")
    wait(phone, lambda d: d.find_element(By.ID, "executable-premium").is_displayed()
         and all(e.get_attribute("data-state") == "ok" for e in d.find_elements(By.CSS_SELECTOR, "#executable-premium [data-way]")), timeout=30)
    assert "회수" in phone.find_element(By.CSS_SELECTOR, way_in + " .figure").text
    notes = phone.find_element(By.ID, "executable-notes").text
    assert "거래 수수료" in notes, notes
    switch(site, {"exchange": "bithumb", "currency": "BTC", "deposit": False})
    try:
        wait(phone, lambda d: "BTC" in marks(site), timeout=15)
        ask_again(phone)
        line = wait(phone, lambda d: d.find_element(By.CSS_SELECTOR, way_in).get_attribute("data-state") == "walletShut"
                    and d.find_element(By.CSS_SELECTOR, way_in), timeout=15)
        assert "입금이 중단" in line.text, line.text
        assert phone.find_element(By.CSS_SELECTOR, '#executable-premium [data-way="abroad"]').get_attribute("data-state") == "ok"
    finally:
        switch(site, {"reset": True})
    wait(phone, lambda d: "BTC" not in marks(site), timeout=15)
    ask_again(phone)
    wait(phone, lambda d: d.find_element(By.CSS_SELECTOR, way_in).get_attribute("data-state") == "ok", timeout=15)


def test_a_caution_says_which_in_words(site, phone):
    """The board's 주의 chip says why in words (its label and title), and a graded caution says its
    grade: Korbit's price alert is 위험."""
    open_board(phone, site)
    phone.find_element(By.CSS_SELECTOR, '[data-exchange="upbit"]').click()
    chips = wait(phone, lambda d: [c for c in d.find_elements(By.CSS_SELECTOR, '#rows tr[data-exchange="upbit"] .mark.caution')
                                   if c.get_attribute("title")], timeout=20)
    label = chips[0].get_attribute("aria-label")
    assert label.startswith("주의: ") and ("해외 시세와 차이" in label or "가격 급등락" in label), label
    phone.find_element(By.CSS_SELECTOR, '[data-exchange="korbit"]').click()
    danger = wait(phone, lambda d: [c for c in d.find_elements(By.CSS_SELECTOR, '#rows tr[data-exchange="korbit"] .mark.caution')
                                    if c.text == "위험"], timeout=20)
    assert "가격 급등락" in danger[0].get_attribute("title"), danger[0].get_attribute("title")


def test_notices_on_the_home_and_the_coin_page(site, phone):
    """The exchanges' latest notices on 코인정보's home, and a coin page's own: XRP's listing."""
    phone.get(site.url + "/info")
    items = wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#latest-notices li[data-notice]"), timeout=20)
    assert len(items) >= 3 and phone.find_element(By.ID, "latest-notices-title").text == "공지"
    assert "Coinone" in phone.find_element(By.ID, "latest-notices-note").text
    phone.get(site.url + "/coin/KRW-XRP?exchange=upbit")
    listing = wait(phone, lambda d: [e for e in d.find_elements(By.CSS_SELECTOR, '#coin-notices li[data-kind="listing"]') if "XRP" in e.text],
                   timeout=20)
    assert "상장" in listing[0].text
    link = listing[0].find_element(By.CSS_SELECTOR, "a")
    assert link.get_attribute("href").startswith("https://") and link.get_attribute("rel") == "noopener noreferrer"


def events(site, query=""):
    with urllib.request.urlopen(site.url + "/api/events" + query, timeout=10) as answer:
        return json.loads(answer.read())


def test_the_coin_page_keeps_what_changed(site, phone):
    """변동 기록: a withdrawal suspended on Korbit, once the history watches Korbit's wallets, is on
    SOL's coin page with the price then and the hour, day and week after still to come."""
    wait(phone, lambda d: any(w["exchange"] == "korbit" and "withdraw" in w["since"] for w in events(site)["watched"]), timeout=20)
    switch(site, {"exchange": "korbit", "currency": "SOL", "withdraw": False})
    try:
        wait(phone, lambda d: events(site, "?symbol=SOL&kind=withdrawSuspended")["events"], timeout=20)
        phone.get(site.url + "/coin/KRW-SOL?exchange=korbit")
        items = wait(phone, lambda d: d.find_element(By.ID, "coin-events").is_displayed()
                     and d.find_elements(By.CSS_SELECTOR, '#coin-events-list li[data-kind="withdrawSuspended"]'), timeout=20)
        assert phone.find_element(By.ID, "coin-events-title").text == "변동 기록"
        text = items[0].text
        assert "Korbit" in text and "출금 중단" in text and "당시 가격" in text, text
        later = items[0].find_elements(By.CSS_SELECTOR, ".later")
        assert [e.get_attribute("data-after") for e in later] == ["1h", "24h", "7d"]
        assert all(e.get_attribute("data-state") == "pending" and "대기" in e.text for e in later), [e.text for e in later]
    finally:
        switch(site, {"reset": True})


def test_a_change_alert_reaches_the_page(site, phone):
    """변동 알림: the wallets switch on the 알림 tab turned on, a starred coin's deposits suspended on
    Bithumb — the alert history says so in words, once, and the switch stays on after a reload."""
    phone.get(site.url + "/alerts")
    box = wait(phone, lambda d: d.find_element(By.CSS_SELECTOR, '#change-alerts input[data-topic="wallets"]'), timeout=20)
    # The 알림 tab is shown once the page has started (on a busy machine, after the element exists).
    wait(phone, lambda d: d.find_element(By.ID, "change-alerts-title").is_displayed(), timeout=20)
    assert phone.find_element(By.ID, "change-alerts-title").text == "변동 알림"
    assert not box.is_selected()
    switch_label = box.find_element(By.XPATH, "..")
    phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", switch_label)
    switch_label.click()
    wait(phone, lambda d: box.is_selected() and box.is_enabled(), timeout=10)
    phone.execute_async_script("""
        const done = arguments[0];
        const token = document.cookie.match(/sise_csrf=([0-9a-f]+)/)[1];
        fetch('/api/favorites/bithumb:KRW-DOGE', { method: 'PUT', credentials: 'same-origin', headers: { 'X-CSRF-Token': token } }).then(() => done());
    """)
    wait(phone, lambda d: any(w["exchange"] == "bithumb" and "deposit" in w["since"] for w in events(site)["watched"]), timeout=20)
    switch(site, {"exchange": "bithumb", "currency": "DOGE", "deposit": False})
    try:
        wait(phone, lambda d: events(site, "?symbol=DOGE&exchange=bithumb")["events"], timeout=20)
        phone.refresh()
        line = wait(phone, lambda d: [e for e in d.find_elements(By.CSS_SELECTOR, "#alert-history li[data-firing-id]") if "입금 중단" in e.text],
                    timeout=20)
        assert "Bithumb DOGE 입금 중단" in line[0].text, line[0].text
        assert len(line) == 1
        assert phone.find_element(By.CSS_SELECTOR, '#change-alerts input[data-topic="wallets"]').is_selected()
        assert not phone.find_element(By.CSS_SELECTOR, '#change-alerts input[data-topic="listings"]').is_selected()
    finally:
        switch(site, {"reset": True})


def test_the_overviews_under_more_list_every_coin_and_open_its_page(site, phone):
    """Issue 83 (low): 입출금 현황, 공지 and 변동 기록 lived only on each coin page. 더보기 has an overview
    of each — every coin's shut wallets, the latest notices, the latest changes — each coin opening
    its page, and a coin page's section leads to the overview."""
    switch(site, {"exchange": "bithumb", "currency": "ETH", "deposit": False, "withdraw": False})
    try:
        wait(phone, lambda d: "ETH" in marks(site), timeout=15)
        open_board(phone, site)
        phone.find_element(By.ID, "more-button").click()
        wait(phone, lambda d: d.find_element(By.CSS_SELECTOR, '#more-sheet [data-tab="wallets"]').is_displayed())
        tab = phone.find_element(By.CSS_SELECTOR, '#more-sheet [data-tab="wallets"]')
        assert tab.text == "입출금", tab.text
        tab.click()
        wait(phone, lambda d: d.execute_script("return location.pathname") == "/wallets")
        row = wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, '#wallets-overview-rows tr[data-wallet^="bithumb:ETH:"]'), timeout=20)[0]
        assert "Bithumb" in row.text and "중단" in row.text, row.text
        assert phone.find_element(By.ID, "wallets-overview-title").text == "입출금 현황"
        tap(phone, row.find_element(By.CSS_SELECTOR, ".coin-link"))
        wait(phone, lambda d: d.execute_script("return location.pathname + location.search") == "/coin/KRW-ETH?exchange=bithumb", timeout=15)
        # The coin page's section leads back to the list of every coin.
        link = wait(phone, lambda d: d.find_element(By.ID, "coin-wallets").is_displayed()
                    and d.find_element(By.CSS_SELECTOR, '#coin-wallets [data-overview="wallets"]'), timeout=20)
        assert link.text == "모든 코인 보기"
        tap(phone, link)
        wait(phone, lambda d: d.execute_script("return location.pathname") == "/wallets")
    finally:
        switch(site, {"reset": True})
    # The latest notices and changes of every coin, each naming its coin.
    phone.get(site.url + "/notices")
    notices = wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#notices-overview li[data-notice]"), timeout=20)
    assert len(notices) >= 3 and phone.find_element(By.ID, "notices-overview-title").text == "공지"
    assert phone.find_elements(By.CSS_SELECTOR, "#notices-overview .coin-link"), "a notice names its coins"
    phone.get(site.url + "/events")
    changes = wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#events-overview li[data-event]"), timeout=30)
    coin = changes[0].find_element(By.CSS_SELECTOR, ".coin-link")
    symbol = coin.text
    tap(phone, coin)
    wait(phone, lambda d: d.execute_script("return location.pathname").startswith(f"/coin/KRW-{symbol}"), timeout=15)
