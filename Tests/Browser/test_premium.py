"""The kimchi premium in real Chromium against `sise serve --demo`: the 김프 column, sorting by it
(3-state, unknown last), the market's 김프 with its source, and each venue's premium on 비교."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import open_tab
from test_board import wait, open_board, ROW


def premiums(driver):
    """The premium of every row that carries its data, in one read (the board moves while cells are
    read one by one); ranks outside the page's window are placeholders until scrolled to."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(td => td.textContent)", ROW + ":not([data-pending]) td.premium")


def test_sort_by_premium_and_see_its_source(server, browser):
    open_board(browser, server)
    wait(browser, lambda d: sum(text.endswith("%") for text in premiums(d)) > 20, timeout=20)
    wait(browser, lambda d: d.find_element(By.ID, "premium-source").text and d.find_element(By.ID, "premium-bar"))
    assert "Upbit USDT" in browser.find_element(By.ID, "premium-source").text and "바이낸스" in browser.find_element(By.ID, "premium-source").text
    assert browser.find_element(By.ID, "market-premium").text.endswith("%")
    header = browser.find_element(By.CSS_SELECTOR, '[data-sort="premium"]')
    header.click()
    wait(browser, lambda d: header.get_attribute("aria-sort") == "descending")

    def ordered(d, reverse):
        texts = premiums(d)
        known = [float(t.rstrip("%")) for t in texts if t.endswith("%")]
        unknown_last = all(not t.endswith("%") for t in texts[len(known):])
        return len(known) > 20 and unknown_last and known == sorted(known, reverse=reverse)

    wait(browser, lambda d: ordered(d, True))
    header.click()
    wait(browser, lambda d: header.get_attribute("aria-sort") == "ascending" and ordered(d, False))
    # A positive premium is red, a negative one blue, as the board's colours go.
    first = browser.find_element(By.CSS_SELECTOR, ROW + " td.premium")
    assert ("fall" in first.get_attribute("class")) == first.text.startswith("-")


def test_compare_shows_each_venues_premium_and_the_global_price(server, browser):
    open_board(browser, server)
    open_tab(browser, "compare")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#compare-rows tr[data-compare="BTC"] td.global')
         and d.find_element(By.CSS_SELECTOR, '#compare-rows tr[data-compare="BTC"] td.global').text.startswith("$"), timeout=20)
    cell = browser.find_element(By.CSS_SELECTOR, '#compare-rows tr[data-compare="BTC"] td[data-venue="upbit"] .premium')
    assert cell.text.endswith("%")


def test_the_board_header_shows_this_exchanges_tether_premium(server, browser):
    """테더 김프 beside the market's 김프: the exchange's KRW-USDT over the official rate, as a
    percentage whose colour follows its sign, and labelled in the page's words."""
    open_board(browser, server)
    tether = wait(browser, lambda d: d.find_element(By.ID, "tether-premium").get_attribute("data-state") == "live"
                  and d.find_element(By.ID, "tether-premium"), timeout=20)
    assert tether.text.endswith("%"), tether.text
    assert ("fall" in tether.get_attribute("class")) == tether.text.startswith("-")
    assert browser.find_element(By.ID, "tether-premium-label").text == "테더 김프"


def test_the_premium_matrix_sorts_by_an_exchange_and_switches_venue(server, browser):
    """The 김프 tab: every exchange's premium against one venue; a column head sorts by it (high,
    low, back to trade value); OKX's other coin under ADA shows `?`, never a figure."""
    browser.get(server.url + "/premium")
    cells = lambda d, exchange: d.execute_script(
        "return [...document.querySelectorAll('#matrix-rows tr[data-matrix] td[data-exchange=\"' + arguments[0] + '\"]')].map(td => td.textContent)", exchange)
    wait(browser, lambda d: sum(text.endswith("%") for text in cells(d, "upbit")) > 20, timeout=30)
    assert "Binance" in browser.find_element(By.ID, "matrix-venue").text
    header = browser.find_element(By.CSS_SELECTOR, 'th[data-matrix-exchange="bithumb"]')
    header.find_element(By.TAG_NAME, "button").click()

    def ordered(d, reverse):
        texts = cells(d, "bithumb")
        known = [float(t.rstrip("%")) for t in texts if t.endswith("%")]
        return len(known) > 20 and all(not t.endswith("%") for t in texts[len(known):]) and known == sorted(known, reverse=reverse)

    wait(browser, lambda d: header.get_attribute("aria-sort") == "descending" and ordered(d, True))
    header.find_element(By.TAG_NAME, "button").click()
    wait(browser, lambda d: header.get_attribute("aria-sort") == "ascending" and ordered(d, False))
    Select(browser.find_element(By.ID, "matrix-venue")).select_by_value("okx")
    ada = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#matrix-rows tr[data-matrix="ADA"] td[data-exchange="upbit"][data-state="doubt"]'), timeout=20)
    assert ada[0].text == "?"
    assert browser.find_element(By.ID, "matrix-source").text
    row = browser.find_element(By.CSS_SELECTOR, '#matrix-rows tr[data-matrix="BTC"]')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    row.click()
    wait(browser, lambda d: not d.find_element(By.ID, "coin-detail").get_attribute("hidden"))


