"""The journeys a person takes on a phone, read as that person reads them: the words on screen, the
view they land on, and no error in the console. One demo server and one Chromium at 390 × 844 for
the file (each journey leaves the page as it found it)."""
import contextlib
import tempfile

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import Server, attributes, fill, Chromium, make_driver, open_tab, tap, texts
from test_board import wait, open_board, row_count


@pytest.fixture(scope="module")
def site():
    with tempfile.TemporaryDirectory() as data_dir:
        running = Server(data_dir).start()
        yield running
        running.stop()


@pytest.fixture(scope="module", params=[390, 360], ids=["390px", "360px"])
def phone(request):
    """The phone each journey is taken on: 390 × 844, and — for the journeys marked `narrow` — 360 × 740
    too (the two most common widths). The others check widths of their own or nothing a width changes."""
    driver = make_driver(request.param, 844 if request.param == 390 else 740)
    yield driver
    driver.quit()



def latency(driver, milliseconds):
    """Every request of `driver` from now on takes `milliseconds` longer (a slow phone network)."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": False, "latency": milliseconds, "downloadThroughput": -1, "uploadThroughput": -1})


def starred(driver, market, on=True):
    """Stars (or unstars) `market` on the board, as a person taps its ☆."""
    star = driver.find_element(By.CSS_SELECTOR, f'#rows tr[data-market="{market}"] [data-action="favorite"]')
    # A star takes a tap once the page knows the favorites (before, it says nothing and is disabled).
    wait(driver, lambda d: star.is_enabled())
    if star.get_attribute("aria-pressed") != str(on).lower():
        tap(driver, star)
        wait(driver, lambda d: star.get_attribute("aria-pressed") == str(on).lower())


def console_errors(driver):
    """The console's errors since the last read (Chromium hands each entry out once)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def toasts(driver):
    # A toast's words, without the label of its button (되돌리기) when it has one.
    return driver.execute_script("return Array.from(document.querySelectorAll('#toasts .toast'), e => e.dataset.words || e.textContent)")


def said(driver, text, timeout=10):
    """Waits until a toast says exactly `text`; the toasts on screen when it does not."""
    try:
        wait(driver, lambda d: text in toasts(d), timeout=timeout)
    except Exception:
        pytest.fail(f"no toast said {text!r}; on screen: {toasts(driver)}")


def tap_first(driver, selector):
    """Taps the first element `selector` finds. A list drawn again between the look and the tap
    (the alert list after an add: once from the answer, once from the refresh) is looked at again,
    as a thumb would."""
    def tapped(d):
        found = d.find_elements(By.CSS_SELECTOR, selector)
        if not found:
            return False
        tap(d, found[0])
        return True
    wait(driver, tapped)


@pytest.mark.narrow
def test_a_coin_opened_from_the_board_comes_back_with_the_in_app_back_button(site, phone):
    open_board(phone, site)
    console_errors(phone)
    # The name the board knows stands from the first moment (in the same turn as the tap), not the code.
    first = phone.execute_script("document.querySelector('#rows tr[data-market=\"KRW-BTC\"] td.price').click();"
                                 "return document.getElementById('detail-name').textContent")
    assert first == "비트코인", first
    wait(phone, lambda d: d.find_element(By.ID, "coin-detail").is_displayed())
    assert "/coin/KRW-BTC" in phone.current_url
    tap(phone, phone.find_element(By.ID, "detail-back"))
    wait(phone, lambda d: d.find_element(By.ID, "board-panel").is_displayed() and row_count(d) > 100)
    assert not phone.find_element(By.ID, "coin-detail").is_displayed()
    assert phone.current_url.rstrip("/") == site.url.rstrip("/"), phone.current_url
    assert console_errors(phone) == []
    # And the browser's own back button, from a second visit.
    tap(phone, phone.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-ETH"]'))
    wait(phone, lambda d: "/coin/KRW-ETH" in d.current_url and d.find_element(By.ID, "coin-detail").is_displayed())
    phone.back()
    wait(phone, lambda d: d.find_element(By.ID, "board-panel").is_displayed() and not d.find_element(By.ID, "coin-detail").is_displayed())
    assert console_errors(phone) == []


def test_the_coin_charts_labels_are_readable_and_whole_on_a_phone(site, phone):
    open_board(phone, site)
    tap(phone, phone.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-BTC"]'))
    for mode in ["line", "candles"]:
        if mode == "candles":
            tap(phone, phone.find_element(By.CSS_SELECTOR, '[data-chart-mode="candles"]'))
        labels = wait(phone, lambda d: d.execute_script(
            "const svg = document.querySelector('#detail-chart svg'); if (!svg) return null;"
            "const box = svg.getBoundingClientRect();"
            "const texts = Array.from(svg.querySelectorAll('text[text-anchor]'), t => t.getBoundingClientRect());"
            "return texts.length ? texts.map(r => [r.left - box.left, box.right - r.right, r.height]) : null"), timeout=20)
        for left, right, height in labels:
            assert left >= -0.5 and right >= -0.5, f"{mode}: a time label runs off the chart ({left:.1f}, {right:.1f})"
            assert height >= 10, f"{mode}: a label {height:.1f} px tall"
    tap(phone, phone.find_element(By.ID, "detail-back"))
    assert console_errors(phone) == []


@pytest.mark.narrow
def test_a_transaction_added_and_deleted_is_confirmed_as_a_transaction(site, phone):
    open_board(phone, site)
    open_tab(phone, "portfolio")
    wait(phone, lambda d: d.find_element(By.ID, "portfolio-form").is_displayed())
    fill(phone, "#tx-market", "KRW-BTC")
    fill(phone, "#tx-quantity", "0.5")
    fill(phone, "#tx-price", "90000000")
    tap(phone, phone.find_element(By.CSS_SELECTOR, "#portfolio-form button[type=submit]"))
    said(phone, "거래를 추가했습니다")
    assert "관심 종목에 추가했습니다" not in toasts(phone)
    delete = wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-action=delete-transaction]"))
    tap(phone, delete[0])
    said(phone, "거래를 삭제했습니다")
    assert "관심 종목에서 삭제했습니다" not in toasts(phone)
    assert console_errors(phone) == []


@pytest.mark.narrow
def test_the_alert_form_submits_after_a_hidden_field_was_left_out_of_range(site, phone):
    open_board(phone, site)
    open_tab(phone, "alerts")
    wait(phone, lambda d: d.find_element(By.ID, "alerts-form").is_displayed())
    fill(phone, "#alert-market", "KRW-BTC")
    Select(phone.find_element(By.ID, "alert-type")).select_by_value("move")
    fill(phone, "#alert-window", "2000")
    Select(phone.find_element(By.ID, "alert-type")).select_by_value("above")
    fill(phone, "#alert-price", "200000000")
    tap(phone, phone.find_element(By.CSS_SELECTOR, "#alerts-form button[type=submit]"))
    said(phone, "알림을 추가했습니다")
    assert "관심 종목에 추가했습니다" not in toasts(phone)
    delete = wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-action=delete-alert]"))
    tap(phone, delete[0])
    said(phone, "알림을 삭제했습니다")
    assert console_errors(phone) == []


