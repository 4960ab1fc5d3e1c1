"""The phone app as a careful Korean user reads it (issue 83): what a page shows is true the moment
it shows it — a star, a figure, a result — and is never partly hidden. One demo server and one
Chromium for the file, at 390 px (and 360 px for the journeys marked `narrow`)."""
import json
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import fill, open_tab, tap, texts
from test_board import open_board, wait
from test_journeys import console_errors, latency, new_device, phone, refused_under, said, site, toasts  # noqa: F401 (fixtures)


def arrive(driver, site):
    """The board opened by a device just made new: its cookies (the CSRF token among them) set."""
    driver.get(site.url + "/")
    wait(driver, lambda d: d.execute_script("return document.cookie.includes('sise_csrf')"), timeout=20)


def api(driver, method, path, body=None):
    """A call of the page's own API from this device (its cookies and CSRF token): the answer."""
    return driver.execute_async_script(
        "const [method, path, body, done] = arguments;"
        "const token = (document.cookie.match(/(?:^|;\\s*)(?:__Host-)?sise_csrf=([0-9a-f]{32})/) || [])[1] || '';"
        "fetch(path, {method, credentials: 'same-origin', headers: {'X-CSRF-Token': token, 'Content-Type': 'application/json'},"
        " body: body === null ? undefined : JSON.stringify(body)}).then(r => r.json()).then(done, () => done(null));",
        method, path, body)


def server_favorites(driver):
    """What the server lists for this device, asked from the page's own cookies."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/favorites', {credentials: 'same-origin'}).then(r => r.json()).then(b => done(b.favorites), () => done(null));")


def star_on_server(driver, key):
    """Stars `key` as another page of the same device did (the API, with the page's CSRF token)."""
    answer = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const token = (document.cookie.match(/(?:^|;\\s*)(?:__Host-)?sise_csrf=([0-9a-f]{32})/) || [])[1] || '';"
        "fetch('/api/favorites/' + encodeURIComponent(arguments[0]), {method: 'PUT', credentials: 'same-origin',"
        " headers: {'X-CSRF-Token': token}}).then(r => r.json()).then(done, () => done(null));", key)
    assert answer and answer.get("favorite") is True, answer


STARRED_PAGES = [
    ("KRW-BTC", "/coin/KRW-BTC"),
    ("korbit:KRW-ETH", "/coin/KRW-ETH?exchange=korbit"),
    ("bitcoin", "/coin/bitcoin"),
]


@pytest.mark.parametrize("key, address", STARRED_PAGES, ids=[key for key, _ in STARRED_PAGES])
def test_a_coin_pages_star_opened_by_its_address_says_it_is_a_favorite(site, phone, key, address):
    """Issue 83.1: a starred coin's page, opened by its address (a link, a reload), showed an empty
    star and a tap then removed the favorite. The star says nothing until the page knows the
    favorites, a tap before then changes nothing, and once it knows the star is filled."""
    with new_device(phone, site):
        arrive(phone, site)
        star_on_server(phone, key)
        # The favorites' answer comes late (a slow phone network): the page is up before it.
        latency(phone, 1500)
        try:
            phone.get(site.url + address)
            early = phone.execute_script(
                "const star = document.getElementById('detail-star'); star.click();"
                "return [star.getAttribute('aria-pressed'), star.disabled]")
            assert early[0] != "false", f"an empty star before the favorites were known: {early}"
            star = phone.find_element(By.ID, "detail-star")
            wait(phone, lambda d: star.get_attribute("aria-pressed") == "true", timeout=20,
                 message="the star of a favorite never filled")
        finally:
            latency(phone, 0)
        assert key in server_favorites(phone), "a tap before the favorites were known changed them"
        # Now the star is the truth: one tap removes the favorite, and says so; another adds it back.
        tap(phone, star)
        said(phone, "관심 종목에서 삭제했습니다")
        wait(phone, lambda d: star.get_attribute("aria-pressed") == "false")
        assert key not in server_favorites(phone)
        tap(phone, star)
        said(phone, "관심 종목에 추가했습니다")
        wait(phone, lambda d: star.get_attribute("aria-pressed") == "true")
        assert key in server_favorites(phone)
        # A reload shows it filled again.
        phone.refresh()
        wait(phone, lambda d: d.find_element(By.ID, "detail-star").get_attribute("aria-pressed") == "true", timeout=20)
    errors = console_errors(phone)
    assert errors == [], json.dumps(errors)