def test_the_matrix_says_what_a_million_won_makes_each_way(server, browser):
    """The 김프 tab's executable switch: a tapped row opens a line under it with each exchange's
    executable premium both ways against the chosen venue (a rate per way, its words as its label);
    the line stays under its row as the matrix reorders, a tap closes it, and with the switch off
    a row opens its coin again."""
    browser.get(server.url + "/premium")
    wait(browser, lambda d: [td for td in d.find_elements(By.CSS_SELECTOR, '#matrix-rows tr[data-matrix="BTC"] td[data-exchange="upbit"]')
                             if td.text.endswith("%")], timeout=30)
    switch = browser.find_element(By.ID, "matrix-executable")
    label = switch.find_element(By.XPATH, "..")
    assert "실행 가능 김프" in label.text
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", label)
    label.click()
    assert switch.is_selected()
    row = browser.find_element(By.CSS_SELECTOR, '#matrix-rows tr[data-matrix="BTC"]')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    row.click()
    ways = wait(browser, lambda d: [e for e in d.find_elements(By.CSS_SELECTOR, 'tr[data-executable="BTC"] td[data-exchange="upbit"] [data-way]')
                                    if e.get_attribute("data-state") == "ok"], timeout=20)
    assert {e.get_attribute("data-way") for e in ways} == {"toKorea", "abroad"}
    assert all(e.text.endswith("%") and "회수" in e.get_attribute("aria-label") for e in ways), [e.get_attribute("aria-label") for e in ways]
    assert browser.execute_script(
        "const line = document.querySelector('tr[data-executable=\"BTC\"]'); return line.previousElementSibling.dataset.matrix") == "BTC"
    assert browser.find_element(By.ID, "coin-detail").get_attribute("hidden"), "the coin page stays closed"
    # A new order moves the rows: the line follows its row.
    browser.find_element(By.CSS_SELECTOR, 'th[data-matrix-exchange="upbit"]').click()
    wait(browser, lambda d: d.execute_script(
        "const line = document.querySelector('tr[data-executable=\"BTC\"]'); return line && line.previousElementSibling.dataset.matrix === 'BTC'"))
    # Sorted by a premium, rows move every few seconds: a tap at a row's place could land on its
    # neighbour, so the row itself takes the tap.
    row = browser.find_element(By.CSS_SELECTOR, '#matrix-rows tr[data-matrix="BTC"]')
    browser.execute_script("arguments[0].click()", row)
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, 'tr[data-executable="BTC"]'))
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", label)
    label.click()
    row = browser.find_element(By.CSS_SELECTOR, '#matrix-rows tr[data-matrix="BTC"]')
    browser.execute_script("arguments[0].click()", row)
    wait(browser, lambda d: not d.find_element(By.ID, "coin-detail").get_attribute("hidden"))


def test_the_coin_page_has_its_premium_history(server, browser):
    """A KRW market's page has its 김프 section with the ranges: the server's line once a minute is
    recorded, and until then the words that say nothing is recorded yet (never an empty box)."""
    browser.get(server.url + "/coin/KRW-BTC")
    section = wait(browser, lambda d: not d.find_element(By.ID, "premium-history").get_attribute("hidden")
                   and d.find_element(By.ID, "premium-history"), timeout=20)
    assert section.find_element(By.ID, "premium-history-title").text.startswith("김프")
    assert section.find_element(By.CSS_SELECTOR, '[data-history-range="24h"]').get_attribute("aria-pressed") == "true"
    chart = section.find_element(By.ID, "premium-history-chart").get_attribute("innerHTML")
    note = section.find_element(By.ID, "premium-history-note").text
    assert ("<svg" in chart) if section.get_attribute("data-points") not in ("0", "1") else ("기록" in note or "<svg" in chart)
    week = section.find_element(By.CSS_SELECTOR, '[data-history-range="7d"]')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", week)
    week.click()
    wait(browser, lambda d: week.get_attribute("aria-pressed") == "true")


def test_the_premium_column_against_okx(server, browser):
    """The 김프 column's venue, chosen on the 김프 tab: the board's column head names OKX, ADA (another coin
    under OKX's ticker) shows no figure while its Binance premium does, and the choice stays on the
    device after a reload."""
    open_board(browser, server)
    search = browser.find_element(By.ID, "search")
    search.send_keys("ADA")
    ada = f'{ROW}[data-market="KRW-ADA"] td.premium'
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ada).text.endswith("%"), timeout=20)
    open_tab(browser, "premium")
    venue = Select(browser.find_element(By.ID, "premium-venue"))
    assert [o.get_attribute("value") for o in venue.options] == ["binance", "okx", "bybit"]
    assert venue.first_selected_option.get_attribute("value") == "binance"
    venue.select_by_value("okx")
    open_tab(browser, "exchange")
    assert browser.find_element(By.ID, "premium-col-venue").text.strip() == "OKX"
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ada).text == "-", timeout=20)
    browser.find_element(By.ID, "search").send_keys(Keys.BACKSPACE * 3)
    wait(browser, lambda d: sum(text.endswith("%") for text in premiums(d)) > 20, timeout=20)
    browser.refresh()
    wait(browser, lambda d: Select(d.find_element(By.ID, "premium-venue")).first_selected_option.get_attribute("value") == "okx")
    wait(browser, lambda d: sum(text.endswith("%") for text in premiums(d)) > 20, timeout=20)
    browser.find_element(By.ID, "search").send_keys("ADA")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ada) and d.find_element(By.CSS_SELECTOR, ada).text == "-", timeout=20)
    open_tab(browser, "premium")
    Select(browser.find_element(By.ID, "premium-venue")).select_by_value("binance")
    open_tab(browser, "exchange")
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ada).text.endswith("%"), timeout=20)
    assert browser.find_element(By.ID, "premium-col-venue").text == ""
