"""Every view has an address (History API): deep links and reloads keep the view, back and
forward move between views, a tap anywhere on a row opens its coin, the keyboard works the board."""
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import open_tab, tap
from test_board import wait, open_board, row_count


def live_board(driver):
    return driver.execute_script("return document.getElementById('last-board').hidden")


def markets(driver):
    return driver.execute_script("return [...document.querySelectorAll('#rows tr[data-market]')].map(r => r.dataset.market)")


def path(driver):
    return driver.execute_script("return location.pathname + location.search")


def test_deep_links_back_forward_and_reload(server, browser):
    browser.get(server.url + "/coin/KRW-BTC")
    wait(browser, lambda d: d.find_element(By.ID, "coin-detail").is_displayed() and "BTC" in d.find_element(By.ID, "detail-name").text)
    browser.get(server.url + "/?quote=BTC&sort=change&order=asc")
    wait(browser, lambda d: row_count(d) > 10)
    assert browser.find_element(By.CSS_SELECTOR, '[data-quote="BTC"]').get_attribute("aria-pressed") == "true"
    assert browser.find_element(By.CSS_SELECTOR, '[data-sort="change"]').get_attribute("aria-sort") == "ascending"
    assert all(m.startswith("BTC-") for m in browser.execute_script("return [...document.querySelectorAll('#rows tr[data-market]')].map(r => r.dataset.market)"))
    browser.find_element(By.CSS_SELECTOR, '[data-quote="KRW"]').click()
    wait(browser, lambda d: path(d) == "/?sort=change&order=asc")
    open_tab(browser, "ranking")
    wait(browser, lambda d: path(d) == "/ranking")
    open_tab(browser, "portfolio")
    wait(browser, lambda d: path(d) == "/portfolio" and d.find_element(By.ID, "portfolio-panel").is_displayed())
    browser.back()
    wait(browser, lambda d: path(d) == "/ranking" and d.find_element(By.ID, "ranking-panel").is_displayed())
    browser.back()
    wait(browser, lambda d: d.find_element(By.ID, "board-panel").is_displayed() and path(d).startswith("/?"))
    browser.forward()
    wait(browser, lambda d: d.find_element(By.ID, "ranking-panel").is_displayed())
    browser.refresh()
    wait(browser, lambda d: d.find_element(By.ID, "ranking-panel").is_displayed() and path(d) == "/ranking")
    # An unknown page is a real 404 with a way home.
    browser.get(server.url + "/no/such/page")
    assert "404" in browser.title and browser.find_element(By.CSS_SELECTOR, 'a[href="/"]')


def test_a_tap_anywhere_on_a_row_and_the_keyboard_open_the_coin(server, browser):
    open_board(browser, server)
    # The price cell, not the name: the whole row is the target.
    browser.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-ETH"] td.price').click()
    wait(browser, lambda d: d.find_element(By.ID, "coin-detail").is_displayed() and path(d) == "/coin/KRW-ETH")
    browser.back()
    wait(browser, lambda d: d.find_element(By.ID, "board-panel").is_displayed() and not d.find_element(By.ID, "coin-detail").is_displayed())
    # The star still only toggles the favorite.
    tap(browser, browser.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-XRP"] [data-action="favorite"]'))
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-XRP"] [data-action="favorite"]').get_attribute("aria-pressed") == "true")
    assert not browser.find_element(By.ID, "coin-detail").is_displayed()
    # Keyboard (on a board sorted by name, so rows stay put): focus the first row, arrow down, Enter opens that coin.
    browser.get(server.url + "/?sort=name&order=asc")
    # The board kept on the device shows first, in the order it was saved in: wait for the live one.
    wait(browser, lambda d: row_count(d) > 100 and live_board(d))
    first, second = browser.execute_script("const rows = document.querySelectorAll('#rows tr[data-market]'); rows[0].focus(); return [rows[0].dataset.market, rows[1].dataset.market]")
    browser.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    assert browser.switch_to.active_element.get_attribute("data-market") == second
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    wait(browser, lambda d: path(d) == f"/coin/{second}")


def test_the_focused_row_keeps_the_focus_when_a_new_order_takes_it_out_of_the_window(server, browser):
    # The page asks full rows only for the ranks around the screen; a new snapshot sends those and
    # the order of all. The row the keyboard is on must stay, wherever the new order puts it.
    browser.get(server.url + "/?sort=name&order=asc")
    wait(browser, lambda d: row_count(d) > 100 and live_board(d))
    first = markets(browser)[0]
    browser.execute_script("document.querySelector(`#rows tr[data-market='${arguments[0]}']`).focus({ preventScroll: true })", first)
    # A script's click leaves the focus where it is; names run 가나다 first, then the reverse.
    browser.execute_script("document.querySelector('[data-sort=name]').click()")
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '[data-sort="name"]').get_attribute("aria-sort") == "descending" and markets(d)[-1] == first)
    assert browser.switch_to.active_element.get_attribute("data-market") == first
    browser.switch_to.active_element.send_keys(Keys.ARROW_UP)
    assert browser.switch_to.active_element.get_attribute("data-market") == markets(browser)[-2]