@pytest.mark.narrow
def test_a_holding_on_a_phone_shows_every_figure_whole_without_a_swipe(site, phone):
    """Issue 83.2: the holdings table, swiped sideways, slid figures under its kept 마켓 column
    (평균매수가 4,200,000 read 200,000). On a phone a holding is a card: every figure whole, under
    its column's name, on screen without a swipe, covered by nothing."""
    with new_device(phone, site):
        arrive(phone, site)
        api(phone, "POST", "/api/portfolio/transactions",
            {"type": "buy", "exchange": "upbit", "market": "KRW-BTC", "quantity": "21.75123", "price": "4200000"})
        open_tab(phone, "portfolio")
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, '#portfolio-rows tr[data-market="KRW-BTC"]'), timeout=20)
        cells = phone.execute_script("""
            const tr = document.querySelector('#portfolio-rows tr[data-market="KRW-BTC"]');
            return [...tr.children].map((td) => {
              const box = td.getBoundingClientRect();
              const x = box.left + box.width / 2, y = box.top + box.height / 2;
              const seen = document.elementFromPoint(Math.min(x, innerWidth - 1), Math.min(Math.max(y, 0), innerHeight - 1));
              const label = getComputedStyle(td, '::before').content.replace(/^"|"$/g, '');
              return {col: td.dataset.col, text: (label === 'none' ? '' : label) + ' ' + td.innerText, left: box.left, right: box.right, width: innerWidth,
                      cut: td.scrollWidth > td.clientWidth + 1, covered: !(seen && td.contains(seen)), onScreen: y > 0 && y < innerHeight};
            });""")
        words = {cell["col"]: cell["text"] for cell in cells}
        assert "4,200,000" in words["averagePrice"] and words["averagePrice"].startswith("평균매수가"), words
        assert words["unrealizedPnl"].startswith("평가손익") and words["returnRate"].startswith("수익률"), words
        for cell in cells:
            assert cell["left"] >= 0 and cell["right"] <= cell["width"], f"{cell['col']} needs a swipe: {cell}"
            assert not cell["cut"], f"{cell['col']} is cut: {cell}"
            if cell["onScreen"]:
                assert not cell["covered"], f"{cell['col']} is covered: {cell}"
        assert phone.execute_script(
            "const s = document.getElementById('portfolio-scroller'); return s.scrollWidth <= s.clientWidth + 1"), "the holdings still scroll sideways"
    assert console_errors(phone) == []


def executable_lines(driver):
    """The coin page's executable premium as read: {way: (state, figure)} and its notes."""
    return driver.execute_script("""
        const ways = {};
        for (const line of document.querySelectorAll('#executable-premium [data-way]'))
          ways[line.dataset.way] = [line.dataset.state || '', line.querySelector('.figure').textContent];
        return [ways, Array.from(document.querySelectorAll('#executable-notes li'), (li) => li.textContent),
                document.getElementById('executable-error').hidden ? '' : document.getElementById('executable-error').textContent];""")


def typed_amount(driver, text):
    field = driver.find_element(By.ID, "executable-amount")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
    field.clear()
    field.send_keys(text)
    driver.execute_script("arguments[0].dispatchEvent(new Event('change'))", field)


