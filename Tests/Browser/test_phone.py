"""The phone app in a real headless Chromium (375×812, Korean): the bottom bar of five and 더보기,
the desktop's one row of tabs, the coin picker's 초성 search, a refusal under its field, the coin
page's bell, and 김프 as a column the person switches."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import Chromium, open_tab, tap
from test_addresses import path
from test_board import wait, open_board

BAR = ".tabs > .tab-group > [role=tab], #more-button"


def shown(driver, selector):
    return driver.execute_script("""
        return [...document.querySelectorAll(arguments[0])].filter(e => e.offsetParent !== null || getComputedStyle(e).position === 'fixed')
          .filter(e => e.getBoundingClientRect().height > 0).map(e => e.dataset.tab || e.id)""", selector)


def test_the_bottom_bar_holds_five_and_more_holds_the_rest(server, browser):
    open_board(browser, server)
    assert shown(browser, BAR) == ["exchange", "favorites", "info", "portfolio", "more-button"]
    assert shown(browser, "#more-sheet [role=tab]") == [], "the sheet is closed"
    bar = browser.execute_script("return document.querySelector('#tabs').getBoundingClientRect().bottom - innerHeight")
    assert abs(bar) <= 1, "the bar sits on the bottom edge"
    browser.find_element(By.ID, "more-button").click()
    wait(browser, lambda d: shown(d, "#more-sheet [role=tab]") == ["compare", "premium", "ranking", "alerts", "wallets", "notices", "events", "profile"])
    assert browser.find_element(By.ID, "more-button").get_attribute("aria-expanded") == "true"
    browser.find_element(By.CSS_SELECTOR, "#more-sheet [data-tab=compare]").click()
    wait(browser, lambda d: path(d) == "/compare" and d.find_element(By.ID, "compare-panel").is_displayed())
    assert shown(browser, "#more-sheet [role=tab]") == [], "choosing closes the sheet"
    assert "current" in browser.find_element(By.ID, "more-button").get_attribute("class"), "더보기 stands for 비교"
    # 코인정보 holds the ranking: switched inside it, the bar's 코인정보 stays marked.
    open_tab(browser, "info")
    browser.find_element(By.CSS_SELECTOR, "[data-info-view=ranking]").click()
    wait(browser, lambda d: path(d) == "/ranking" and d.find_element(By.ID, "ranking-panel").is_displayed())
    assert "current" in browser.find_element(By.CSS_SELECTOR, ".tabs > .tab-group [data-tab=info]").get_attribute("class")
    browser.back()
    wait(browser, lambda d: path(d) == "/info" and d.find_element(By.ID, "info-panel").is_displayed())
    browser.back()
    wait(browser, lambda d: path(d) == "/compare" and d.find_element(By.ID, "compare-panel").is_displayed())
    # Settings in the sheet: the language.
    browser.find_element(By.ID, "more-button").click()
    wait(browser, lambda d: d.find_element(By.ID, "setting-lang").is_displayed())
    browser.find_element(By.ID, "setting-lang").click()
    wait(browser, lambda d: d.execute_script("return document.documentElement.lang") == "en")
    assert browser.find_element(By.CSS_SELECTOR, "#more-button .tab-label").text == "More"


def test_a_desktop_keeps_one_row_of_tabs_at_the_top(server):
    driver = Chromium.tab(1280, 900)
    open_board(driver, server)
    tabs = shown(driver, "[role=tab][data-tab]")
    assert tabs == ["exchange", "favorites", "info", "portfolio", "compare", "premium", "ranking", "alerts", "wallets", "notices", "events", "profile"]
    assert not driver.find_element(By.ID, "more-button").is_displayed()
    tops = driver.execute_script("return [...document.querySelectorAll('[role=tab][data-tab]')].map(e => Math.round(e.getBoundingClientRect().top))")
    assert len(set(tops)) == 1 and tops[0] < 100, f"one row under the top bar: {tops}"


def test_the_coin_picker_finds_a_market_by_its_initials(server, browser):
    browser.get(server.url + "/portfolio")
    field = wait(browser, lambda d: d.find_element(By.ID, "tx-market") if d.find_element(By.ID, "tx-market").is_displayed() else None)
    assert field.get_attribute("role") == "combobox"
    field.send_keys("ㅂㅌ")
    wait(browser, lambda d: "비트코인" in d.find_element(By.CSS_SELECTOR, '#tx-market-options [data-market="KRW-BTC"]').text)

    def choose(d):
        # The list is drawn anew as answers come (a stale option means "look again").
        tap(d, d.find_element(By.CSS_SELECTOR, '#tx-market-options [data-market="KRW-BTC"]'))
        return field.get_attribute("value") == "KRW-BTC"
    wait(browser, choose)
    assert browser.find_element(By.ID, "tx-market-picked").text == "비트코인"
    # The keyboard: type, arrow to the first, Enter takes it (and does not submit the form).
    field.clear()
    field.send_keys("이더리")
    # The answer for what was typed (not the list shown on focus, which may hold it too).
    wait(browser, lambda d: d.execute_script("return document.querySelector('#tx-market-options li')?.dataset.market") == "KRW-ETH"
         and d.find_elements(By.CSS_SELECTOR, '#tx-market-options [data-market="KRW-ETC"]'))
    field.send_keys(Keys.ARROW_DOWN)
    field.send_keys(Keys.ENTER)
    wait(browser, lambda d: field.get_attribute("value").startswith("KRW-ETH"))
    assert not browser.find_element(By.ID, "tx-error").is_displayed()


def test_a_refusal_is_shown_under_the_field_it_is_about(server, browser):
    browser.get(server.url + "/alerts")
    wait(browser, lambda d: d.find_element(By.ID, "alert-market").is_displayed())
    browser.find_element(By.ID, "alert-market").send_keys("KRW-BTC")
    browser.find_element(By.ID, "alert-price").send_keys("abc")
    tap(browser, browser.find_element(By.ID, "alert-submit"))
    price = browser.find_element(By.ID, "alert-price")
    wait(browser, lambda d: price.get_attribute("aria-invalid") == "true")
    message = browser.find_element(By.ID, price.get_attribute("aria-errormessage"))
    assert message.is_displayed() and "가격" in message.text, message.text
    assert price.find_element(By.XPATH, "ancestor::label").find_element(By.CLASS_NAME, "field-error") == message
    price.send_keys("1")
    wait(browser, lambda d: price.get_attribute("aria-invalid") is None, timeout=5)


def test_the_bell_on_a_coin_page_sets_an_alert_there(server, browser):
    browser.get(server.url + "/coin/KRW-ETH?exchange=korbit")
    bell = wait(browser, lambda d: d.find_element(By.ID, "detail-alert") if d.find_element(By.ID, "detail-alert").is_displayed() else None)
    assert bell.get_attribute("aria-label") == "알림 설정"
    bell.click()
    wait(browser, lambda d: path(d) == "/alerts" and d.find_element(By.ID, "alerts-panel").is_displayed())
    assert browser.find_element(By.ID, "alert-market").get_attribute("value") == "KRW-ETH"
    assert browser.find_element(By.ID, "alert-exchange").get_attribute("value") == "korbit"
    assert browser.switch_to.active_element == browser.find_element(By.ID, "alert-price")
    browser.switch_to.active_element.send_keys("999999999")
    tap(browser, browser.find_element(By.ID, "alert-submit"))
    # Every rule names its exchange as the page does (issue 83: Upbit's too).
    wait(browser, lambda d: any("KRW-ETH · Korbit" in li.text for li in d.find_elements(By.CSS_SELECTOR, "#alert-list li")))
    # A CoinGecko coin's page has no market to watch: no bell.
    browser.get(server.url + "/coin/bitcoin")
    wait(browser, lambda d: d.find_element(By.ID, "coin-detail").is_displayed())
    assert not browser.find_element(By.ID, "detail-alert").is_displayed()


def test_the_premium_column_is_the_persons_choice(server, browser):
    open_board(browser, server)
    header = browser.find_element(By.CSS_SELECTOR, '[data-sort="premium"]')
    switch = browser.find_element(By.ID, "premium-column")
    assert header.is_displayed() and switch.get_attribute("aria-pressed") == "true", "shown where there is room (375 px)"
    switch.click()
    wait(browser, lambda d: not header.is_displayed() and switch.get_attribute("aria-pressed") == "false")
    browser.refresh()
    wait(browser, lambda d: d.find_element(By.ID, "premium-column").get_attribute("aria-pressed") == "false")
    assert not browser.find_element(By.CSS_SELECTOR, '[data-sort="premium"]').is_displayed(), "the choice is kept"
    # Unset, the narrowest phones leave it off; the person can still switch it on there.
    browser.execute_script("localStorage.removeItem('sise.premiumColumn')")
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 320, "height": 640, "deviceScaleFactor": 1, "mobile": True})
    browser.refresh()
    switch = wait(browser, lambda d: d.find_element(By.ID, "premium-column"))
    wait(browser, lambda d: switch.get_attribute("aria-pressed") == "false")
    switch.click()
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '[data-sort="premium"]').is_displayed())