def test_installable_and_opens_offline_with_the_last_board_marked_stale(server, browser):
    open_board(browser, server)
    # The manifest Chromium checks for installing: PNG icons 192 and 512, a maskable one, standalone.
    manifest = browser.execute_async_script("fetch('/manifest.webmanifest').then(r => r.json()).then(arguments[0])")
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        if icon["type"] == "image/png":
            size = browser.execute_async_script(
                "const i = new Image(); i.onload = () => arguments[1]([i.naturalWidth, i.naturalHeight]); i.src = arguments[0];", icon["src"])
            assert f"{size[0]}x{size[1]}" == icon["sizes"]
    # The service worker controls the page, and the board has been kept on the device.
    wait(browser, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), timeout=20)
    # Chromium's own install checks find nothing missing.
    errors = browser.execute_cdp_cmd("Page.getInstallabilityErrors", {}).get("installabilityErrors", [])
    assert errors == [], errors
    wait(browser, lambda d: d.execute_script("return !!localStorage.getItem('sise.lastBoard')"), timeout=20)
    # The shell is cached once, as the worker installs — every file the page loaded, at the address
    # it loaded it from — and a reload reads the network without writing the cache again.
    kept = "return caches.keys().then(k => caches.open(k[0])).then(c => c.keys().then(r => Promise.all(r.map(q => c.match(q).then(a => [new URL(q.url).pathname, a.headers.get('date')])))))"
    cached = dict(browser.execute_script(kept))
    loaded = browser.execute_script("return performance.getEntriesByType('resource').map(e => new URL(e.name)).filter(u => u.origin === location.origin && /\\.(js|css|json|png|svg|webmanifest)$/.test(u.pathname)).map(u => u.pathname)")
    assert "/" in cached and loaded and set(loaded) <= set(cached), set(loaded) - set(cached)
    time.sleep(1.1)  # a rewritten entry would carry a later Date
    open_board(browser, server)
    assert dict(browser.execute_script(kept)) == cached
    first = browser.execute_script("return document.querySelector('#rows tr[data-market]').dataset.market")
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        browser.refresh()
        wait(browser, lambda d: d.find_element(By.ID, "last-board").is_displayed(), timeout=20)
        assert "전" in browser.find_element(By.ID, "last-board").text
        assert row_count(browser) > 100
        assert browser.find_element(By.CSS_SELECTOR, f'#rows tr[data-market="{first}"]').get_attribute("class").count("stale") == 1
        assert browser.find_element(By.ID, "status").get_attribute("data-state") != "live"
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    # Online again: live data replaces the kept board and the note goes.
    wait(browser, lambda d: not d.find_element(By.ID, "last-board").is_displayed(), timeout=30)


def test_a_phone_gets_full_rows_for_what_it_shows_and_the_rest_on_scrolling(server, browser):
    open_board(browser, server)
    pending = lambda d: d.execute_script("return document.querySelectorAll('#rows tr[data-pending]').length")
    # Far below the fold, ranks wait as placeholders (in order) until they come into view.
    wait(browser, lambda d: pending(d) > 50)
    last = browser.execute_script("const rows = document.querySelectorAll('#rows tr[data-market]'); return rows[rows.length - 1].dataset.market")
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    wait(browser, lambda d: d.execute_script("const tr = document.querySelector(`#rows tr[data-market='${arguments[0]}']`); return tr && !tr.dataset.pending", last))
    price = browser.execute_script("return document.querySelector(`#rows tr[data-market='${arguments[0]}'] td.price`).textContent", last)
    assert price not in ("", "…")