def test_an_executable_premium_shows_only_the_result_of_the_amount_typed(site, phone):
    """Issue 83.4: 0 silently showed the ₩1,000,000 result, and an invalid amount left the old
    figures under the error. A refused amount clears the result and says why (정수); an amount
    typed as the app writes it (1,000,000, full-width digits) is read."""
    phone.get(site.url + "/coin/KRW-BTC")
    wait(phone, lambda d: all(state == "ok" for state, _ in executable_lines(d)[0].values()) and executable_lines(d)[0], timeout=30)
    for refused in ["0", "0x2710", "10000.5", "abc"]:
        typed_amount(phone, refused)
        ways, notes, error = wait(phone, lambda d: executable_lines(d) if executable_lines(d)[2] else None,
                                  message=f"{refused}: no refusal")
        assert "정수" in error, (refused, error)
        assert all(figure in ("", "-") for _, figure in ways.values()), f"{refused}: a result stays under the refusal: {ways}"
        assert notes == [], (refused, notes)
        typed_amount(phone, "1,000,000")
        wait(phone, lambda d: not executable_lines(d)[2] and all(s == "ok" for s, _ in executable_lines(d)[0].values()), timeout=20,
             message=f"1,000,000 after {refused}: no result")
    typed_amount(phone, "２０００００")
    ways, notes, error = wait(phone, lambda d: executable_lines(d) if not executable_lines(d)[2]
                              and all(s == "ok" for s, _ in executable_lines(d)[0].values()) else None, timeout=20)
    assert any("수수료" in note for note in notes), notes
    console_errors(phone)  # the refusals' 400s, which Chromium logs; the page handled them


def test_the_executable_premium_of_the_premium_tab_carries_its_caveats(site, phone):
    """Issue 83.5: opened from the 김프 tab, the executable premium showed its figures without the
    caveats the coin page gives (trading fees not taken off; a venue's unpublished fee)."""
    phone.get(site.url + "/coin/KRW-BTC")
    wait(phone, lambda d: executable_lines(d)[1], timeout=30)
    page_notes = executable_lines(phone)[1]
    phone.get(site.url + "/premium")
    wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, '#matrix-rows tr[data-matrix="BTC"]'), timeout=30)
    label = phone.find_element(By.ID, "matrix-executable").find_element(By.XPATH, "..")
    tap(phone, label)
    phone.execute_script("document.querySelector('#matrix-rows tr[data-matrix=\"BTC\"]').click()")
    notes = wait(phone, lambda d: [n for n in d.execute_script(
        "return Array.from(document.querySelectorAll('tr[data-executable-notes=\"BTC\"] li'), (li) => li.textContent)")], timeout=20)
    assert any("거래 수수료" in note for note in notes), notes
    assert set(page_notes[:1]) <= set(notes), (page_notes, notes)
    assert phone.execute_script(
        "const line = document.querySelector('tr[data-executable=\"BTC\"]');"
        "return line.nextElementSibling.dataset.executableNotes") == "BTC", "the caveats stand right under the figures"
    tap(phone, label)
    assert console_errors(phone) == []


def alert_form(driver, site):
    open_board(driver, site)
    open_tab(driver, "alerts")
    wait(driver, lambda d: d.find_element(By.ID, "alerts-form").is_displayed())


def submit_alert(driver):
    tap(driver, driver.find_element(By.CSS_SELECTOR, "#alerts-form button[type=submit]"))


def test_refusals_read_as_sentences_that_name_the_field_as_the_screen_does(site, phone):
    """Issue 83.13: refusals leaked the API's names ("지표(indicator)는 rsiAbove…", "배수(factor)")
    and a short average ≥ the long one was refused without saying the short must be smaller."""
    alert_form(phone, site)
    fill(phone, "#alert-market", "KRW-BTC")
    Select(phone.find_element(By.ID, "alert-type")).select_by_value("indicator")
    Select(phone.find_element(By.ID, "alert-indicator")).select_by_value("maCrossUp")
    fill(phone, "#alert-fast", "20")
    fill(phone, "#alert-slow", "20")
    submit_alert(phone)
    words = refused_under(phone, "alert-fast")
    assert "'단기 이평'은 '장기 이평'보다 작아야" in words, words
    Select(phone.find_element(By.ID, "alert-type")).select_by_value("volumeSpike")
    fill(phone, "#alert-factor", "0.5")
    submit_alert(phone)
    words = refused_under(phone, "alert-factor")
    assert "평소 대비 배수" in words and "factor" not in words, words
    assert not re.search(r"\([a-zA-Z]+", words), f"an API name in: {words}"
    console_errors(phone)  # the refusals' 400s