@pytest.mark.narrow
def test_a_premium_alert_on_an_okx_cell_held_for_minutes_a_volume_spike_and_a_golden_cross(site, phone):
    """The premium kinds show the venue and the hold (and only they do); a rule made with them
    reads back in words, and a USDT line against OKX is refused under the venue. A volume spike
    shows its factor and its window, is refused under the factor below 1, and reads back in words;
    an indicator signal shows its level or its averages by signal; a 체결강도 line its percent."""
    open_board(phone, site)
    open_tab(phone, "alerts")
    wait(phone, lambda d: d.find_element(By.ID, "alerts-form").is_displayed())
    kind = Select(phone.find_element(By.ID, "alert-type"))
    kind.select_by_value("above")
    assert not phone.find_element(By.ID, "alert-venue").is_displayed()
    assert not phone.find_element(By.ID, "alert-hold").is_displayed()
    kind.select_by_value("premiumAbove")
    venues = [o.get_attribute("value") for o in Select(phone.find_element(By.ID, "alert-venue")).options]
    assert venues == ["binance", "okx", "bybit"]
    fill(phone, "#alert-market", "KRW-USDT")
    Select(phone.find_element(By.ID, "alert-venue")).select_by_value("okx")
    fill(phone, "#alert-percent", "3")
    tap(phone, phone.find_element(By.CSS_SELECTOR, "#alerts-form button[type=submit]"))
    assert "공식 환율" in refused_under(phone, "alert-venue")
    console_errors(phone)  # the refusal's 400, which Chromium logs; the page handled it
    fill(phone, "#alert-market", "KRW-BTC")
    fill(phone, "#alert-hold", "15")
    tap(phone, phone.find_element(By.CSS_SELECTOR, "#alerts-form button[type=submit]"))
    said(phone, "알림을 추가했습니다")
    rule = wait(phone, lambda d: [text for text in texts(d, "#alert-list li") if "OKX" in text])
    assert "김프 3% 이상 (OKX 기준), 15분 유지" in rule[0]
    tap_first(phone, "[data-action=delete-alert]")
    said(phone, "알림을 삭제했습니다")
    # A volume spike asks for its factor and a window of 1–60 minutes (5 by default), nothing else.
    kind.select_by_value("volumeSpike")
    assert phone.find_element(By.ID, "alert-factor").is_displayed()
    assert not phone.find_element(By.ID, "alert-percent").is_displayed()
    assert not phone.find_element(By.ID, "alert-venue").is_displayed()
    window = phone.find_element(By.ID, "alert-window")
    assert window.is_displayed() and window.get_attribute("max") == "60" and window.get_attribute("value") == "5"
    fill(phone, "#alert-factor", "0.5")
    tap(phone, phone.find_element(By.CSS_SELECTOR, "#alerts-form button[type=submit]"))
    assert "1 이상" in refused_under(phone, "alert-factor")
    console_errors(phone)
    fill(phone, "#alert-factor", "3")
    tap(phone, phone.find_element(By.CSS_SELECTOR, "#alerts-form button[type=submit]"))
    said(phone, "알림을 추가했습니다")
    rule = wait(phone, lambda d: [text for text in texts(d, "#alert-list li") if "거래대금" in text])
    assert "5분 거래대금 평소의 3배 이상" in rule[0]
    tap_first(phone, "[data-action=delete-alert]")
    said(phone, "알림을 삭제했습니다")
    # An indicator signal shows its signal and candle, then the RSI level or the two averages.
    kind.select_by_value("indicator")
    assert not phone.find_element(By.ID, "alert-factor").is_displayed()
    assert phone.find_element(By.ID, "alert-level").is_displayed()
    Select(phone.find_element(By.ID, "alert-indicator")).select_by_value("maCrossUp")
    assert not phone.find_element(By.ID, "alert-level").is_displayed()
    assert phone.find_element(By.ID, "alert-fast").is_displayed() and phone.find_element(By.ID, "alert-slow").is_displayed()
    Select(phone.find_element(By.ID, "alert-interval")).select_by_value("4h")
    tap(phone, phone.find_element(By.CSS_SELECTOR, "#alerts-form button[type=submit]"))
    said(phone, "알림을 추가했습니다")
    rule = wait(phone, lambda d: [text for text in texts(d, "#alert-list li") if "이평" in text])
    assert "4시간봉 5·20 이평 골든크로스" in rule[0]
    tap_first(phone, "[data-action=delete-alert]")
    said(phone, "알림을 삭제했습니다")
    # 체결강도: its percent alone, read back in words.
    kind.select_by_value("strengthAbove")
    assert phone.find_element(By.ID, "alert-percent").is_displayed()
    assert not phone.find_element(By.ID, "alert-indicator").is_displayed()
    fill(phone, "#alert-percent", "150")
    tap(phone, phone.find_element(By.CSS_SELECTOR, "#alerts-form button[type=submit]"))
    said(phone, "알림을 추가했습니다")
    rule = wait(phone, lambda d: [text for text in texts(d, "#alert-list li") if "체결강도" in text])
    assert "체결강도 150% 이상" in rule[0]
    tap_first(phone, "[data-action=delete-alert]")
    said(phone, "알림을 삭제했습니다")
    assert console_errors(phone) == []


