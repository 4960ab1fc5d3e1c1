"""The screenshot suite's second half: every view while it loads, when it has nothing to show and
when the server cannot answer — at 390 px, held to the same layout rules (layout_checks.js), saved
as artifacts/screens/state-{view}-{state}-{lang}.png. Deterministic, not timed: a loading view's
answer is held back (its requests paused through the DevTools protocol, the board's view message
kept from the socket), an empty view belongs to a fresh visitor or a search that finds nothing,
and a failing view's requests are failed as a dropped network fails them."""
import contextlib

from conftest import Chromium
from screens import CHECKS, SCREENS, console_errors, resize
from selenium.common.exceptions import TimeoutException

from test_board import wait as wait_for


def wait(driver, condition, timeout=15, what=""):
    """`wait_for`, and on a timeout which view and state never came."""
    try:
        return wait_for(driver, condition, timeout=timeout)
    except TimeoutException:
        raise AssertionError(f"{what} never showed") from None

# view → (its address, the tab that opens it, the list whose loading note it shows, its data's requests)
VIEWS = {
    "board": ("/", "exchange", "rows", None),
    "favorites": ("/favorites", "favorites", "rows", None),
    "info": ("/info", "info", "trending-coins", "*/api/trending*"),
    "ranking": ("/ranking", "ranking", "ranking-rows", "*/api/ranking*"),
    "compare": ("/compare", "compare", "compare-rows", "*/api/compare*"),
    "portfolio": ("/portfolio", "portfolio", "portfolio-rows", "*/api/portfolio*"),
    "alerts": ("/alerts", "alerts", "alert-list", "*/api/alerts*"),
    "coin": ("/coin/KRW-BTC", None, "detail-stats", "*/api/coins/*"),
}

# A view's request over the live socket never reaches the server: its rows stay to come.
HOLD_SOCKET = """
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) { if (!/"type":"(view|portfolio)"/.test(String(data))) send.call(this, data); };
"""

def typed(box, text):
    return f"document.querySelector('{box}').value = '{text}'; document.querySelector('{box}').dispatchEvent(new Event('input'))"


# view → what shows once it has loaded (so its search box is wired), a script that leaves it
# empty, and what then says so
EMPTY = {
    "board": ("#rows tr[data-market]", typed("#search", "zzzzqq"), "empty"),
    "favorites": (None, None, "empty"),
    "info": ("#trending-coins li:not(.loading-row)", typed("#coin-search", "ㅋㅋㅋㅋ"), "search-empty"),
    "ranking": ("#ranking-rows tr[data-coin]", typed("#ranking-search", "zzzzqq"), "ranking-empty"),
    "compare": ("#compare-rows tr[data-compare]", typed("#compare-search", "zzzzqq"), "compare-empty"),
    "portfolio": (None, None, "portfolio-empty"),
    "alerts": (None, None, "alert-empty"),
    "coin": (None, None, "detail-error"),  # a coin the exchange does not list (a bad link)
}

# view → the script that says it failed, once it has
FAILED = {
    "board": "offline-banner",
    "favorites": "offline-banner",
    "info": "trending-note",
    "ranking": "ranking-empty",
    "compare": ".loading-row.failed[data-loading-for=compare-rows]",
    "portfolio": ".loading-row.failed[data-loading-for=portfolio-rows]",
    "alerts": ".loading-row.failed[data-loading-for=alert-list]",
    "coin": "detail-error",
}

# The live socket reaches nothing: the page has lost its server.
NO_SERVER = """
const Native = WebSocket;
window.WebSocket = function () { return new Native(location.origin.replace(/^http/, 'ws') + '/no-socket-here'); };
window.WebSocket.prototype = Native.prototype;
Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
"""


def shown(what):
    """A script true once `what` (an id, or a selector) is on screen with words in it."""
    find = f"document.querySelector('{what}')" if what.startswith(".") else f"document.getElementById('{what}')"
    return f"const e = {find}; return !!e && !e.hidden && e.offsetParent !== null && e.textContent.trim().length > 0"