def test_a_threshold_is_named_for_what_it_measures_and_takes_numbers_as_the_app_writes_them(site, phone):
    """Issue 83.14: the threshold of 수익률 and 김프 alerts was labelled 변동률(%), and a price typed
    as the app writes it (90,000,000, or in full-width digits) was refused."""
    with new_device(phone, site):
        alert_form(phone, site)
        kind = Select(phone.find_element(By.ID, "alert-type"))
        label = lambda: phone.find_element(By.CSS_SELECTOR, "#alert-percent-row [data-label]").text  # noqa: E731
        for value, words in (("move", "변동률(%)"), ("premiumAbove", "김프(%)"), ("strengthAbove", "체결강도(%)")):
            kind.select_by_value(value)
            assert label() == words, (value, label())
        fill(phone, "#alert-market", "KRW-BTC")
        kind.select_by_value("above")
        fill(phone, "#alert-price", "90,000,000")
        submit_alert(phone)
        said(phone, "알림을 추가했습니다")
        kind.select_by_value("below")
        fill(phone, "#alert-price", "８０，０００，０００")
        submit_alert(phone)
        said(phone, "알림을 추가했습니다")
        both = lambda d: (lambda rules: any("90,000,000 이상" in r for r in rules) and any("80,000,000 이하" in r for r in rules))(  # noqa: E731
            texts(d, "#alert-list li"))
        wait(phone, both, message=f"both rules listed: {texts(phone, '#alert-list li')}")
        open_tab(phone, "portfolio")
        wait(phone, lambda d: d.find_element(By.ID, "portfolio-form").is_displayed())
        fill(phone, "#tx-market", "KRW-BTC")
        fill(phone, "#tx-quantity", "1")
        fill(phone, "#tx-price", "1,234,000")
        tap(phone, phone.find_element(By.CSS_SELECTOR, "#portfolio-form button[type=submit]"))
        said(phone, "거래를 추가했습니다")
        wait(phone, lambda d: "1,234,000" in " ".join(texts(d, '#portfolio-rows tr[data-market="KRW-BTC"] td')), timeout=20)
    console_errors(phone)


def test_a_deleted_transaction_comes_back_with_undo(site, phone):
    """Issue 83.15: deleting a transaction took one tap with no confirmation and no undo."""
    with new_device(phone, site):
        arrive(phone, site)
        api(phone, "POST", "/api/portfolio/transactions",
            {"type": "buy", "exchange": "upbit", "market": "KRW-ETH", "quantity": "2", "price": "3000000", "note": "첫 매수"})
        open_tab(phone, "portfolio")
        delete = wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-action=delete-transaction]"), timeout=20)
        tap(phone, delete[0])
        said(phone, "거래를 삭제했습니다")
        wait(phone, lambda d: not d.find_elements(By.CSS_SELECTOR, "[data-action=delete-transaction]"))
        undo = wait(phone, lambda d: d.find_element(By.CSS_SELECTOR, "#toasts [data-action=toast-action]"))
        assert undo.text == "되돌리기"
        undo.click()
        said(phone, "거래를 되살렸습니다")
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-action=delete-transaction]"), timeout=20)
        listed = api(phone, "GET", "/api/portfolio/transactions")["transactions"]
        assert [(tx["market"], tx["quantity"], tx["price"], tx["note"]) for tx in listed] == [("KRW-ETH", "2", "3000000", "첫 매수")], listed
    assert console_errors(phone) == []


