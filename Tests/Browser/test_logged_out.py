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
