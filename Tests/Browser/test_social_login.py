"""Social log-in in real Chromium against `sise serve --demo`, whose provider `demo` is the
simulator's OpenID provider: the button, the provider's own page, the way back logged in; a
hostile nickname shown as text; linking and unlinking from the profile."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from test_accounts import sign
from conftest import tap
from test_board import wait, open_board


def through_provider(driver, person):
    """On the provider's page (another origin): pick a person, come back to Sise."""
    wait(driver, lambda d: "/oidc/authorize" in d.current_url)
    driver.find_element(By.CSS_SELECTOR, f'[data-user="{person}"]').click()


def test_log_in_with_the_demo_provider(server, browser):
    open_board(browser, server)
    button = browser.find_element(By.ID, "account-button")
    button.click()
    social = wait(browser, EC.visibility_of_element_located((By.CSS_SELECTOR, '#social-buttons [data-provider="demo"]')))
    assert social.text == "Demo로 로그인"
    social.click()
    through_provider(browser, "minji")
    wait(browser, lambda d: d.find_element(By.ID, "account-button").get_attribute("data-logged-in") == "true", timeout=20)
    assert browser.find_element(By.ID, "account-button").text == "김민지"
    assert "auth=" not in browser.current_url, "the outcome leaves the address bar"
    browser.find_element(By.ID, "account-button").click()
    wait(browser, EC.visibility_of_element_located((By.CSS_SELECTOR, '[data-page="profile"]')))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#profile-providers [data-linked="demo"]'))
    assert browser.find_element(By.ID, "profile-email").text == "m***@example.com"


def test_a_hostile_nickname_from_a_provider_stays_text(server, browser):
    open_board(browser, server)
    browser.get(server.url + "/auth/demo/start")
    through_provider(browser, "mallory")
    button = wait(browser, EC.presence_of_element_located((By.CSS_SELECTOR, '#account-button[data-logged-in="true"]')), timeout=20)
    assert button.text == "<b>mal</b>lory"
    assert not browser.find_elements(By.CSS_SELECTOR, "#account-button b")


def test_link_then_unlink_from_the_profile(server, browser):
    open_board(browser, server)
    sign(browser, "signup", "alexpw", "a long secret", "알렉스")
    wait(browser, lambda d: d.find_element(By.ID, "account-button").text == "알렉스")
    browser.find_element(By.ID, "account-button").click()
    link = wait(browser, EC.element_to_be_clickable((By.CSS_SELECTOR, '#profile-providers [data-link-provider="demo"]')))
    assert link.text == "Demo 연결"
    tap(browser, link)
    through_provider(browser, "alex")
    # Back on the profile, the provider now linked beside the password.
    unlink = wait(browser, EC.element_to_be_clickable((By.CSS_SELECTOR, '#profile-providers [data-unlink="demo"]')), timeout=20)
    assert browser.find_elements(By.CSS_SELECTOR, '#profile-providers [data-linked="password"]')
    tap(browser, unlink)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#profile-providers [data-link-provider="demo"]'))


def test_a_failed_provider_log_in_is_worded(server, browser):
    open_board(browser, server)
    browser.get(server.url + "/?auth_error=failed&provider=demo&reason=nonce%20mismatch")
    toast = wait(browser, EC.visibility_of_element_located((By.CSS_SELECTOR, "#toasts > *")), timeout=20)
    assert "Demo" in toast.text and "nonce mismatch" in toast.text
    assert browser.find_element(By.ID, "account-button").get_attribute("data-logged-in") == "false"