def test_an_account_can_be_deleted_from_its_profile(site, phone):
    """Issue 83.15: the API deletes accounts, the profile had no 회원 탈퇴."""
    with new_device(phone, site):
        arrive(phone, site)
        answer = api(phone, "POST", "/api/auth/signup", {"email": "leaving@example.kr", "password": "a long secret", "nickname": "떠나는이"})
        assert answer and "error" not in answer, answer
        phone.get(site.url + "/profile")
        form = wait(phone, lambda d: d.find_element(By.ID, "delete-account-form") if d.find_element(By.ID, "delete-account-form").is_displayed()
                    else None, timeout=20)
        assert form.find_element(By.ID, "delete-account-title").text == "회원 탈퇴"
        assert "되돌릴 수 없습니다" in form.find_element(By.ID, "delete-account-text").text
        fill(phone, "#delete-account-confirm", "not the password")
        tap(phone, form.find_element(By.ID, "delete-account-submit"))
        wait(phone, lambda d: any("비밀번호" in words for words in toasts(d)), message=f"no refusal: {toasts(phone)}")
        assert api(phone, "GET", "/api/session").get("loggedIn") is True
        fill(phone, "#delete-account-confirm", "a long secret")
        tap(phone, form.find_element(By.ID, "delete-account-submit"))
        said(phone, "계정을 삭제했습니다")
        wait(phone, lambda d: d.find_element(By.ID, "account-button").text == "로그인")
        assert api(phone, "GET", "/api/session").get("loggedIn") is False
        # The address and password are free again: the account is gone, not hidden.
        again = api(phone, "POST", "/api/auth/signup", {"email": "leaving@example.kr", "password": "a long secret", "nickname": "돌아온이"})
        assert again and "error" not in again, again
    console_errors(phone)  # the refused password's 403


def place_of(driver, market):
    """How far the page is scrolled, where `market`'s row stands on screen, and whether it has focus."""
    return driver.execute_script(
        "const tr = document.querySelector(`#rows tr[data-market=\"${arguments[0]}\"]`);"
        "return [scrollY, tr ? tr.getBoundingClientRect().top : null, document.activeElement === tr]", market)


def test_back_from_a_coin_finds_the_board_where_it_was_left(site, phone):
    """Issue 83.10: 뒤로 (in-app and the browser's) returned the board to its top. Back, the row
    opened stands where it stood, in focus."""
    open_board(phone, site)
    for way in ("in-app", "browser"):
        market = phone.execute_script("return document.querySelectorAll('#rows tr[data-market]')[40].dataset.market")
        row = phone.find_element(By.CSS_SELECTOR, f'#rows tr[data-market="{market}"]')
        tap(phone, row.find_element(By.CSS_SELECTOR, ".name"))
        wait(phone, lambda d: d.find_element(By.ID, "coin-detail").is_displayed())
        # (The tap scrolled the row to the middle of the screen first, as a thumb reaches it.)
        if way == "in-app":
            tap(phone, phone.find_element(By.ID, "detail-back"))
        else:
            phone.back()
        wait(phone, lambda d: d.find_element(By.ID, "board-panel").is_displayed() and not d.find_element(By.ID, "coin-detail").is_displayed())
        y, top, focused = wait(phone, lambda d: (lambda p: p if p[2] else None)(place_of(d, market)), message=f"{way}: the row is not in focus")
        assert y > 400, f"{way}: back at the top of the board ({y} px)"
        middle = phone.execute_script("return innerHeight / 2")
        assert abs(top - middle) < 60, f"{way}: the row opened stands at {top} px, not where it was tapped (≈ {middle} px)"
    assert console_errors(phone) == []


