"""The 랭킹 tab in real Chromium against `sise serve --demo`: CoinGecko's ranking (the
simulator's), the global bar, 초성 search, the 3-state sort, a star, paging, and a row that opens
its coin."""
import pathlib
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from conftest import Chromium, open_tab, tap, texts
from test_board import wait, open_board

ROW = "#ranking-rows tr[data-coin]"
CHECKS = (pathlib.Path(__file__).parent / "layout_checks.js").read_text()


def percent(text):
    return float(text.replace("%", "").replace("+", ""))


def count(driver) -> int:
    return driver.execute_script("return document.querySelectorAll(arguments[0]).length", ROW)


def open_ranking(browser, server):
    open_board(browser, server)
    open_tab(browser, "ranking")
    wait(browser, lambda d: count(d) >= 100, timeout=20)


def test_ranking_global_bar_search_sort_star_and_pages(server, browser):
    open_ranking(browser, server)
    first = browser.find_elements(By.CSS_SELECTOR, ROW)[0]
    assert first.get_attribute("data-coin") == "bitcoin" and first.get_attribute("data-rank") == "1"
    assert "비트코인" in first.text and "BTC" in first.text
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '[data-global="totalMarketCap"]').text.endswith("조"))
    assert re.match(r"^\d+\.\d\d%$", browser.find_element(By.CSS_SELECTOR, '[data-global="btcDominance"]').text)
    # 초성 within the page.
    browser.find_element(By.ID, "ranking-search").send_keys("ㅂㅌ")
    wait(browser, lambda d: 0 < count(d) < 100)
    names = texts(browser, ROW + " .name")
    assert "비트코인" in names
    browser.find_element(By.ID, "ranking-search").clear()
    browser.execute_script("document.getElementById('ranking-search').dispatchEvent(new Event('input'))")
    wait(browser, lambda d: count(d) == 100)
    # 24h: descending, then ascending, then back to rank order.
    header = browser.find_element(By.CSS_SELECTOR, '[data-rank-sort="change24h"]')
    # Each row's fourth figure (24h), all in one round trip.
    changes = lambda d: [percent(text) for text in d.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0]), r => r.querySelectorAll('td.num')[3].innerText)", ROW)]
    header.click()
    wait(browser, lambda d: header.get_attribute("aria-sort") == "descending")
    values = changes(browser)
    assert values == sorted(values, reverse=True)
    header.click()
    wait(browser, lambda d: header.get_attribute("aria-sort") == "ascending")
    header.click()
    wait(browser, lambda d: header.get_attribute("aria-sort") == "none")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ROW)[0].get_attribute("data-rank") == "1")
    # A star by CoinGecko id.
    star = browser.find_element(By.CSS_SELECTOR, '#ranking-rows tr[data-coin="ethereum"] [data-action="favorite"]')
    star.click()
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '#ranking-rows tr[data-coin="ethereum"] [data-action="favorite"]')
         .get_attribute("aria-pressed") == "true")
    favorites = browser.execute_async_script(
        "const done = arguments[0]; fetch('/api/favorites').then(r => r.json()).then(b => done(b.favorites));")
    assert "ethereum" in favorites
    # The next page starts at 101.
    tap(browser, browser.find_element(By.ID, "ranking-next"))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ROW)[0].get_attribute("data-rank") == "101")


def test_a_ranking_row_opens_its_coin(server, browser):
    open_ranking(browser, server)
    browser.find_element(By.CSS_SELECTOR, '#ranking-rows tr[data-coin="solana"] .name').click()
    detail = wait(browser, EC.visibility_of_element_located((By.ID, "coin-detail")))
    assert detail.get_attribute("data-coin-id") == "solana"
    assert browser.find_element(By.ID, "ranking-panel").get_attribute("hidden") is not None


# The page's own ranking answer with its first coin at the longest figures a row can hold.
LONGEST = """
const original = window.fetch;
window.fetch = async (...args) => {
  const answer = await original(...args);
  if (!String(args[0]).includes('/api/ranking?')) return answer;
  const body = await answer.json();
  const first = body.rows && body.rows[0];
  if (first) Object.assign(first.display, { price: '₩100,000,000', changeRate1h: '+1,000.00%', changeRate24h: '+1,000.00%',
                                             changeRate7d: '+1,000.00%', premium: '+1,000.00%', tone24h: 'rise' });
  return new Response(JSON.stringify(body), { status: answer.status, headers: answer.headers });
};
"""


@pytest.mark.parametrize("width", [320, 360, 390])
def test_the_longest_figures_a_row_can_hold_are_never_cut(server, width):
    """A coin up a thousand percent in a day at a price of 100 million and a premium of +1,000.00 %,
    as the server would write them, drawn by the page at the narrowest phones: every figure whole
    and the page held to the screenshot suite's layout rules (at 320 px "+1,000.00%" was cut by
    3 px, and the price's premium line by 15)."""
    driver = Chromium.tab(width, 700)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LONGEST})
    driver.get(server.url + "/ranking")
    wait(driver, lambda d: count(d) >= 100, timeout=20)
    first = driver.find_elements(By.CSS_SELECTOR, ROW)[0]
    assert "+1,000.00%" in first.text and "100,000,000" in first.text, first.text
    problems = driver.execute_script(CHECKS, True)
    assert not problems, f"{width} px: {problems}"
    # The other rows keep the page's face: only what did not fit was made smaller.
    assert driver.execute_script("return document.querySelectorAll('#ranking-rows tr:not(:first-child) td.tight').length") == 0
