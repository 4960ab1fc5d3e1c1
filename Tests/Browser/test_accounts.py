"""Accounts in the page, in real Chromium against `sise serve --demo`: sign up, log out, log in,
edit the profile, and two browsers of one account seeing a favorite appear live."""
import os
import struct
import tempfile
import zlib

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from conftest import make_driver, tap
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


def tiny_png(path):
    """A real 2×2 PNG."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


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
    assert browser.find_element(By.ID, "profile-email-label").text == "이메일"
    nickname = browser.find_element(By.ID, "profile-nickname")
    nickname.clear()
    nickname.send_keys("민수짱")
    tap(browser, browser.find_element(By.ID, "profile-save"))
    wait(browser, lambda d: button.text == "민수짱")
    # A picture: uploaded from a file, shown in the header, served as the PNG it is.
    with tempfile.TemporaryDirectory() as folder:
        picture = os.path.join(folder, "me.png")
        tiny_png(picture)
        before = browser.find_element(By.ID, "header-avatar").get_attribute("src")
        # The file picker speaks the page's language (not the browser's "Choose File").
        assert panel.find_element(By.CSS_SELECTOR, "[for=avatar-file]").text == "파일 선택"
        assert panel.find_element(By.CSS_SELECTOR, ".file-field [data-file-name]").text == "선택한 파일 없음"
        browser.find_element(By.ID, "avatar-file").send_keys(picture)
        wait(browser, lambda d: d.find_element(By.ID, "header-avatar").get_attribute("src") != before)
        # The chosen file named, and previewed.
        assert panel.find_element(By.CSS_SELECTOR, ".file-field [data-file-name]").text == "me.png"
        wait(browser, lambda d: (panel.find_element(By.CSS_SELECTOR, ".file-field .file-preview").get_attribute("src") or "").startswith("data:image/png"))
    kind = browser.execute_async_script(
        "const done = arguments[0]; fetch(document.getElementById('header-avatar').src).then(r => done(r.headers.get('content-type')));")
    assert kind == "image/png"
    tap(browser, panel.find_element(By.ID, "logout"))
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


def test_an_account_with_a_user_name_is_labelled_by_it(server, browser):
    open_board(browser, server)
    button = browser.find_element(By.ID, "account-button")
    sign(browser, "signup", "minsu_92", "a long secret", "민수")
    wait(browser, lambda d: button.get_attribute("data-logged-in") == "true")
    button.click()
    wait(browser, EC.visibility_of_element_located((By.CSS_SELECTOR, '[data-page="profile"]')))
    assert browser.find_element(By.ID, "profile-email-label").text == "아이디", "a user name is not an e-mail address"
    assert "minsu" in browser.find_element(By.ID, "profile-email").text
