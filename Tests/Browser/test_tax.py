"""The portfolio's 세금 tab in real Chromium at phone width against `sise serve --demo`, before
2027-01-01: a 2026 purchase in, the 2027 preview out — the deemed price the exchanges' live
average (and said so), the notice, every figure whole on a 375 px screen, a method switch, and the
accountant's CSV links."""
from selenium.webdriver.common.by import By

from conftest import fill, open_tab, tap
from test_board import wait, open_board


def test_the_tax_tab_previews_2027(server, browser):
    open_board(browser, server)
    open_tab(browser, "portfolio")
    wait(browser, lambda d: d.find_element(By.ID, "portfolio-empty").is_displayed())
    fill(browser, "#tx-market", "KRW-BTC")
    fill(browser, "#tx-quantity", "0.5")
    fill(browser, "#tx-price", "1000")
    browser.execute_script("document.getElementById('tx-at').value = '2026-06-01T09:00'")
    tap(browser, browser.find_element(By.ID, "tx-submit"))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#portfolio-rows tr[data-market="KRW-BTC"]'))

    tap(browser, browser.find_element(By.ID, "portfolio-view-tax"))
    card = '#tax-coins li[data-coin="BTC"]'
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, card))
    assert browser.find_element(By.ID, "portfolio-holdings").is_displayed() is False
    assert browser.find_element(By.ID, "portfolio-view-tax").get_attribute("aria-selected") == "true"
    text = browser.find_element(By.CSS_SELECTOR, card).text
    assert "의제취득가" in text, "a 1,000원 purchase opens 2027 at the deemed price"
    assert "upbit" in text and "의제가격" in text, "the exchanges that formed the average are named"
    warnings = browser.find_element(By.ID, "tax-warnings").text
    assert "지금 시세의 평균" in warnings and "잠정" in warnings
    assert "세무 자문이 아닙니다" in browser.find_element(By.ID, "tax-notice").text
    total = browser.find_element(By.CSS_SELECTOR, '#tax-totals [data-total="total"]').text
    assert total.endswith("원")
    assert browser.find_element(By.ID, "tax-sale").is_displayed(), "this year: what a sale now would add"
    # No figure is cut or covered, and nothing widens the page.
    cut = browser.execute_script("""
        const cut = [...document.querySelectorAll('#portfolio-tax dd, #portfolio-tax .tax-coin-head span')]
          .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent);
        return [cut, document.documentElement.scrollWidth <= window.innerWidth];
    """)
    assert cut == [[], True], cut
    # Another method asks again; the CSV links follow it.
    browser.find_element(By.CSS_SELECTOR, '#tax-method option[value="fifo"]').click()
    wait(browser, lambda d: "method=fifo" in d.find_element(By.ID, "tax-export-coins").get_attribute("href"))
    assert "rows=transactions" in browser.find_element(By.ID, "tax-export-transactions").get_attribute("href")
    tap(browser, browser.find_element(By.ID, "portfolio-view-holdings"))
    assert browser.find_element(By.ID, "portfolio-holdings").is_displayed()