@contextlib.contextmanager
def new_device(driver, site):
    """A phone that has never been here (no cookies, nothing stored), given back as new: the
    journey's stars, holdings and rules stay with a device the module's other tests never see."""
    def forget():
        driver.get(site.url + "/")
        driver.delete_all_cookies()
        driver.execute_script("localStorage.clear(); sessionStorage.clear();")
    forget()
    try:
        yield
    finally:
        forget()


@pytest.mark.narrow
def test_rules_on_every_favorite_and_on_the_portfolio_total(site, phone):
    """A rule on every favorite has no market field, no price line and no P&L line, and needs a
    starred coin; the portfolio's total takes P&L lines alone, as an amount, and needs a holding."""
    with new_device(phone, site):
        open_board(phone, site)
        open_tab(phone, "alerts")
        wait(phone, lambda d: d.find_element(By.ID, "alerts-form").is_displayed())
        kind = Select(phone.find_element(By.ID, "alert-type"))
        # Every favorite: no market field, no price line and no P&L line; refused under the target while nothing is
        # starred; once a coin is starred on the board, kept and read back as the whole list's.
        Select(phone.find_element(By.ID, "alert-target")).select_by_value("favorites")
        assert not phone.find_element(By.ID, "alert-market").is_displayed()
        assert [o.get_attribute("value") for o in kind.options if not o.is_enabled()] == [
            "above", "below", "pnlAbove", "pnlBelow", "pnlAmountAbove", "pnlAmountBelow"]
        kind.select_by_value("move")
        fill(phone, "#alert-percent", "5")
        tap(phone, phone.find_element(By.CSS_SELECTOR, "#alerts-form button[type=submit]"))
        assert "관심 코인이 없습니다" in refused_under(phone, "alert-target")
        console_errors(phone)
        open_tab(phone, "exchange")
        # A phone this narrow stars a coin on its screen (the board has no star column).
        tap(phone, wait(phone, lambda d: d.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-BTC"] .name')))
        star = wait(phone, lambda d: d.find_element(By.ID, "detail-star") if d.find_element(By.ID, "detail-star").is_displayed()
                    and d.find_element(By.ID, "detail-star").is_enabled() else None)
        tap(phone, star)
        wait(phone, lambda d: star.get_attribute("aria-pressed") == "true")
        tap(phone, phone.find_element(By.ID, "detail-back"))
        open_tab(phone, "alerts")
        tap(phone, wait(phone, lambda d: d.find_element(By.CSS_SELECTOR, "#alerts-form button[type=submit]")))
        said(phone, "알림을 추가했습니다")
        rule = wait(phone, lambda d: [text for text in texts(d, "#alert-list li") if "관심 코인" in text])
        assert "관심 코인 전체 · 10분 내 5% 변동" in rule[0] and "favorites" not in rule[0]
        # The portfolio's total: P&L lines alone; an amount, not a percent; refused while nothing is
        # held, kept once a transaction is in.
        Select(phone.find_element(By.ID, "alert-target")).select_by_value("portfolio")
        assert [o.get_attribute("value") for o in kind.options if o.is_enabled()] == ["pnlAbove", "pnlBelow", "pnlAmountAbove", "pnlAmountBelow"]
        kind.select_by_value("pnlAmountBelow")
        assert phone.find_element(By.ID, "alert-amount").is_displayed() and not phone.find_element(By.ID, "alert-percent").is_displayed()
        fill(phone, "#alert-amount", "-1000000")
        tap(phone, phone.find_element(By.CSS_SELECTOR, "#alerts-form button[type=submit]"))
        assert "보유 코인이 없습니다" in refused_under(phone, "alert-target")
        console_errors(phone)
        open_tab(phone, "portfolio")
        wait(phone, lambda d: d.find_element(By.ID, "portfolio-form").is_displayed())
        fill(phone, "#tx-market", "KRW-BTC")
        fill(phone, "#tx-quantity", "0.1")
        fill(phone, "#tx-price", "90000000")
        tap(phone, phone.find_element(By.CSS_SELECTOR, "#portfolio-form button[type=submit]"))
        said(phone, "거래를 추가했습니다")
        open_tab(phone, "alerts")
        tap(phone, wait(phone, lambda d: d.find_element(By.CSS_SELECTOR, "#alerts-form button[type=submit]")))
        said(phone, "알림을 추가했습니다")
        rule = wait(phone, lambda d: [text for text in texts(d, "#alert-list li") if "포트폴리오" in text])
        assert "포트폴리오 합계 평가손익 -1,000,000원 이하" in rule[0]
        assert console_errors(phone) == []


def refused_under(driver, field_id):
    """The refusal the server wrote under a field (waits for it); fails when the field is not marked."""
    wait(driver, lambda d: d.find_element(By.ID, field_id).get_attribute("aria-invalid") == "true")
    return driver.find_element(By.ID, f"{field_id}-error").text


def no_sideways_scroll(driver):
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.narrow
@pytest.mark.parametrize("field,value,words", [
    ("tx-quantity", "9" * 32, "1,000조"),
    ("tx-price", "0", "0보다 커야"),
    ("tx-fee", "1" * 20, "1조"),
    ("tx-quantity", "0.000000001", "소수점 8자리"),
])
def test_an_absurd_transaction_number_is_refused_under_its_field(site, phone, field, value, words):
    open_board(phone, site)
    open_tab(phone, "portfolio")
    wait(phone, lambda d: d.find_element(By.ID, "portfolio-form").is_displayed())
    for selector, sane in (("#tx-market", "KRW-BTC"), ("#tx-quantity", "0.5"), ("#tx-price", "90000000"), ("#tx-fee", "0")):
        fill(phone, selector, sane)
    fill(phone, f"#{field}", value)
    tap(phone, phone.find_element(By.CSS_SELECTOR, "#portfolio-form button[type=submit]"))
    assert words in refused_under(phone, field)
    assert phone.find_elements(By.CSS_SELECTOR, "[data-action=delete-transaction]") == [], "nothing was added"
    assert no_sideways_scroll(phone)
    console_errors(phone)  # the refusal's 400, which Chromium logs; the page handled it


@pytest.mark.narrow
def test_an_absurd_alert_price_is_refused_and_the_page_keeps_its_width(site, phone):
    open_board(phone, site)
    open_tab(phone, "alerts")
    wait(phone, lambda d: d.find_element(By.ID, "alerts-form").is_displayed())
    fill(phone, "#alert-market", "KRW-BTC")
    Select(phone.find_element(By.ID, "alert-type")).select_by_value("above")
    fill(phone, "#alert-price", "9" * 40)
    tap(phone, phone.find_element(By.CSS_SELECTOR, "#alerts-form button[type=submit]"))
    assert "1조" in refused_under(phone, "alert-price")
    assert phone.find_elements(By.CSS_SELECTOR, "[data-action=delete-alert]") == []
    console_errors(phone)  # the refusals' 400s, which Chromium logs; the page handled them
    phone.refresh()
    open_tab(phone, "alerts")
    assert no_sideways_scroll(phone)
    assert console_errors(phone) == []


RANKING_CUTS = """
const cut = (e) => e.scrollWidth > e.clientWidth + 1;
const rows = Array.from(document.querySelectorAll('#ranking-rows tr[data-coin]')).slice(0, 20);
const problems = [];
for (const row of rows) {
  const name = row.querySelector('.name').textContent;
  if (row.getBoundingClientRect().height > 72) problems.push(`${name}: a ${Math.round(row.getBoundingClientRect().height)} px row`);
  for (const cell of row.querySelectorAll('td.num, td.num > *')) {
    if (cell.offsetParent !== null && cut(cell)) problems.push(`${name}: "${cell.textContent}" is cut`);
  }
  if (name.length <= 5 && cut(row.querySelector('.name'))) problems.push(`the name ${name} is cut`);
}
return problems;
"""


@pytest.mark.parametrize("width", [320, 390, 1280])
def test_the_ranking_shows_every_name_and_figure_whole(site, phone, width):
    phone.set_window_size(width, 844)
    try:
        phone.get(site.url + "/ranking")
        wait(phone, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#ranking-rows tr[data-coin]")) >= 20, timeout=30)
        assert phone.execute_script(RANKING_CUTS) == []
        assert no_sideways_scroll(phone)
    finally:
        phone.set_window_size(390, 844)


@pytest.mark.narrow
def test_a_bad_deep_link_says_why_and_leads_back(site, phone):
    console_errors(phone)
    phone.get(site.url + "/coin/KRW-NOPE")
    note = wait(phone, lambda d: d.find_element(By.ID, "detail-error") if d.find_element(By.ID, "detail-error").is_displayed() else None, timeout=20)
    assert "KRW-NOPE" in note.text and "찾을 수 없습니다" in note.text, f"the page says why, in Korean: {note.text}"
    assert not any(button.is_displayed() for button in phone.find_elements(By.CSS_SELECTOR, "[data-range]")), "no range buttons for nothing"
    tap(phone, phone.find_element(By.ID, "detail-back"))
    wait(phone, lambda d: d.find_element(By.ID, "board-panel").is_displayed() and row_count(d) > 100)
    assert [e for e in console_errors(phone) if "KRW-NOPE" not in e] == []  # its 404 is the answer, not an error


def test_an_unknown_page_is_styled_and_quiet(site, phone):
    console_errors(phone)
    phone.get(site.url + "/no/such/page")
    wait(phone, lambda d: "404" in d.title)
    assert phone.execute_script("return getComputedStyle(document.body).maxWidth") == "480px", "its stylesheet applies"
    assert [e for e in console_errors(phone) if "/no/such/page" not in e] == []  # no CSP refusal, no favicon 404
    tap(phone, phone.find_element(By.CSS_SELECTOR, 'a[href="/"]'))
    wait(phone, lambda d: row_count(d) > 10, timeout=20)


def test_a_btc_board_gives_the_premium_columns_room_back(site, phone):
    open_board(phone, site)
    assert phone.find_element(By.CSS_SELECTOR, '#board [data-sort="premium"]').is_displayed(), "KRW: 김프 shown at 390 px"
    tap(phone, phone.find_element(By.CSS_SELECTOR, '[data-quote="BTC"]'))
    wait(phone, lambda d: d.execute_script("return document.querySelectorAll('#rows tr[data-market^=\"BTC-\"]').length") > 10)
    assert not phone.find_element(By.CSS_SELECTOR, '#board [data-sort="premium"]').is_displayed(), "no 김프 column of dashes"
    tap(phone, phone.find_element(By.CSS_SELECTOR, '[data-quote="KRW"]'))
    wait(phone, lambda d: d.find_element(By.CSS_SELECTOR, '#board [data-sort="premium"]').is_displayed())


CURVE = """
const chart = document.querySelector('#premium-chart');
if (!chart.querySelector('svg')) chart.innerHTML = '<svg xmlns="http://www.w3.org/2000/svg" class="spark" viewBox="0 0 72 20" width="72" height="20" '
  + 'role="img" aria-label="7d"><path d="M1 19 L36 10 L71 1" fill="none" stroke="#d60000" stroke-width="1.2"/></svg>';
"""

BOARD_SIGHT = """
const heads = document.querySelector('#board [data-sort="price"]').getBoundingClientRect();
const bar = document.querySelector('.tabs');
const floor = getComputedStyle(bar).position === 'fixed' ? bar.getBoundingClientRect().top : innerHeight;
const rows = Array.from(document.querySelectorAll('#rows tr[data-market]'), (row) => row.getBoundingClientRect());
const atHeads = document.elementFromPoint(heads.left + heads.width / 2, heads.top + heads.height / 2);
const shown = Array.from(document.querySelectorAll('body *'), (element) => [element, element.getBoundingClientRect()])
  .filter(([element, box]) => box.height > 0 && box.bottom > 0 && box.top < heads.top && element.children.length === 0 && element.textContent.trim())
  .map(([element, box]) => `${element.tagName.toLowerCase()}${element.id ? '#' + element.id : ''}@${Math.round(box.top)}+${Math.round(box.height)}: ${element.textContent.trim().slice(0, 30)}`);
return {rows: rows.filter((box) => box.top >= heads.bottom - 1 && box.bottom <= floor + 1).length,
        headsTop: Math.round(heads.top), headsOnTop: Boolean(atHeads && atHeads.closest('#board thead')),
        layout: {innerHeight, headsBottom: Math.round(heads.bottom), floor: Math.round(floor),
                 rowHeight: rows.length ? Math.round(rows[0].height) : 0, above: shown}};
"""


@pytest.mark.narrow
def test_the_column_heads_stay_on_screen_and_nine_rows_show(site, phone):
    # The phone's whole viewport, 390×844 or 360×740 (a window of that size has less: the browser's own chrome).
    width = phone.get_window_size()["width"]
    height = {390: 844, 360: 740}[width]
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    try:
        open_board(phone, site)
        wait(phone, lambda d: d.execute_script("return !document.querySelector('#premium-bar').hidden"))
        # As the board looks once the premium has a history (a few minutes after start): the
        # server's 72×20 curve of the day beside the market premium.
        phone.execute_script(CURVE)
        sight = phone.execute_script(BOARD_SIGHT)
        assert sight["rows"] >= 9, f"only {sight['rows']} rows on a {width}×{height} screen: {sight['layout']}"
        phone.execute_script("document.querySelectorAll('#rows tr[data-market]')[250].scrollIntoView({block: 'center'})")
        wait(phone, lambda d: d.execute_script("return scrollY") > 1000)
        sight = phone.execute_script(BOARD_SIGHT)
        assert 0 <= sight["headsTop"] < 200 and sight["headsOnTop"], f"after 250 rows the column heads are gone: {sight}"
    finally:
        phone.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_theme_returns_to_automatic(site, phone):
    open_board(phone, site)
    themes = []
    for _ in range(3):
        tap(phone, phone.find_element(By.ID, "theme-toggle"))
        themes.append(phone.execute_script("return [document.documentElement.dataset.theme, localStorage.getItem('sise.theme')]"))
    assert themes == [["dark", "dark"], ["light", "light"], ["auto", None]], themes



def test_compare_finds_by_initials_sorts_and_opens_a_coin(site, phone):
    open_board(phone, site)
    open_tab(phone, "compare")
    rows = lambda d: attributes(d, "#compare-rows tr[data-compare]", "data-compare")
    wait(phone, lambda d: len(rows(d)) > 10, timeout=20)
    fill(phone, "#compare-search", "ㅂㅌ")
    found = lambda names: "BTC" in names and "ETH" not in names
    wait(phone, lambda d: found(rows(d)))
    tap(phone, phone.find_element(By.CSS_SELECTOR, "#compare-coin button"))
    wait(phone, lambda d: d.find_element(By.ID, "compare-coin").get_attribute("aria-sort") == "ascending")
    # At least BTC on screen: an empty table is in no order worth checking.
    in_order = lambda names: bool(names) and names == sorted(names)
    wait(phone, lambda d: in_order(rows(d)))
    tap(phone, phone.find_element(By.CSS_SELECTOR, '#compare-rows tr[data-compare="BTC"]'))
    wait(phone, lambda d: "/coin/KRW-BTC" in d.current_url and d.find_element(By.ID, "coin-detail").is_displayed())
    wait(phone, lambda d: "비트코인" in d.find_element(By.ID, "detail-name").text)
    tap(phone, phone.find_element(By.ID, "detail-back"))
    # A stale venue reads as waiting, not deleted.
    decoration = phone.execute_script("""
        const td = document.querySelector('#compare-rows td[data-venue]'); td.classList.add('stale');
        const line = getComputedStyle(td).textDecorationLine; td.classList.remove('stale'); return line;""")
    assert decoration == "none"
    assert console_errors(phone) == []


LOADING = ("return Array.from(document.querySelectorAll('.loading-row[data-loading-for=\"' + arguments[0].slice(1) + '\"]'),"
           " e => e.offsetParent !== null ? e.textContent : null)")


@pytest.mark.parametrize("tab, rows", [("ranking", "#ranking-rows"), ("compare", "#compare-rows"), ("alerts", "#alert-history")])
def test_a_slow_answer_shows_loading_where_its_rows_will_be(site, tab, rows):
    driver = Chromium.tab(390, 844)
    driver.get(site.url)
    wait(driver, lambda d: d.execute_script("return document.querySelectorAll('#rows tr[data-market]').length") > 10, timeout=20)
    latency(driver, 2500)
    open_tab(driver, tab)
    shown = wait(driver, lambda d: d.execute_script(LOADING, rows), timeout=2)
    assert shown == ["불러오는 중…"], shown
    wait(driver, lambda d: not d.execute_script(LOADING, rows), timeout=20)


def test_a_first_answer_refused_says_the_servers_words_not_check_the_connection(site, phone):
    open_board(phone, site)
    said = phone.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/loading.js').then(({ loading, failed }) => {
          const list = document.createElement('ul');
          list.id = 'probe-list';
          document.body.append(list);
          loading(list, '불러오는 중…');
          const refused = Object.assign(new Error('거래소 시세를 아직 불러오는 중입니다'), { fromServer: true });
          failed(list, refused, '불러오지 못했습니다. 연결을 확인해 주세요');
          const first = list.textContent;
          failed(list, new TypeError('Failed to fetch'), '불러오지 못했습니다. 연결을 확인해 주세요');
          const second = list.textContent;
          list.remove();
          done([first, second]);
        }, (error) => done(String(error)));
    """)
    assert said == ["거래소 시세를 아직 불러오는 중입니다", "불러오지 못했습니다. 연결을 확인해 주세요"], said
    assert console_errors(phone) == []


def test_a_submit_on_a_slow_network_says_it_is_working_and_sends_once(site):
    driver = Chromium.tab(390, 844)
    driver.get(site.url)
    wait(driver, lambda d: d.execute_script("return document.querySelectorAll('#rows tr[data-market]').length") > 10, timeout=20)
    open_tab(driver, "alerts")
    wait(driver, lambda d: d.find_element(By.ID, "alerts-form").is_displayed())
    fill(driver, "#alert-market", "KRW-BTC")
    fill(driver, "#alert-price", "300000000")
    latency(driver, 1500)
    busy = driver.execute_script(
        "const form = document.getElementById('alerts-form'), button = form.querySelector('button[type=submit]');"
        "button.click(); button.click();"
        "return [form.getAttribute('aria-busy'), button.disabled]")
    assert busy == ["true", True], busy
    wait(driver, lambda d: d.find_element(By.ID, "alerts-form").get_attribute("aria-busy") is None, timeout=20)
    assert driver.find_element(By.CSS_SELECTOR, "#alerts-form button[type=submit]").is_enabled()
    latency(driver, 0)
    rules = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-action=delete-alert]"), timeout=20)
    assert len(rules) == 1, "two taps made one alert"
    tap(driver, rules[0])
    wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "[data-action=delete-alert]"))


WATCH_START = """
window.__seen = {};
const Native = window.WebSocket;
window.WebSocket = function (...args) { window.__seen.socket ??= performance.now(); return new Native(...args); };
window.WebSocket.prototype = Native.prototype;
Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
const fetched = window.fetch;
window.fetch = async (...args) => {
  const answer = await fetched(...args);
  if (String(args[0]).includes("/api/session")) window.__seen.session ??= performance.now();
  return answer;
};
"""


def test_the_live_socket_opens_beside_the_words_and_the_session_not_after_them(site):
    driver = Chromium.tab(390, 844)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH_START})
    latency(driver, 400)
    driver.get(site.url)
    seen = wait(driver, lambda d: d.execute_script("return window.__seen.socket && window.__seen.session ? window.__seen : null"), timeout=20)
    assert seen["socket"] < seen["session"], f"the socket waited for the session: {seen}"
    wait(driver, lambda d: row_count(d) > 10, timeout=20)
    assert console_errors(driver) == []


@pytest.mark.narrow
def test_rows_not_live_lose_their_colours_and_the_retry_button_keeps_its_word_whole(site, phone):
    open_board(phone, site)
    site.faults(wsRefuse=True, wsDropNow=True, errorRate=1, errorStatus=503)
    try:
        banner = phone.find_element(By.ID, "offline-banner")
        wait(phone, lambda d: banner.is_displayed(), timeout=20)
        colours = phone.execute_script("""
            const muted = getComputedStyle(document.documentElement).getPropertyValue('--muted').trim();
            const probe = document.createElement('span'); probe.style.color = muted; document.body.append(probe);
            const grey = getComputedStyle(probe).color; probe.remove();
            const rows = Array.from(document.querySelectorAll('#rows tr[data-change="RISE"], #rows tr[data-change="FALL"]')).slice(0, 10);
            return {grey, rows: rows.map(tr => [tr.classList.contains('stale'), getComputedStyle(tr.querySelector('.price')).color])};""")
        assert colours["rows"], "rising and falling rows to look at"
        assert all(stale and colour == colours["grey"] for stale, colour in colours["rows"]), colours
        retry = banner.find_element(By.TAG_NAME, "button")
        assert phone.execute_script("const r = arguments[0].getClientRects(); return arguments[0].scrollHeight <= 44 && r.length", retry) == 1
        assert retry.size["height"] <= 48, f"재시도 wraps: {retry.size}"
    finally:
        site.faults(wsRefuse=False, errorRate=0)
    wait(phone, lambda d: d.find_element(By.ID, "status").get_attribute("data-state") == "live", timeout=20)
    wait(phone, lambda d: not d.find_elements(By.CSS_SELECTOR, "#rows tr.stale"), timeout=20)


SELECTED_CONTRAST = r"""
const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
const lum = (c) => { const [r, g, b] = rgb(c).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
                     return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const page = getComputedStyle(document.body).backgroundColor;
const out = [];
for (const group of ['.ranges', '.quotes']) {
  const on = document.querySelector(group + ' [aria-pressed="true"]'), off = document.querySelector(group + ' [aria-pressed="false"]');
  if (!on || !off) continue;
  out.push([group, ratio(getComputedStyle(on).backgroundColor, page), ratio(getComputedStyle(on).backgroundColor, getComputedStyle(off).backgroundColor)]);
}
return out;
"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_selected_button_stands_out_in_either_theme(site, phone, theme):
    open_board(phone, site)
    phone.execute_script("document.documentElement.dataset.theme = arguments[0]", theme)
    try:
        tap(phone, phone.find_element(By.CSS_SELECTOR, '#rows tr[data-market="KRW-BTC"]'))
        wait(phone, lambda d: d.find_element(By.ID, "coin-detail").is_displayed())
        measured = phone.execute_script(SELECTED_CONTRAST)
        assert measured, "selected and unselected buttons to compare"
        for group, against_page, against_neighbour in measured:
            assert against_page >= 3 and against_neighbour >= 3, f"{theme} {group}: {against_page:.2f} / {against_neighbour:.2f}"
        tap(phone, phone.find_element(By.ID, "detail-back"))
    finally:
        phone.execute_script("document.documentElement.dataset.theme = 'auto'")


def search_results(driver):
    return driver.execute_script("return Array.from(document.querySelectorAll('#result-list li'), li => li.textContent)")


def searched(driver, query):
    """Types `query` into 코인정보's search and waits for its answer (a list, or why there is none)."""
    fill(driver, "#coin-search", query)
    wait(driver, lambda d: d.find_element(By.ID, "search-results").is_displayed()
         and d.find_element(By.ID, "search-results").get_attribute("data-query") == query, timeout=15)
    return search_results(driver)


@pytest.mark.parametrize("query", ["비트", "ㅂㅌ", "비"])
def test_coin_info_search_finds_coins_by_their_korean_names_and_initials(site, phone, query):
    open_board(phone, site)
    open_tab(phone, "info")
    hits = searched(phone, query)
    assert any(hit.startswith("비트코인") for hit in hits), f"{query} finds {hits}"
    assert all("ㅂ" in query or query in hit for hit in hits), hits
    tap(phone, phone.find_element(By.CSS_SELECTOR, '#result-list li[data-result-id="KRW-BTC"]'))
    wait(phone, lambda d: "/coin/KRW-BTC" in d.current_url and d.find_element(By.ID, "coin-detail").is_displayed())
    assert console_errors(phone) == []


def test_the_ranking_is_marked_once_in_the_bottom_bar(site, phone):
    open_board(phone, site)
    open_tab(phone, "ranking")
    wait(phone, lambda d: d.find_element(By.ID, "ranking-panel").is_displayed())
    marked = phone.execute_script(
        "return Array.from(document.querySelectorAll('.tabs > .tab-group [data-tab], #more-button'))"
        ".filter(e => e.classList.contains('current') || e.getAttribute('aria-selected') === 'true').map(e => e.dataset.tab || e.id)")
    assert marked == ["info"], marked
    open_tab(phone, "alerts")
    marked = phone.execute_script(
        "return Array.from(document.querySelectorAll('.tabs > .tab-group [data-tab], #more-button'))"
        ".filter(e => e.classList.contains('current') || e.getAttribute('aria-selected') === 'true').map(e => e.dataset.tab || e.id)")
    assert marked == ["more-button"], marked
    open_tab(phone, "exchange")


def test_favorites_with_none_go_straight_to_their_empty_state(site, phone):
    open_board(phone, site)
    assert phone.execute_script("return document.querySelectorAll('#rows [data-action=favorite][aria-pressed=true]').length") == 0
    # The moment the tab is tapped: not the whole board under 관심, not its 전체 삭제.
    rows, clear_hidden = phone.execute_script(
        "document.querySelector('[data-tab=favorites]').click();"
        "return [document.querySelectorAll('#rows tr[data-market]').length, document.getElementById('clear-favorites').hidden]")
    assert rows == 0 and clear_hidden, (rows, clear_hidden)
    wait(phone, lambda d: d.find_element(By.ID, "empty").is_displayed())
    assert phone.find_element(By.ID, "empty").text.startswith("관심 종목이 없습니다")
    assert not phone.find_element(By.ID, "clear-favorites").is_displayed()
    open_tab(phone, "exchange")
    wait(phone, lambda d: row_count(d) > 100)
    assert console_errors(phone) == []


def test_a_favorite_card_names_its_coin_and_gives_its_price(site, phone):
    open_board(phone, site)
    starred(phone, "KRW-BTC")
    open_tab(phone, "info")
    card = '#favorite-cards .card[data-coin-id="KRW-BTC"]'
    wait(phone, lambda d: d.find_element(By.CSS_SELECTOR, card + " .card-name").text == "비트코인", timeout=15)
    wait(phone, lambda d: any(c.isdigit() for c in d.find_element(By.CSS_SELECTOR, card + " .card-price").text))
    assert "%" in phone.find_element(By.CSS_SELECTOR, card + " .card-change").text
    open_tab(phone, "exchange")
    starred(phone, "KRW-BTC", on=False)
    assert console_errors(phone) == []


# Every search box a person meets: the tab, the box, and where its answers stand.
SEARCH_BOXES = [
    ("exchange", "#search", "#rows tr[data-market]"),
    ("ranking", "#ranking-search", "#ranking-rows tr[data-coin]"),
    ("compare", "#compare-search", "#compare-rows tr[data-compare]"),
    ("info", "#coin-search", "#result-list li"),
    ("alerts", "#alert-market", "#alert-market-options li"),
    ("portfolio", "#tx-market", "#tx-market-options li"),
]


@pytest.mark.narrow
@pytest.mark.parametrize("tab, box, answers", SEARCH_BOXES, ids=[box[0] for box in SEARCH_BOXES])
def test_every_search_box_finds_a_coin_by_its_initials(site, phone, tab, box, answers):
    open_board(phone, site)
    open_tab(phone, tab)
    field = wait(phone, lambda d: d.find_element(By.CSS_SELECTOR, box) if d.find_element(By.CSS_SELECTOR, box).is_displayed() else None)
    field.clear()
    field.send_keys("ㅂㅌ")
    wait(phone, lambda d: any("비트코인" in text for text in texts(d, answers)), timeout=20)
    field.clear()
    phone.execute_script("arguments[0].dispatchEvent(new Event('input'))", field)
    assert console_errors(phone) == []


def test_a_market_the_exchange_does_not_list_is_refused_not_held_forever(site, phone):
    open_board(phone, site)
    open_tab(phone, "portfolio")
    wait(phone, lambda d: d.find_element(By.ID, "portfolio-form").is_displayed())
    fill(phone, "#tx-market", "KRW-NOPE")
    fill(phone, "#tx-quantity", "1")
    fill(phone, "#tx-price", "1000")
    tap(phone, phone.find_element(By.CSS_SELECTOR, "#portfolio-form button[type=submit]"))
    assert "KRW-NOPE" in refused_under(phone, "tx-market")
    assert phone.find_elements(By.CSS_SELECTOR, '#portfolio-rows tr[data-market="KRW-NOPE"]') == []
    console_errors(phone)  # the refusal's 404, which Chromium logs


def test_the_same_file_imported_twice_is_held_once_and_the_list_reads_as_a_list(site, phone, tmp_path):
    csv = tmp_path / "trades.csv"
    csv.write_text("type,exchange,market,quantity,price,fee,at,note\n"
                   "buy,upbit,KRW-ETH,2,5000000,0,2026-11-20T01:00:00Z,first\n"
                   "buy,upbit,KRW-ETH,2,5000000,0,2026-11-20T01:00:00Z,first\n"
                   "buy,bithumb,KRW-XRP,1234.5,900,0,2026-11-21T01:00:00Z,\n", encoding="utf-8")
    open_board(phone, site)
    open_tab(phone, "portfolio")
    wait(phone, lambda d: d.find_element(By.ID, "portfolio-form").is_displayed())
    upload = phone.find_element(By.ID, "portfolio-import")
    upload.send_keys(str(csv))
    said(phone, "3건을 가져왔습니다")
    quantity = lambda d: d.find_element(By.CSS_SELECTOR, '#portfolio-rows tr[data-market="KRW-ETH"] [data-col="quantity"]').text
    wait(phone, lambda d: quantity(d) == "4")
    upload.send_keys(str(csv))
    said(phone, "0건을 가져왔습니다 (3건은 이미 있어 건너뛰었습니다)")
    phone.refresh()
    open_tab(phone, "portfolio")
    wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, '#portfolio-transactions tr[data-market="KRW-XRP"]'))
    assert quantity(phone) == "4", "the second import doubled nothing"
    # The list: headings, names as people say them, figures grouped, 삭제 on screen.
    heads = [text for text in texts(phone, "#portfolio-transactions-table thead th") if text]
    assert heads[:4] == ["일시", "거래", "수량", "단가"], heads
    xrp = phone.find_element(By.CSS_SELECTOR, '#portfolio-transactions tr[data-market="KRW-XRP"]')
    assert xrp.find_element(By.CSS_SELECTOR, '[data-col="market"]').text == "매수 엑스알피(리플) · Bithumb", xrp.text
    assert xrp.find_element(By.CSS_SELECTOR, '[data-col="quantity"]').text == "1,234.5"
    assert phone.find_element(By.CSS_SELECTOR, '#portfolio-transactions tr[data-market="KRW-ETH"] [data-col="price"]').text == "5,000,000"
    for button in phone.find_elements(By.CSS_SELECTOR, "[data-action=delete-transaction]"):
        right = phone.execute_script("return arguments[0].getBoundingClientRect().right", button)
        assert right <= phone.execute_script("return innerWidth"), f"삭제 off-screen at x={right}"
    assert no_sideways_scroll(phone)
    eth = phone.find_element(By.CSS_SELECTOR, '#portfolio-rows tr[data-market="KRW-ETH"] [data-col="market"]').text
    assert eth == "이더리움 · Upbit", eth
    assert console_errors(phone) == []


