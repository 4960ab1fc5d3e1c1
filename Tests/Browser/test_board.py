"""The web board in a real headless Chromium against `sise serve --demo`."""
import re
import time
import urllib.request

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from conftest import Chromium, screenshot, open_tab

ROW = "#rows tr[data-market]"


def wait(driver, condition, timeout=15, message=""):
    """Asks `condition` of the page until it holds (its value) or `timeout` seconds pass. Live
    pages replace elements while a condition reads them: a stale or missing one means "look
    again". Asked often at first — most conditions hold within moments — then less: each look is
    a round trip through chromedriver and three of Chromium's processes (≈ 7.5 ms of CPU), and
    the suite's pages wait on the server's ticks for minutes in all."""
    deadline = time.monotonic() + timeout
    pause = 0.05
    while True:
        try:
            value = condition(driver)
            if value:
                return value
        except (StaleElementReferenceException, NoSuchElementException):
            pass
        if time.monotonic() >= deadline:
            raise TimeoutException(message)
        time.sleep(min(pause, max(deadline - time.monotonic(), 0)))
        pause = min(pause * 1.5, 0.4)


def rows(driver):
    return driver.find_elements(By.CSS_SELECTOR, ROW)


def row_count(driver) -> int:
    return driver.execute_script(f"return document.querySelectorAll('{ROW}').length")


def markets(driver):
    return driver.execute_script(f"return Array.from(document.querySelectorAll('{ROW}'), r => r.dataset.market)")


def number(text: str) -> float:
    return float(re.sub(r"[^0-9.\-]", "", text) or "nan")


def column(driver, selector):
    # One round trip for the whole column: the board has hundreds of rows.
    return driver.execute_script(
        f"return Array.from(document.querySelectorAll('{ROW} {selector}'), e => e.firstChild ? e.firstChild.textContent : '')")


def live_column(driver, selector):
    """The column of the rows with their figures (a row outside the page's window waits, marked
    `data-pending`, with the last figures it had — or none — until it is scrolled to)."""
    return driver.execute_script(
        f"return Array.from(document.querySelectorAll('{ROW}:not([data-pending]) {selector}'), e => e.firstChild ? e.firstChild.textContent : '')")


def open_board(driver, server):
    driver.get(server.url + "/")
    wait(driver, lambda d: row_count(d) > 100)


def test_rows_appear_and_prices_update(server, browser):
    open_board(browser, server)
    assert browser.find_element(By.CSS_SELECTOR, "#status").get_attribute("data-state") == "live"
    assert browser.find_element(By.ID, "demo-badge").is_displayed()
    assert not browser.find_element(By.ID, "offline-banner").is_displayed()
    first = dict(zip(markets(browser), column(browser, ".price")))
    wait(browser, lambda d: any(first.get(m) not in (None, p) for m, p in zip(markets(d), column(d, ".price"))), timeout=20)


def test_rows_are_updated_in_place_by_ticks_and_snapshots(server, browser):
    # A row and its parts stay the same elements while prices tick and a new snapshot arrives:
    # focus, a screen reader's place and a script's reference survive.
    open_board(browser, server)
    browser.execute_script(
        "window.kept = [...document.querySelectorAll('#rows tr[data-market=\"KRW-BTC\"], #rows tr[data-market=\"KRW-BTC\"] *')]")
    name = browser.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-BTC"] .name')
    price = browser.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-BTC"] .price').text
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-BTC"] .price').text != price, timeout=20)
    browser.find_element(By.CSS_SELECTOR, '[data-sort="price"]').click()
    wait(browser, lambda d: markets(d)[0] == "KRW-BTC")
    assert name.text
    same = browser.execute_script(
        "const now = [...document.querySelectorAll('#rows tr[data-market=\"KRW-BTC\"], #rows tr[data-market=\"KRW-BTC\"] *')];"
        "return now.length === window.kept.length && now.every((e, i) => e === window.kept[i])")
    assert same


