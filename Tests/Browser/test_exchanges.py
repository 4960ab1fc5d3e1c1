"""Every exchange beside Upbit in the page: the exchange switch (written from the server's list),
a Korbit favorite, swiping between tabs, and the cross-exchange compare view — real Chromium,
`sise serve --demo`."""
import json
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from conftest import open_tab
from test_board import wait, row_count, markets, column, number, open_board

ROW = "#rows tr[data-market]"


def exchanges_of_rows(driver):
    return set(driver.execute_script(f"return Array.from(document.querySelectorAll('{ROW}'), r => r.dataset.exchange)"))


def switch(driver, exchange):
    button = driver.find_element(By.CSS_SELECTOR, f'[data-exchange="{exchange}"]')
    button.click()
    wait(driver, lambda d: button.get_attribute("aria-pressed") == "true")
    wait(driver, lambda d: row_count(d) > 50 and exchanges_of_rows(d) == {exchange}, timeout=20)


def server_exchanges(server):
    with urllib.request.urlopen(server.url + "/api/exchanges", timeout=10) as response:
        return json.load(response)


def test_the_switch_and_every_list_of_exchanges_come_from_the_server(server, browser):
    listed = server_exchanges(server)
    ids = [entry["id"] for entry in listed]
    assert "coinone" in ids and [e["id"] for e in listed if e["default"]] == ["upbit"]
    open_board(browser, server)
    buttons = browser.find_elements(By.CSS_SELECTOR, "#exchanges [data-exchange]")
    assert [b.get_attribute("data-exchange") for b in buttons] == ids
    assert [b.text for b in buttons] == [entry["name"] for entry in listed]
    assert [b.get_attribute("aria-pressed") for b in buttons] == ["true" if e["default"] else "false" for e in listed]
    for select in ("#tx-exchange", "#alert-exchange"):
        options = browser.find_elements(By.CSS_SELECTOR, f"{select} option")
        assert [o.get_attribute("value") for o in options] == ids
    # The last exchange of the list (Coinone) is a board like the others, with only its quotes.
    last = listed[-1]
    switch(browser, last["id"])
    shown = [b.get_attribute("data-quote") for b in browser.find_elements(By.CSS_SELECTOR, "[data-quote]") if b.is_displayed()]
    assert shown == last["quotes"]


def test_switch_exchange_sort_search_star_and_clear(server, browser):
    open_board(browser, server)
    assert exchanges_of_rows(browser) == {"upbit"}
    switch(browser, "korbit")
    # Korbit has only KRW: the other quote tabs hide.
    assert not browser.find_element(By.CSS_SELECTOR, '[data-quote="BTC"]').is_displayed()
    header = browser.find_element(By.CSS_SELECTOR, '[data-sort="price"]')
    header.click()
    wait(browser, lambda d: (p := [number(t) for t in column(d, ".price")]) == sorted(p, reverse=True) and len(p) > 50)
    search = browser.find_element(By.ID, "search")
    search.send_keys("ㅂㅌ")
    wait(browser, lambda d: "KRW-BTC" in markets(d) and row_count(d) < 20)
    star = browser.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-BTC"] [data-action="favorite"]')
    star.click()
    wait(browser, lambda d: star.get_attribute("aria-pressed") == "true")
    search.clear()
    search.send_keys(" ")
    search.clear()
    # The favorite is Korbit's: the Upbit board's BTC is not starred.
    switch(browser, "upbit")
    upbit_star = browser.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-BTC"] [data-action="favorite"]')
    assert upbit_star.get_attribute("aria-pressed") == "false"
    # The choice is remembered on this device.
    switch(browser, "korbit")
    browser.refresh()
    wait(browser, lambda d: row_count(d) > 50 and exchanges_of_rows(d) == {"korbit"}, timeout=20)
    open_tab(browser, "favorites")
    wait(browser, lambda d: markets(d) == ["KRW-BTC"])
    venue = browser.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-BTC"] .venue').text
    assert "Korbit" in venue, "each favorite says where it trades"
    browser.find_element(By.ID, "clear-favorites").click()
    dialog = wait(browser, EC.visibility_of_element_located((By.ID, "confirm-dialog")))
    dialog.find_element(By.CSS_SELECTOR, '[data-action="confirm"]').click()
    wait(browser, lambda d: row_count(d) == 0)


def swipe(driver, dx):
    driver.execute_script("""
        const panel = document.getElementById('board-panel');
        const make = (type, x) => new TouchEvent(type, {changedTouches: [new Touch({identifier: 1, target: panel, clientX: x, clientY: 300})], bubbles: true});
        panel.dispatchEvent(make('touchstart', 200));
        panel.dispatchEvent(make('touchend', 200 + arguments[0]));
    """, dx)


def test_swipe_moves_between_exchange_and_favorites_tabs(server, browser):
    open_board(browser, server)
    tab = lambda d, name: d.find_element(By.CSS_SELECTOR, f'[data-tab="{name}"]').get_attribute("aria-selected") == "true"
    swipe(browser, -120)
    wait(browser, lambda d: tab(d, "favorites"))
    swipe(browser, 120)
    wait(browser, lambda d: tab(d, "exchange"))
    swipe(browser, -20)
    assert tab(browser, "exchange"), "a short move is not a swipe"


def test_compare_view_is_live(server, browser):
    open_board(browser, server)
    open_tab(browser, "compare")
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#compare-rows tr[data-compare]")) > 50, timeout=30)
    btc = browser.find_element(By.CSS_SELECTOR, '#compare-rows tr[data-compare="BTC"]')
    cells = btc.find_elements(By.CSS_SELECTOR, "td[data-venue]")
    assert [c.get_attribute("data-venue") for c in cells] == [entry["id"] for entry in server_exchanges(server)]
    assert len(btc.find_elements(By.CSS_SELECTOR, "td.high")) == 1 and len(btc.find_elements(By.CSS_SELECTOR, "td.low")) == 1
    gaps = browser.execute_script(
        "return Array.from(document.querySelectorAll('#compare-rows tr[data-compare] td.gap'), e => e.textContent)")
    values = [float(g.rstrip("%")) for g in gaps if g.endswith("%")]
    assert values == sorted(values, reverse=True) and values[0] > 0
    first = btc.find_element(By.CSS_SELECTOR, 'td[data-venue="upbit"]').text
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '#compare-rows tr[data-compare="BTC"] td[data-venue="upbit"]').text != first,
         timeout=20)
