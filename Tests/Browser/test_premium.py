"""The kimchi premium in real Chromium against `sise serve --demo`: the 김프 column, sorting by it
(3-state, unknown last), the market's 김프 with its source, and each venue's premium on 비교."""
from selenium.webdriver.common.by import By

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
    bar = wait(browser, lambda d: d.find_element(By.ID, "premium-source").text and d.find_element(By.ID, "premium-bar"))
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