def test_header_click_cycles_and_the_order_follows(server, browser):
    open_board(browser, server)
    header = browser.find_element(By.CSS_SELECTOR, '[data-sort="price"]')
    header.click()
    wait(browser, lambda d: header.get_attribute("aria-sort") == "descending")
    wait(browser, lambda d: (p := [number(t) for t in live_column(d, ".price")]) == sorted(p, reverse=True) and len(p) > 10)
    header.click()
    wait(browser, lambda d: header.get_attribute("aria-sort") == "ascending")
    wait(browser, lambda d: (p := [number(t) for t in live_column(d, ".price")]) == sorted(p) and len(p) > 10)
    header.click()
    wait(browser, lambda d: header.get_attribute("aria-sort") == "none")
    # "none" is trade value, highest first.
    wait(browser, lambda d: (v := [number(t) for t in live_column(d, ".value")]) == sorted(v, reverse=True) and len(v) > 10)


def test_initial_consonant_search(server, browser):
    open_board(browser, server)
    browser.find_element(By.ID, "search").send_keys("ㅂㅌ")
    wait(browser, lambda d: 0 < row_count(d) < 60)
    names = column(browser, ".name")
    assert markets(browser), "rows remain"
    assert any("비트코인" in name for name in names)
    assert not any("이더리움" == name for name in names)


def test_favorite_toast_tab_reload_and_restart(server, browser):
    open_board(browser, server)
    star = browser.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-BTC"] [data-action="favorite"]')
    assert star.get_attribute("aria-pressed") == "false"
    star.click()
    toast = wait(browser, EC.visibility_of_element_located((By.CSS_SELECTOR, ".toast")))
    assert "관심 종목에 추가했습니다" in toast.text
    wait(browser, lambda d: star.get_attribute("aria-pressed") == "true")

    def favorites_tab_shows_btc(driver):
        open_tab(driver, "favorites")
        wait(driver, lambda d: markets(d) == ["KRW-BTC"])

    favorites_tab_shows_btc(browser)
    # A reload keeps the view (its address is /favorites).
    browser.refresh()
    wait(browser, lambda d: markets(d) == ["KRW-BTC"])
    assert browser.find_element(By.CSS_SELECTOR, '[data-tab="favorites"]').get_attribute("aria-selected") == "true"
    favorites_tab_shows_btc(browser)

    server.stop()
    server.start()
    browser.get(server.url + "/")
    wait(browser, lambda d: row_count(d) > 100)
    favorites_tab_shows_btc(browser)

    # Clear all, after confirming.
    browser.find_element(By.ID, "clear-favorites").click()
    dialog = wait(browser, EC.visibility_of_element_located((By.ID, "confirm-dialog")))
    assert row_count(browser) == 1, "nothing is removed before confirming"
    dialog.find_element(By.CSS_SELECTOR, '[data-action="confirm"]').click()
    wait(browser, lambda d: row_count(d) == 0)
    wait(browser, lambda d: d.find_element(By.ID, "empty").is_displayed())


def open_pages(server) -> int:
    """The server's count of open /ws connections (its /metrics, open on loopback)."""
    with urllib.request.urlopen(server.url + "/metrics", timeout=5) as answer:
        found = re.search(r"^sise_ws_clients (\S+)$", answer.read().decode(), re.M)
    return int(float(found.group(1))) if found else -1


def test_a_page_left_for_another_lets_go_of_its_connection_and_comes_back_live(server, browser):
    """Chromium keeps a page the person left, frozen, for 뒤로 (its back-forward cache). A
    connection the frozen page kept would stay open on the server, unread — batches piling up for
    nobody, and a server that cannot end until the browser answers its close. The page lets go of
    its connection as it is put away and, shown again, connects at once and is live."""
    open_board(browser, server)
    browser.execute_script("window.__kept = true; addEventListener('pageshow', e => { window.__restored = e.persisted; });")
    # The service worker takes over the page the first time it starts (clients.claim); a page put
    # away before that is dropped from the back-forward cache when it does (Chromium's reason:
    # "serviceworker-claimed") and comes back as a fresh load — not what is tested here.
    wait(browser, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), timeout=20)
    wait(browser, lambda d: open_pages(server) == 1)
    browser.get(server.url + "/coin/KRW-BTC")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#detail-stats dt"), timeout=20)
    wait(browser, lambda d: open_pages(server) == 1, timeout=10)
    browser.back()
    try:
        wait(browser, lambda d: d.execute_script("return window.__restored === true && window.__kept === true"), timeout=10)
    except TimeoutException:
        # Chromium says why it did not keep the page (Navigation API's notRestoredReasons).
        reasons = browser.execute_script(
            "const n = performance.getEntriesByType('navigation')[0]; return n && n.notRestoredReasons ? JSON.stringify(n.notRestoredReasons) : null")
        raise AssertionError(f"the board was not kept for 뒤로 (nothing to check); Chromium's reasons: {reasons}")
    wait(browser, lambda d: d.find_element(By.ID, "status").get_attribute("data-state") == "live", timeout=15)
    wait(browser, lambda d: open_pages(server) == 1, timeout=10)
    before = dict(zip(markets(browser), live_column(browser, ".price")))
    wait(browser, lambda d: dict(zip(markets(d), live_column(d, ".price"))) != before, timeout=15,
         message="the page shown again did not move with the market")


