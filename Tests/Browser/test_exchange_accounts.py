"""The portfolio's 거래소 계정 tab in real Chromium at phone width against `sise serve --demo`:
anonymous visitors are asked to log in; a logged-in account connects the simulator's read-only
Upbit key (a wrong secret refused, in Korean, nothing kept), sees what the account holds as cards
whose figures are never cut — won, the coins at Upbit's live prices, an airdropped coin with no
market — its trade history imported once however often it is asked, and the key is never shown
again (its last four characters only) nor left in the page."""
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from conftest import fill, open_tab, tap, texts
from test_accounts import sign
from test_board import wait, open_board

ACCESS = "sim-upbit-account-access"
SECRET = "sim-upbit-account-secret-0123456789"


def open_accounts(browser):
    open_tab(browser, "portfolio")
    tap(browser, browser.find_element(By.ID, "portfolio-view-accounts"))


def test_an_account_connects_a_read_only_key_and_sees_its_holdings(server, browser):
    open_board(browser, server)
    open_accounts(browser)
    wait(browser, lambda d: d.find_element(By.ID, "accounts-login").is_displayed())
    assert not browser.find_element(By.ID, "accounts-body").is_displayed()

    sign(browser, "signup", f"keys-{uuid.uuid4().hex[:8]}@example.kr", "a long secret", "키주인")
    button = browser.find_element(By.ID, "account-button")
    wait(browser, lambda d: button.get_attribute("data-logged-in") == "true")
    open_accounts(browser)
    wait(browser, lambda d: d.find_element(By.ID, "accounts-body").is_displayed())
    assert not browser.find_element(By.ID, "accounts-login").is_displayed()
    assert texts(browser, "#account-keys li") == ["연결한 거래소 키가 없습니다."]
    # Only the exchanges whose accounts Sise reads are offered.
    options = browser.execute_script("return [...document.querySelectorAll('#account-key-exchange option')].map((o) => o.value)")
    assert sorted(options) == ["bithumb", "coinone", "korbit", "upbit"], options
    assert browser.find_element(By.ID, "account-key-secret").get_attribute("type") == "password"

    # The wrong secret: the simulator cannot verify the signature, the page says so, nothing kept.
    fill(browser, "#account-key-access", ACCESS)
    fill(browser, "#account-key-secret", "not-the-secret-0000")
    tap(browser, browser.find_element(By.ID, "account-key-submit"))
    # Under the field the refusal names (or the form's note): what to fix, in Korean.
    wait(browser, lambda d: any("Upbit" in t and "확인" in t for t in texts(d, "#account-key-form .field-error, #account-key-error")))
    assert browser.find_element(By.ID, "account-key-secret").get_attribute("value") == ""
    assert texts(browser, "#account-keys li") == ["연결한 거래소 키가 없습니다."]

    fill(browser, "#account-key-access", ACCESS)
    fill(browser, "#account-key-secret", SECRET)
    tap(browser, browser.find_element(By.ID, "account-key-submit"))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#account-keys li[data-exchange="upbit"]'))
    key = browser.find_element(By.CSS_SELECTOR, '#account-keys li[data-exchange="upbit"]').text
    assert "…cess" in key and "연결 해제" in key, key
    assert browser.find_element(By.ID, "account-key-access").get_attribute("value") == ""

    # What the account holds, a card a holding, valued at Upbit's live board.
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#accounts-holdings li[data-currency="SISEDROP"]'))
    cards = {c.get_attribute("data-currency"): c.text for c in browser.find_elements(By.CSS_SELECTOR, "#accounts-holdings li[data-currency]")}
    assert len(cards) == 6, cards
    assert "1,300,000.5" in cards["KRW"] and "주문·출금 중 50,000" in cards["KRW"], cards["KRW"]
    assert "마켓 없음" in cards["SISEDROP"]
    coins = [c for c in cards if c not in ("KRW", "SISEDROP")]
    assert all(cards[c].count("원") >= 1 and "평가손익" in cards[c] for c in coins), cards
    assert browser.find_element(By.ID, "accounts-total").text.startswith("총 평가금액")
    sources = texts(browser, "#accounts-sources li")
    assert len(sources) == 1 and sources[0].startswith("Upbit 잔고") and "기준" in sources[0], sources
    # No figure is cut, nothing widens the page, and the key is nowhere in it.
    cut = browser.execute_script("""
        const cut = [...document.querySelectorAll('#portfolio-accounts dd, #portfolio-accounts .tax-coin-head > *, #account-keys li > *')]
          .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent);
        return [cut, document.documentElement.scrollWidth <= window.innerWidth];
    """)
    assert cut == [[], True], cut
    page = browser.execute_script("return document.documentElement.outerHTML + JSON.stringify(localStorage) + JSON.stringify(sessionStorage)")
    assert SECRET not in page and ACCESS not in page

    # The trade history: the simulator's demo account has 120 orders over 90 days; each becomes a
    # portfolio transaction once, however often the import runs.
    sync = wait(browser, lambda d: d.find_element(By.ID, "account-sync") if d.find_element(By.ID, "account-sync").is_displayed() else None)
    for _ in range(2):
        browser.execute_script("document.getElementById('account-sync-progress').dataset.state = ''")
        tap(browser, sync)
        wait(browser, lambda d: d.find_element(By.ID, "account-sync-progress").get_attribute("data-state") == "done", timeout=60)
    assert "새로 가져왔습니다" in browser.find_element(By.ID, "account-sync-progress").text
    rows = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/api/portfolio/transactions').then((r) => r.json()).then((a) => done(a.transactions.map((t) => t.id)));
    """)
    assert len(rows) == 120 and len(set(rows)) == 120 and all(r.startswith("upbit-order-") for r in rows), rows[:3]
    # Held against recorded: the demo account's balances were not made by its 120 orders, so
    # each coin says which way it differs and why it may.
    tap(browser, browser.find_element(By.ID, "portfolio-view-accounts"))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#accounts-reconcile li[data-verdict]"))
    verdicts = browser.execute_script("return [...document.querySelectorAll('#accounts-reconcile li')].map((li) => li.dataset.verdict)")
    assert set(verdicts) <= {"match", "more", "less", "untracked", "notHeld"} and "untracked" in verdicts, verdicts
    assert any("기록되지 않은" in t or "거래 기록이 없습니다" in t for t in texts(browser, "#accounts-reconcile li"))

    # Disconnected: the list is empty again and so are the holdings.
    tap(browser, browser.find_element(By.CSS_SELECTOR, '[data-remove-key="upbit"]'))
    wait(browser, lambda d: texts(d, "#account-keys li") == ["연결한 거래소 키가 없습니다."])
    assert not browser.find_elements(By.CSS_SELECTOR, "#accounts-holdings li[data-currency]")

    button.click()
    panel = wait(browser, EC.visibility_of_element_located((By.CSS_SELECTOR, '[data-page="profile"]')))
    tap(browser, panel.find_element(By.ID, "logout"))
    wait(browser, lambda d: button.get_attribute("data-logged-in") == "false")