KOREAN_LEFT = r"""
const hangul = /[\uac00-\ud7a3\u3131-\u318e]/;
const left = [];
// Words on screen (innerText leaves out what is hidden), every board row's words (off-screen ones
// too: they scroll in), and every label a screen reader reads of what is shown.
// The language switch reads 한 (the way back), and the brand is 시세 in either language.
const own = [document.getElementById('lang-toggle').textContent.trim(), '시세'];
for (const line of document.body.innerText.split('\n')) {
  if (hangul.test(line) && !own.includes(line.trim())) left.push(line.trim());
}
for (const tr of document.querySelectorAll('#rows tr[data-market]')) {
  const words = tr.querySelector('.value').textContent;
  if (hangul.test(words)) left.push(tr.dataset.market + ': ' + words);
}
for (const element of document.querySelectorAll('[aria-label]')) {
  if (element.offsetParent !== null && hangul.test(element.getAttribute('aria-label'))) left.push('aria-label: ' + element.getAttribute('aria-label'));
}
return left.slice(0, 12);
"""


@pytest.mark.narrow
def switch_language(driver):
    """The language switch as a person finds it: in the top bar, or on a narrow phone in 더보기's settings."""
    toggle = driver.find_element(By.ID, "lang-toggle")
    if toggle.is_displayed():
        tap(driver, toggle)
        return
    tap(driver, driver.find_element(By.ID, "more-button"))
    setting = wait(driver, lambda d: d.find_element(By.ID, "setting-lang") if d.find_element(By.ID, "setting-lang").is_displayed() else None)
    tap(driver, setting)


