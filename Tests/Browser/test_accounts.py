"""Accounts in the page, in real Chromium against `sise serve --demo`: sign up, log out, log in,
edit the profile, and two browsers of one account seeing a favorite appear live."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from conftest import make_driver
from test_board import wait, row_count, open_board


def sign(driver, mode, login, password, nickname=None):
    driver.find_element(By.ID, "account-button").click()
    wait(driver, EC.visibility_of_element_located((By.ID, "auth-dialog")))
    driver.find_element(By.CSS_SELECTOR, f'[data-auth="{mode}"]').click()
    driver.find_element(By.ID, "auth-login").send_keys(login)
    driver.find_element(By.ID, "auth-password").send_keys(password)
    if nickname:
        driver.find_element(By.ID, "auth-nickname").send_keys(nickname)
    driver.find_element(By.ID, "auth-submit").click()


def test_sign_up_log_out_log_in_and_edit_profile(server, browser):
    open_board(browser, server)
    button = browser.find_element(By.ID, "account-button")
    assert button.get_attribute("data-logged-in") == "false"
    sign(browser, "signup", "minsu@example.kr", "password", "민수")
    error = wait(browser, EC.visibility_of_element_located((By.ID, "auth-error")))
    assert "흔한" in error.text, "the server's rule, in the page's language"
    browser.find_element(By.ID, "auth-password").clear()
    browser.find_element(By.ID, "auth-password").send_keys("a long secret")
    browser.find_element(By.ID, "auth-submit").click()
    wait(browser, lambda d: button.get_attribute("data-logged-in") == "true" and button.text == "민수")
    button.click()
    panel = wait(browser, EC.visibility_of_element_located((By.CSS_SELECTOR, '[data-page="profile"]')))
    assert browser.find_element(By.ID, "profile-email").text == "m***@example.kr"
    nickname = browser.find_element(By.ID, "profile-nickname")
    nickname.clear()
    nickname.send_keys("민수짱")
    browser.find_element(By.ID, "profile-save").click()
    wait(browser, lambda d: button.text == "민수짱")
    panel.find_element(By.ID, "logout").click()
    wait(browser, lambda d: button.get_attribute("data-logged-in") == "false")
    wait(browser, lambda d: row_count(d) > 100)
    sign(browser, "login", "MINSU@example.kr", "a long secret")
    wait(browser, lambda d: button.text == "민수짱")
    browser.refresh()
    wait(browser, lambda d: d.find_element(By.ID, "account-button").text == "민수짱", timeout=20)


def test_two_browsers_of_one_account_see_a_star_live(server, browser):
    open_board(browser, server)
    sign(browser, "signup", "hana", "a long secret", "하나")
    wait(browser, lambda d: d.find_element(By.ID, "account-button").text == "하나")
    other = make_driver(1280, 900)
    try:
        open_board(other, server)
        sign(other, "login", "hana", "a long secret")
        wait(other, lambda d: d.find_element(By.ID, "account-button").text == "하나")
        wait(other, lambda d: row_count(d) > 100)
        selector = '#rows tr[data-market="KRW-ETH"] [data-action="favorite"]'
        wait(browser, lambda d: row_count(d) > 100)
        browser.find_element(By.CSS_SELECTOR, selector).click()
        wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, selector).get_attribute("aria-pressed") == "true")
        wait(other, lambda d: d.find_element(By.CSS_SELECTOR, selector).get_attribute("aria-pressed") == "true", timeout=2)
    finally:
        other.quit()
