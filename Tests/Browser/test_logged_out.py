"""An anonymous visitor in a real headless Chromium: no failed request in the console on any
page load, and a logged-out /profile that asks to log in instead of showing an empty form."""
from selenium.webdriver.common.by import By

from test_board import wait


def test_an_anonymous_visit_logs_no_failed_request(server, browser):
    for path in ("/", "/profile", "/coin/KRW-BTC", "/compare"):
        browser.get(server.url + path)
        wait(browser, lambda d: d.execute_script("return document.readyState") == "complete")
        wait(browser, lambda d: d.execute_script(
            "return performance.getEntriesByType('resource').some(e => e.name.includes('/api/session'))"))
    failed = [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert not failed, failed


def test_a_logged_out_profile_asks_to_log_in(server, browser):
    browser.get(server.url + "/profile")
    prompt = wait(browser, lambda d: d.find_element(By.ID, "profile-logged-out") if d.find_element(By.ID, "profile-logged-out").is_displayed() else None)
    assert "로그인" in prompt.text
    assert not browser.find_element(By.ID, "profile-body").is_displayed(), "no empty profile form"
    browser.find_element(By.ID, "profile-login").click()
    wait(browser, lambda d: d.find_element(By.ID, "auth-dialog").is_displayed())


def test_a_page_opening_its_connection_says_connecting_not_lost(server, browser):
    # Watch the banner from the very first moment of every load (before the page's scripts run).
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        window.__bannerShown = false; window.__chips = [];
        new MutationObserver(() => {
          const banner = document.getElementById('offline-banner'), chip = document.getElementById('status');
          if (banner && !banner.hidden) window.__bannerShown = true;
          if (chip && window.__chips[window.__chips.length - 1] !== chip.dataset.state) window.__chips.push(chip.dataset.state);
        }).observe(document, { subtree: true, childList: true, attributes: true });"""})
    for path in ("/", "/profile", "/coin/KRW-BTC"):
        browser.get(server.url + path)
        wait(browser, lambda d: d.find_element(By.ID, "status").get_attribute("data-state") == "live", timeout=20)
        shown, chips = browser.execute_script("return [window.__bannerShown, window.__chips]")
        assert not shown, f"{path}: the lost-connection banner flashed while the page was still connecting"
        assert "offline" not in chips, f"{path}: the chip said offline before the first connection: {chips}"
