"""An axe-core 4 audit (selenium-axe-python) of every view — board, favorites, coin info, search
results, a coin page, the ranking, portfolio, alerts and the log-in dialog — in Korean and English,
light and dark (the dark theme against the colour rules, which are all it changes): no moderate,
serious or critical violation (axe 4's heading order and unique landmarks included). (Search results are also held to the Nu HTML
Checker's rules in test_html_validity.py.)"""
import tempfile

import pytest
from selenium_axe_python import Axe
from selenium.webdriver.common.by import By

from conftest import Server
from test_board import wait


@pytest.fixture(scope="module")
def server():
    """The demo server with CoinGecko's budget opened up: the audit visits the views that call it
    (trending, a coin, the ranking, a search) faster than a person, and the point is the pages.
    A hundred KRW markets an exchange (every real coin of the demo and invented ones after them):
    each kind of row and mark is there, and axe reads every element — 250 of each only made the
    audit twice as slow."""
    with tempfile.TemporaryDirectory() as data_dir:
        running = Server(data_dir, extra=["--coingecko-calls-per-minute", "10000", "--demo-markets", "100"]).start()
        running.faults(geckoPerMinute=100000)
        yield running
        running.stop()

VIEWS = [("/", "#rows tr[data-market]"), ("/favorites", "#board-panel"), ("/info", "#info-panel"),
         ("/coin/KRW-BTC", "#detail-stats dt"), ("/ranking", "#ranking-rows tr[data-coin]"), ("/portfolio", "#portfolio-panel"), ("/alerts", "#alerts-panel"),
         ("/?login", "#auth-dialog"), ("/info?search", "#result-list li")]


# The dark theme changes colours and nothing else (the same elements, names and roles): it is
# held to the colour rules, the light theme to every rule. Each view is audited light, then dark
# on the same load — switched as the page's own theme button does, without a reload.
COLOURS_ONLY = "{runOnly: {type: 'rule', values: ['color-contrast', 'link-in-text-block']}, resultTypes: ['violations']}"
EVERY_RULE = "{resultTypes: ['violations']}"


def audit(driver, options=EVERY_RULE):
    # axe reads every element: on a loaded 2-core machine that outlasts WebDriver's default 30 s
    # for a script (the audit's verdict is the same, only later).
    driver.set_script_timeout(180)
    axe = Axe(driver)
    axe.inject()
    results = axe.run(options=options)
    bad = [v for v in results["violations"] if v["impact"] in ("moderate", "serious", "critical")]
    return bad, axe


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_no_moderate_serious_or_critical_violations(server, browser, lang):
    browser.get(server.url + "/")
    browser.execute_script("localStorage.setItem('sise.lang', arguments[0]); localStorage.setItem('sise.theme', 'light');", lang)
    problems = []
    for path, ready in VIEWS:
        browser.get(server.url + path.replace("?login", "").replace("?search", ""))
        wait(browser, lambda d: d.execute_script("return document.documentElement.lang") == lang, timeout=20)
        first = {"#auth-dialog": "#rows tr", "#result-list li": "#info-panel:not([hidden])"}.get(ready, ready)
        wait(browser, lambda d: d.execute_script("return !!document.querySelector(arguments[0])", first), timeout=20)
        if path == "/info?search":
            # Results as a person gets them: typed into the search box, the coins' tab shown.
            browser.find_element(By.ID, "coin-search").send_keys("bit")
            wait(browser, lambda d: d.execute_script("return document.querySelectorAll('#result-list li').length > 0"), timeout=20)
        if path == "/?login":
            browser.execute_script("document.querySelector('[data-action=account]').click()")
            wait(browser, lambda d: d.execute_script("return !document.querySelector('#auth-dialog').hidden"))
        backgrounds = set()
        for theme, options in (("light", EVERY_RULE), ("dark", COLOURS_ONLY)):
            backgrounds.add(browser.execute_script(
                "document.documentElement.dataset.theme = arguments[0]; return getComputedStyle(document.body).backgroundColor", theme))
            bad, axe = audit(browser, options)
            if bad:
                problems.append(f"{path} ({lang}, {theme}):\n" + axe.report(bad))
        assert len(backgrounds) == 2, f"{path}: the dark theme did not apply ({backgrounds})"
    assert not problems, "\n\n".join(problems)