def test_after_switching_to_english_no_korean_word_is_left_on_screen(site, phone):
    open_board(phone, site)
    open_tab(phone, "ranking")
    wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#ranking-rows tr[data-coin]") and "쪽" in d.find_element(By.ID, "ranking-page").text,
         timeout=30)
    switch_language(phone)
    try:
        assert phone.find_element(By.ID, "ranking-page").text == "page 1"
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#ranking-rows tr[data-coin]"), timeout=30)
        open_tab(phone, "exchange")
        wait(phone, lambda d: d.find_element(By.ID, "board-panel").is_displayed() and row_count(d) > 100)
        phone.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        try:
            wait(phone, lambda d: d.execute_script(KOREAN_LEFT) == [], timeout=15)
        except Exception:
            pytest.fail(f"Korean left after switching to English: {phone.execute_script(KOREAN_LEFT)}")
    finally:
        switch_language(phone)
        wait(phone, lambda d: d.find_element(By.ID, "lang-toggle").get_attribute("textContent").strip() == "EN")
    assert console_errors(phone) == []


@pytest.fixture
def thrifty_site():
    """A server of its own with a CoinGecko budget of 3 calls a minute: spending it touches no other journey."""
    with tempfile.TemporaryDirectory() as data_dir:
        running = Server(data_dir, extra=["--coingecko-calls-per-minute", "3"]).start()
        yield running
        running.stop()


def test_quick_searches_past_coingeckos_budget_neither_stack_toasts_nor_leave_old_results(thrifty_site, phone):
    open_board(phone, thrifty_site)
    open_tab(phone, "info")
    refused = None
    for query in ["bitcoin", "ethereum", "solana", "cardano", "tron", "polkadot", "litecoin", "chainlink", "stellar",
                  "monero", "aptos", "sui", "near", "avalanche"]:
        hits = searched(phone, query)
        assert all(query in hit.lower() for hit in hits), f"{query}: results of another query stand under it: {hits}"
        assert len(toasts(phone)) <= 1, f"toasts stack: {toasts(phone)}"
        if not hits and phone.find_element(By.ID, "search-empty").get_attribute("data-failed") == "true":
            refused = phone.find_element(By.ID, "search-empty").text
            break
    assert refused and "한도" in refused and "body" not in refused, f"the budget's refusal is said in the list: {refused!r}"
    console_errors(phone)  # the 503 is the answer, which Chromium logs
