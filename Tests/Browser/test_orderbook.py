"""호가 and 체결 on a market's detail page in a real headless Chromium, on every exchange (a deep
link each): a consistent ladder (asks above the bids, best at the touch), the tape newest first,
체결강도, pushed over the page's socket (REST only while it is down), nothing but text from the
server, and no view wider than a 320 px phone."""
import re
import pytest
from selenium.webdriver.common.by import By

from conftest import Chromium, screenshot
from test_board import wait


def ladder(driver):
    """(side, price) of each ladder row, top to bottom."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#book-ladder tbody tr')].map(r => [r.className.split(' ')[0], Number(r.dataset.price)])")


@pytest.mark.parametrize("exchange", ["upbit", "korbit", "bithumb", "coinone"])
def test_the_book_and_the_tape_on_each_exchange(server, exchange):
    driver = Chromium.tab(320, 700)
    driver.get(f"{server.url}/coin/KRW-BTC?exchange={exchange}")
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#book-ladder tr.ask")) == 10
         and len(d.find_elements(By.CSS_SELECTOR, "#book-ladder tr.bid")) == 10, timeout=20)
    rows = ladder(driver)
    asks = [price for side, price in rows if side == "ask"]
    bids = [price for side, price in rows if side == "bid"]
    assert [side for side, _ in rows] == ["ask"] * 10 + ["bid"] * 10, "asks above, bids below"
    assert asks == sorted(asks, reverse=True) and bids == sorted(bids, reverse=True), "prices fall down the ladder"
    assert min(asks) > max(bids), "the best bid is below the best ask"
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tape-rows tr")) >= 10)
    # 체결강도 as the server wrote it (the page decides nothing): two decimals and a percent sign.
    wait(driver, lambda d: re.fullmatch(r"체결강도 [\d,]+\.\d\d%", d.find_element(By.ID, "tape-strength").text))
    assert driver.find_element(By.ID, "book-title").text == "호가"
    # The ladder says what its columns are, and under it the sizes and the gap between the touches.
    heads = driver.execute_script("return [...document.querySelectorAll('#book-ladder thead th')].map(th => th.textContent)")
    assert heads == ["매도잔량", "가격", "매수잔량"], heads
    totals = driver.execute_script("return [...document.querySelectorAll('#book-ladder tfoot td')].map(td => td.textContent)")
    assert len(totals) == 3 and all(re.fullmatch(r"[\d,]+\.\d{4}", size) for size in (totals[0], totals[2])), totals
    assert re.fullmatch(r"스프레드 [\d,.]+ \([\d.]+%\)", totals[1]), totals
    # The ladder follows the market, pushed over the page's socket (one upstream subscription
    # per market on the server): once the socket is up, no more REST reads of the book or tape
    # (a deep link may read them once while its socket is still opening).
    rest = "return performance.getEntriesByType('resource').filter(e => /\\/api\\/(orderbook|trades|tape)\\//.test(e.name)).length"
    wait(driver, lambda d: d.find_element(By.ID, "status").get_attribute("data-state") == "live")
    reads = driver.execute_script(rest)
    first = driver.execute_script("return document.querySelector('#book-ladder tbody').firstChild")
    wait(driver, lambda d: d.execute_script("return document.querySelector('#book-ladder tbody').firstChild") != first, timeout=5)
    assert driver.execute_script(rest) == reads, "read over REST while the socket was up"
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= 320, f"the page is {width} px wide at 320"
    screenshot(driver, f"orderbook-{exchange}-320")
    # Leaving the market stops the reads.
    driver.find_element(By.ID, "detail-back").click()
    wait(driver, lambda d: not d.find_element(By.ID, "market-depth").is_displayed())



def test_a_silent_book_says_delayed_then_stale_and_clears(tmp_path):
    """The book's age obeys the board's silence rule (`--silence 1` here): a depth feed gone quiet
    turns the book 지연 (read over REST), then — REST failing too — the last book says how old it
    is; both clear once the feed is back."""
    from conftest import Server
    server = Server(str(tmp_path), extra=["--silence", "1"]).start()
    driver = Chromium.tab(360, 740)
    try:
        driver.get(f"{server.url}/coin/KRW-BTC?exchange=upbit")
        chip = lambda d: d.find_element(By.ID, "book-state")
        ladder_state = lambda d: d.find_element(By.ID, "book-ladder").get_attribute("data-state")
        wait(driver, lambda d: ladder_state(d) == "live" and not chip(d).is_displayed(), timeout=20)
        server.faults(bookStall=True)
        wait(driver, lambda d: ladder_state(d) == "delayed" and chip(d).is_displayed(), timeout=15)
        assert "지연" in chip(driver).text
        server.faults(errorRate=1)
        wait(driver, lambda d: ladder_state(d) == "stale", timeout=15)
        assert "갱신 안 됨" in chip(driver).text and chip(driver).get_attribute("data-state") == "stale"
        assert re.search(r"\b\d\d:\d\d:\d\d\b", chip(driver).text), f"the last book's KST time: {chip(driver).text}"
        assert len(driver.find_elements(By.CSS_SELECTOR, "#book-ladder tbody tr")) == 20, "the last book stays on screen"
        server.faults(errorRate=0, bookStall=False)
        wait(driver, lambda d: ladder_state(d) == "live" and not chip(d).is_displayed(), timeout=15)
    finally:
        server.stop()