def test_an_alert_and_a_webhook_are_edited_on_the_page(site, phone):
    """Issue 83.12: alerts and webhooks could be switched and deleted on the page, not edited."""
    with new_device(phone, site):
        arrive(phone, site)
        api(phone, "POST", "/api/alerts", {"exchange": "upbit", "market": "KRW-BTC", "type": "above", "price": "200000000"})
        hook = api(phone, "POST", "/api/webhooks", {"kind": "discord", "url": "https://discord.com/api/webhooks/1/abcdef"})
        assert hook and "error" not in hook, hook
        alert_form(phone, site)
        tap(phone, wait(phone, lambda d: d.find_element(By.CSS_SELECTOR, "#alert-list [data-action=edit-alert]"), timeout=20))
        assert phone.find_element(By.ID, "alert-price").get_attribute("value") == "200000000"
        assert not phone.find_element(By.ID, "alert-type").is_enabled() and not phone.find_element(By.ID, "alert-market").is_enabled()
        assert phone.find_element(By.ID, "alert-submit").text == "저장"
        fill(phone, "#alert-price", "210,000,000")
        submit_alert(phone)
        said(phone, "알림을 수정했습니다")
        wait(phone, lambda d: any("210,000,000 이상" in rule for rule in texts(d, "#alert-list li")))
        assert len(texts(phone, "#alert-list li")) == 1, texts(phone, "#alert-list li")
        assert phone.find_element(By.ID, "alert-submit").text == "알림 추가" and phone.find_element(By.ID, "alert-type").is_enabled()
        # The webhook: its quiet hours and daily cap; where it delivers stays as made.
        tap(phone, wait(phone, lambda d: d.find_element(By.CSS_SELECTOR, "#webhook-list [data-action=edit-webhook]")))
        assert not phone.find_element(By.ID, "webhook-url").is_displayed()
        phone.execute_script("document.getElementById('webhook-quiet-start').value = '23:00';"
                             "document.getElementById('webhook-quiet-end').value = '07:00'")
        fill(phone, "#webhook-cap", "5")
        tap(phone, phone.find_element(By.ID, "webhook-submit"))
        said(phone, "알림 받을 곳을 수정했습니다")
        line = wait(phone, lambda d: [text for text in texts(d, "#webhook-list li") if "23:00" in text])
        assert "하루 5건까지" in line[0] and "discord.com" in line[0], line
        assert phone.find_element(By.ID, "webhook-url").is_displayed(), "the form adds again"
    assert console_errors(phone) == []


def test_the_premium_bar_and_the_column_name_the_same_venue(site, phone):
    """Issue 83.6: with the board's basis on Bybit the column said "김프 Bybit" while the bar above
    still said "해외 바이낸스"."""
    with new_device(phone, site):
        phone.get(site.url + "/premium")
        basis = wait(phone, lambda d: d.find_element(By.ID, "premium-venue"), timeout=20)
        phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", basis)
        Select(basis).select_by_value("bybit")
        open_tab(phone, "exchange")
        wait(phone, lambda d: "Bybit" in d.find_element(By.ID, "premium-source").text, timeout=20,
             message=f"the bar names {phone.find_element(By.ID, 'premium-source').text!r}")
        assert "바이낸스" not in phone.find_element(By.ID, "premium-source").text
        assert phone.find_element(By.ID, "premium-col-venue").get_attribute("textContent").strip() == "Bybit"
    assert console_errors(phone) == []


def test_the_premium_tab_heads_with_the_tether_premium_keeps_its_venue_in_the_address_and_says_why_a_cell_is_empty(site, phone):
    """Issue 83.7: the 김프 tab lacked the 테더 김프 header, its two venue selectors looked alike, the
    venue was not in the address, and "-" cells were not explained."""
    phone.get(site.url + "/premium")
    assert wait(phone, lambda d: d.find_element(By.ID, "matrix-tether-title").text, timeout=20) == "테더 김프"
    tether = wait(phone, lambda d: texts(d, "#matrix-tether-rows li") if len(texts(d, "#matrix-tether-rows li")) >= 4 else None, timeout=20)
    assert any("Upbit" in line and "%" in line for line in tether), tether
    # The two selectors say what each moves.
    assert phone.find_element(By.ID, "matrix-venue-label").text == "이 표의 해외 거래소"
    assert "시세 목록" in phone.find_element(By.ID, "premium-venue-note").text
    # The table's venue is in the address, and a reload keeps it.
    Select(phone.find_element(By.ID, "matrix-venue")).select_by_value("okx")
    wait(phone, lambda d: d.current_url.endswith("/premium?venue=okx"), message=phone.current_url)
    phone.refresh()
    wait(phone, lambda d: d.find_element(By.ID, "matrix-venue").get_attribute("value") == "okx", timeout=20)
    # Every cell without a figure says why, and the legend explains the marks.
    why = wait(phone, lambda d: d.execute_script(
        "return Array.from(document.querySelectorAll('#matrix-rows td[data-exchange]'))"
        ".filter((td) => td.textContent === '-').map((td) => [td.dataset.state, td.title])"), timeout=30)
    assert all(title for _, title in why), why
    assert all(state != "missing" or "상장" in title for state, title in why), why
    assert "상장" in phone.find_element(By.ID, "matrix-legend").text
    assert console_errors(phone) == []


