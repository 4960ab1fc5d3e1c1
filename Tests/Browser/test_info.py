"""The 코인정보 tab and the coin detail page in a real headless Chromium."""
import re
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from conftest import screenshot, open_tab
from test_board import open_board, wait


def open_info(driver, server):
    open_board(driver, server)
    open_tab(driver, "info")
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#trending-coins [data-coin-id]")) == 15)


def search_requests(driver):
    return driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/api/search'))")


def test_trending_search_debounce_detail_and_stars(server, browser):
    open_info(browser, server)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#trending-nfts [data-nft-id]")) == 7
    floors = [li.find_elements(By.CSS_SELECTOR, "span.num")[0].text
              for li in browser.find_elements(By.CSS_SELECTOR, "#trending-nfts [data-nft-id]")]
    assert all(re.fullmatch(r"-|[\d,]+(\.\d{1,4})?( [A-Z]+)?", floor) for floor in floors), floors
    first = browser.find_element(By.CSS_SELECTOR, "#trending-coins [data-coin-id]")
    assert "%" in first.text

    # Typing fires one request, after the pause. The three keys go in one WebDriver command: one
    # command per key took longer than the 300 ms pause between keys on a loaded machine.
    box = browser.find_element(By.ID, "coin-search")
    box.send_keys("bit")
    assert search_requests(browser) == [], "nothing is sent while typing"
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#result-list li")) > 0)
    assert len(search_requests(browser)) == 1 and search_requests(browser)[0].endswith("q=bit")
    browser.find_element(By.CSS_SELECTOR, '[data-result-tab="exchanges"]').click()
    wait(browser, lambda d: any("Bithumb" in li.text for li in d.find_elements(By.CSS_SELECTOR, "#result-list li")))
    browser.find_element(By.CSS_SELECTOR, '[data-result-tab="coins"]').click()

    # Star a coin from the results.
    star = wait(browser, EC.element_to_be_clickable((By.CSS_SELECTOR, '#result-list li[data-result-id="bitcoin"] [data-action="favorite"]')))
    star.click()
    wait(browser, EC.visibility_of_element_located((By.CSS_SELECTOR, ".toast")))
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '#result-list li[data-result-id="bitcoin"] [data-action="favorite"]').get_attribute("aria-pressed") == "true")

    # The detail page draws the chart; the range buttons change it.
    browser.find_element(By.CSS_SELECTOR, '#result-list li[data-result-id="bitcoin"] .grow').click()
    detail = wait(browser, EC.visibility_of_element_located((By.ID, "coin-detail")))
    assert detail.get_attribute("data-coin-id") == "bitcoin"
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "svg#price-chart[data-range='7d']"))
    assert "Bitcoin" in browser.find_element(By.ID, "detail-name").text
    browser.find_element(By.CSS_SELECTOR, '[data-range="1d"]').click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "svg#price-chart[data-range='1d']"))
    assert browser.find_element(By.ID, "detail-star").get_attribute("aria-pressed") == "true"
    browser.find_element(By.ID, "detail-star").click()
    wait(browser, lambda d: d.find_element(By.ID, "detail-star").get_attribute("aria-pressed") == "false")
    screenshot(browser, "coin-detail-375")


def test_board_row_opens_upbit_detail_and_cards_show_favorites(server, browser):
    open_board(browser, server)
    browser.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-ETH"] [data-action="favorite"]').click()
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-ETH"] [data-action="favorite"]').get_attribute("aria-pressed") == "true")
    browser.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-BTC"] td:nth-child(2)').click()
    detail = wait(browser, EC.visibility_of_element_located((By.ID, "coin-detail")))
    assert detail.get_attribute("data-coin-id") == "KRW-BTC"
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "svg#price-chart"))
    wait(browser, lambda d: "비트코인" in d.find_element(By.ID, "detail-name").text)
    browser.find_element(By.ID, "detail-back").click()
    open_tab(browser, "info")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#favorite-cards [data-coin-id="KRW-ETH"]'))
    screenshot(browser, "coin-info-375")