def fresh(driver, url, lang):
    """A new visitor (no cookies, nothing saved) in `lang`, light, at 390 × 844."""
    driver.get(url + "/healthz")
    driver.delete_all_cookies()
    driver.execute_script("localStorage.clear(); localStorage.setItem('sise.lang', arguments[0]); localStorage.setItem('sise.theme', 'light');", lang)
    resize(driver, 390, 844)


@contextlib.contextmanager
def page_script(driver, source):
    """`source` runs first in every page `driver` loads while inside."""
    script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})["identifier"]
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script})


@contextlib.contextmanager
def offline(driver):
    """No network while inside (the socket already open stays so)."""
    driver.execute_cdp_cmd("Network.enable", {})
    conditions = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", conditions)
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {**conditions, "offline": False})


def check(driver, label):
    found = [f"{label}: {problem}" for problem in driver.execute_script(CHECKS, True)]
    SCREENS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENS / f"state-{label.replace(' ', '-')}.png"))
    return found


def loading_states(driver, url, lang):
    problems = []
    for view, (path, _, list_id, requests) in VIEWS.items():
        fresh(driver, url, lang)
        if requests:
            driver.execute_cdp_cmd("Fetch.enable", {"patterns": [{"urlPattern": requests}]})
        try:
            with page_script(driver, HOLD_SOCKET):
                driver.get(url + path)
                wait(driver, lambda d: d.execute_script(
                    f"const n = document.querySelector('.loading-row[data-loading-for=\"{list_id}\"]'); return !!n && n.offsetParent !== null"),
                    timeout=20, what=f"{view} loading")
                problems += check(driver, f"{view} loading {lang}")
        finally:
            if requests:
                driver.execute_cdp_cmd("Fetch.disable", {})
        console_errors(driver)  # the held requests, cut off by leaving
    return problems


def empty_states(driver, url, lang):
    problems = []
    for view, (loaded, step, says) in EMPTY.items():
        fresh(driver, url, lang)
        driver.get(url + (VIEWS[view][0] if view != "coin" else "/coin/KRW-NOPE"))
        wait(driver, lambda d: d.execute_script("return document.documentElement.lang") == lang, timeout=20)
        if step:
            wait(driver, lambda d: d.execute_script("return !!document.querySelector(arguments[0])", loaded), timeout=30, what=f"{view} loaded")
            driver.execute_script(step)
        wait(driver, lambda d: d.execute_script(shown(says)), timeout=20, what=f"{view} empty")
        problems += check(driver, f"{view} empty {lang}")
        problems += [f"{view} empty {lang}: console error {message}" for message in console_errors(driver) if "KRW-NOPE" not in message]
    return problems


def failed_states(driver, url, lang):
    """The server cannot be reached: the board's socket finds nothing; the other views are opened
    (or their data asked again) after the network went."""
    problems = []
    for view, (path, tab, _, _) in VIEWS.items():
        fresh(driver, url, lang)
        if view in ("board", "favorites"):
            with page_script(driver, NO_SERVER):
                driver.get(url + path)
                wait(driver, lambda d: d.execute_script(shown(FAILED[view])), timeout=30, what=f"{view} failed")
                problems += check(driver, f"{view} failed {lang}")
            console_errors(driver)  # the refused socket is the point
            continue
        driver.get(url + ("/" if tab else path))
        wait(driver, lambda d: d.execute_script("return document.querySelectorAll('#rows tr[data-market]').length > 0 || !!document.querySelector('#detail-stats dt')"), timeout=30)
        with offline(driver):
            if tab:
                driver.execute_script(f"document.querySelector('[data-tab={tab}]').click()")
            else:
                driver.execute_script("document.querySelector('[data-range=\"30d\"]').click()")
            wait(driver, lambda d: d.execute_script(shown(FAILED[view])), timeout=30, what=f"{view} failed")
            problems += check(driver, f"{view} failed {lang}")
        console_errors(driver)  # the refused requests are the point
    return problems


def run_states(server, lang):
    driver = Chromium.tab(390, 844)
    problems = loading_states(driver, server.url, lang) + empty_states(driver, server.url, lang) + failed_states(driver, server.url, lang)
    assert not problems, f"{len(problems)} layout problems:\n" + "\n".join(problems[:80])