def test_the_small_words_a_careful_reader_notices(site, phone):
    """Issue 83, low: the 김프 switch stayed pressed on a BTC board without the column; candle
    lengths leaked English ("1m", "15m봉"); the alert list named no exchange for Upbit's markets."""
    with new_device(phone, site):
        arrive(phone, site)
        phone.get(site.url + "/?quote=BTC")
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, '#rows tr[data-market^="BTC-"]'), timeout=20)
        toggle = phone.find_element(By.ID, "premium-column")
        wait(phone, lambda d: toggle.get_attribute("aria-pressed") == "false" and not toggle.is_enabled(),
             message=f"the 김프 switch on a BTC board: pressed={toggle.get_attribute('aria-pressed')}")
        phone.get(site.url + "/coin/KRW-BTC")
        wait(phone, lambda d: d.find_element(By.ID, "coin-detail").is_displayed(), timeout=20)
        lengths = phone.execute_script("return Array.from(document.querySelectorAll('[data-interval]'), (b) => b.textContent)")
        assert lengths == ["1분", "5분", "15분", "1시간", "4시간", "1일", "1주"], lengths
        api(phone, "POST", "/api/alerts", {"exchange": "upbit", "market": "KRW-BTC", "type": "indicator", "indicator": "rsiAbove",
                                           "interval": "15m"})
        alert_form(phone, site)
        rule = wait(phone, lambda d: [text for text in texts(d, "#alert-list li") if "RSI" in text], timeout=20)
        assert "KRW-BTC · Upbit — 15분봉 RSI" in rule[0], rule
        options = phone.execute_script("return Array.from(document.querySelectorAll('#alert-interval option'), (o) => o.textContent)")
        assert options == ["1분", "5분", "15분", "1시간", "4시간", "1일"], options
    assert console_errors(phone) == []


def test_the_coin_page_writes_its_trade_value_in_the_boards_unit_and_its_book_says_what_it_shows(site, phone):
    """Issue 83 (low): 거래대금 read "130,764백만" on a coin page and "1,310억" on the phone's board —
    one unit rule now: the unit the board uses at this width. The order book had no column heads,
    totals or spread."""
    open_board(phone, site)
    board = phone.execute_script(
        "const cell = document.querySelector('#rows tr[data-market=\"KRW-BTC\"] td.value');"
        "return [...cell.children].filter(s => getComputedStyle(s).display !== 'none').map(s => s.textContent).join('')")
    phone.get(site.url + "/coin/KRW-BTC")
    wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#detail-stats dd.value-pair"), timeout=20)
    page = phone.execute_script(
        "const dd = document.querySelector('#detail-stats dd.value-pair');"
        "return [...dd.children].filter(s => getComputedStyle(s).display !== 'none').map(s => s.textContent).join('')")
    unit = lambda figure: re.sub(r"[\d,.\s]", "", figure)
    assert unit(board) == unit(page) == "억", f"board {board!r}, coin page {page!r}"
    wait(phone, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#book-ladder tbody tr")) >= 10, timeout=20)
    heads = texts(phone, "#book-ladder thead th")
    assert heads == ["매도잔량", "가격", "매수잔량"], heads
    foot = texts(phone, "#book-ladder tfoot td")
    assert len(foot) == 3 and foot[1].startswith("스프레드 "), foot