def test_offline_banner_follows_upstream(server, browser):
    open_board(browser, server)
    banner = browser.find_element(By.ID, "offline-banner")
    assert not banner.is_displayed()
    server.faults(wsRefuse=True, wsDropNow=True, errorRate=1, errorStatus=503)
    wait(browser, lambda d: banner.is_displayed(), timeout=20)
    assert "Upbit" in banner.text and "재시도" in banner.text
    assert browser.find_element(By.ID, "status").get_attribute("data-state") == "offline"
    assert row_count(browser) > 100, "the last prices stay on screen"
    server.faults(wsRefuse=False, errorRate=0)
    wait(browser, lambda d: not banner.is_displayed(), timeout=20)
    wait(browser, lambda d: d.find_element(By.ID, "status").get_attribute("data-state") == "live", timeout=20)


def test_hostile_coin_name_is_text(server, browser):
    open_board(browser, server)
    browser.find_element(By.ID, "search").send_keys("XSS")
    wait(browser, lambda d: markets(d) == ["KRW-XSS"])
    assert column(browser, ".name") == ["<img src=x onerror=alert(1)>"]
    browser.find_element(By.ID, "lang-toggle").click()
    wait(browser, lambda d: column(d, ".name") == ["<script>alert('sise')</script>"])
    assert browser.execute_script("return document.querySelectorAll('#rows img, #rows script').length") == 0


def test_screenshots_phone_and_desktop_light_and_dark(server):
    for width, height in ((375, 812), (1280, 900)):
        for dark in (False, True):
            driver = Chromium.tab(width, height, dark=dark)
            open_board(driver, server)
            # The page fits a phone: no sideways scrolling.
            assert driver.execute_script("return document.documentElement.scrollWidth") <= width + 1
            screenshot(driver, f"board-{width}-{'dark' if dark else 'light'}")


def test_a_changed_price_glows_off_the_main_thread_and_not_for_reduced_motion(server, browser):
    """A moved price keeps the tape's outline, and its glow fades as an opacity animation of its
    cell's own layer (a live board cost 41 % of a core in Chromium while the cell's background
    itself was animated; 15 % now: scripts/bench-page.py). A person who asked for reduced motion
    gets the outline alone: no animation runs. Each flash is read as it happens (a mutation
    observer notes, right after the page marks a cell, whether a glow was started on it)."""
    watch = """
      window.__flashes = { marked: 0, glowing: 0 };
      new MutationObserver((changes) => {
        for (const change of changes) {
          const cell = change.target;
          if (!cell.matches('td.price.flash-up, td.price.flash-down')) continue;
          window.__flashes.marked += 1;
          const glow = cell.getAnimations({ subtree: true }).find(a => a.effect && a.effect.pseudoElement === '::after');
          if (!glow) continue;
          window.__flashes.glowing += 1;
          window.__flashes.keyframes = glow.effect.getKeyframes().map(k => k.opacity);
        }
      }).observe(document.getElementById('rows'), { subtree: true, attributes: true, attributeFilter: ['class'] });"""
    flashes = "return window.__flashes"
    open_board(browser, server)  # the suite's tabs ask for reduced motion
    browser.execute_script(watch)
    wait(browser, lambda d: d.execute_script(flashes)["marked"] >= 5, timeout=20, message="no price moved")
    assert browser.execute_script(flashes)["glowing"] == 0, "reduced motion: no glow animates"
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "no-preference"}]})
    browser.execute_script(watch)
    wait(browser, lambda d: d.execute_script(flashes)["glowing"] >= 3, timeout=20, message="a moved price's glow never animated")
    keyframes = browser.execute_script(flashes)["keyframes"]
    assert keyframes == ["1", "0"], f"the glow fades by its opacity alone: {keyframes}"
