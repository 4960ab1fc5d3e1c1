"""The screenshot suite: every view at 320, 360, 390, 412, 768 and 1280 px, light and dark, saved
under artifacts/screens/ and held to the layout rules of layout_checks.js (nothing past the right
edge unless inside an element that scrolls itself, the page never scrolling sideways, no heading or
button label wrapping inside a word, tap targets of 44×44 px on phones) and no console error."""
import pathlib

from conftest import ROOT, Chromium
from test_board import wait

SCREENS = ROOT / "artifacts" / "screens"
CHECKS = (pathlib.Path(__file__).parent / "layout_checks.js").read_text()
WIDTHS = [(320, 640), (360, 740), (390, 844), (412, 915), (768, 1024), (1280, 900)]
PHONE = 430

# name → (address, a script true once the view shows its data, a step that opens it, phone only)
VIEWS = [
    ("board", "/", "return document.querySelectorAll('#rows tr[data-market]:not([data-pending])').length > 10", None, False),
    # The other quotes' boards: BTC's 8 places and USDT's figures (the other exchanges' boards lay out
    # as Upbit's KRW board does; their names are the hostile-names suites').
    ("board-btc", "/?quote=BTC", "return document.querySelectorAll('#rows tr[data-market]:not([data-pending])').length > 10", None, False),
    ("board-usdt", "/?quote=USDT", "return document.querySelectorAll('#rows tr[data-market]:not([data-pending])').length > 10", None, False),
    ("favorites", "/favorites", "return document.querySelectorAll('#rows tr[data-market]:not([data-pending])').length >= 2", None, False),
    ("info", "/info", "return document.querySelectorAll('#trending-coins li').length > 0", None, False),
    ("ranking", "/ranking", "return document.querySelectorAll('#ranking-rows tr').length > 0", None, False),
    ("compare", "/compare", "return document.querySelectorAll('#compare-rows tr').length > 0", None, False),
    ("portfolio", "/portfolio", "return document.querySelectorAll('#portfolio-rows tr').length > 0", None, False),
    ("alerts", "/alerts", "return document.querySelectorAll('#alert-list li').length > 0", None, False),
    # 더보기's overview of every coin's shut wallets (the notices' and changes' lists lay out as the coin page's).
    ("wallets", "/wallets", "return document.querySelectorAll('#wallets-overview-rows tr').length > 0 || !document.querySelector('#wallets-overview-empty').hidden", None, False),
    ("coin", "/coin/KRW-BTC", "return document.querySelectorAll('#detail-stats dt').length > 0 && document.querySelectorAll('#book-ladder tr').length > 0", None, False),
    ("profile-out", "/profile", "return !document.querySelector('#profile-logged-out').hidden", None, False),
    ("login", "/", "return !document.querySelector('#auth-dialog').hidden", "document.querySelector('[data-action=account]').click()", False),
    ("more", "/", "return document.querySelector('#more-sheet').hasAttribute('data-open')", "document.querySelector('#more-button').click()", True),
]
SIGNED_IN = [
    ("profile", "/profile", "return !document.querySelector('#profile-body').hidden && document.querySelector('#profile-email').textContent.length > 0", None, False),
]




def seed(driver, url):
    """Favorites, a transaction and an alert for this browser's owner, through the page's own client."""
    driver.get(url + "/")
    wait(driver, lambda d: d.execute_script("return document.cookie.includes('sise_csrf')"), timeout=20)
    driver.execute_async_script("""
        const done = arguments[0];
        const token = document.cookie.match(/sise_csrf=([0-9a-f]+)/)[1];
        const send = (method, path, body) => fetch(path, { method, credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': token }, body: body && JSON.stringify(body) });
        (async () => {
          for (const key of ['KRW-BTC', 'KRW-ETH', 'KRW-XRP']) await send('PUT', '/api/favorites/' + key);
          await send('POST', '/api/portfolio/transactions', { type: 'buy', exchange: 'upbit', market: 'KRW-BTC', quantity: '0.5', price: '50000000' });
          await send('POST', '/api/portfolio/transactions', { type: 'buy', exchange: 'upbit', market: 'KRW-ETH', quantity: '3', price: '3000000' });
          await send('POST', '/api/alerts', { exchange: 'upbit', market: 'KRW-BTC', type: 'above', price: '999999999' });
        })().then(() => done(), () => done());
    """)


def sign_up(driver):
    driver.execute_async_script("""
        const done = arguments[0];
        const token = document.cookie.match(/sise_csrf=([0-9a-f]+)/)[1];
        fetch('/api/auth/signup', { method: 'POST', credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': token },
          body: JSON.stringify({ email: 'screens@example.com', password: 'a long screen pass', nickname: '화면검사' }) })
          .then(() => done(), () => done());
    """)


def resize(driver, width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width <= PHONE})
    # Two frames: the new width is laid out and painted.
    driver.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]))")


def console_errors(driver):
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def shoot(driver, url, lang, views):
    """Every view of `views` in `lang`, at every width, light and dark: the problems found."""
    problems = []
    for name, path, ready, step, phone_only in views:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.get(url + "/")
        # Each view on its own terms: an exchange another view chose is not kept for the next.
        driver.execute_script("localStorage.setItem('sise.lang', arguments[0]); localStorage.setItem('sise.theme', 'light');"
                              "localStorage.removeItem('sise.exchange');", lang)
        driver.get(url + path)
        wait(driver, lambda d: d.execute_script("return document.documentElement.lang") == lang, timeout=20)
        if step:
            if phone_only:
                resize(driver, 390, 844)
            wait(driver, lambda d: d.execute_script("return document.readyState === 'complete'"))
            driver.execute_script(step)
        wait(driver, lambda d: d.execute_script(ready), timeout=30)
        for theme in ("light", "dark"):
            driver.execute_script("document.documentElement.dataset.theme = arguments[0]", theme)
            for width, height in WIDTHS:
                if phone_only and width > PHONE:
                    continue
                resize(driver, width, height)
                found = driver.execute_script(CHECKS, width <= PHONE)
                label = f"{name} {width}px {lang} {theme}"
                problems += [f"{label}: {problem}" for problem in found]
                SCREENS.mkdir(parents=True, exist_ok=True)
                driver.save_screenshot(str(SCREENS / f"{name}-{width}-{lang}-{theme}.png"))
        problems += [f"{name} {lang}: console error {message}" for message in console_errors(driver)]
    return problems




def run_suite(server, lang):
    driver = Chromium.tab(1280, 900)
    seed(driver, server.url)
    problems = shoot(driver, server.url, lang, VIEWS)
    driver.get(server.url + "/")
    sign_up(driver)
    problems += shoot(driver, server.url, lang, SIGNED_IN)
    assert not problems, f"{len(problems)} layout problems:\n" + "\n".join(problems[:80])
