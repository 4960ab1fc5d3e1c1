"""An axe-core audit (axe-selenium-python) of every view — board, favorites, coin info, a coin page,
the ranking, portfolio, alerts and the log-in dialog — in Korean and English, light and dark: no
serious or critical violation. (Search results are held to the Nu HTML Checker's rules in
test_html_validity.py.)"""
import pytest
from axe_selenium_python import Axe

from test_board import wait, row_count

VIEWS = [("/", "#rows tr[data-market]"), ("/favorites", "#board-panel"), ("/info", "#info-panel"),
         ("/coin/KRW-BTC", "#detail-stats dt"), ("/ranking", "#ranking-rows tr[data-coin]"), ("/portfolio", "#portfolio-panel"), ("/alerts", "#alerts-panel"),
         ("/?login", "#auth-dialog")]


def audit(driver):
    axe = Axe(driver)
    axe.inject()
    results = axe.run(options="{resultTypes: ['violations']}")
    bad = [v for v in results["violations"] if v["impact"] in ("serious", "critical")]
    return bad, axe


@pytest.mark.parametrize("lang,theme", [("ko", "light"), ("en", "dark"), ("ko", "dark"), ("en", "light")])
def test_no_serious_or_critical_violations(server, browser, lang, theme):
    browser.get(server.url + "/")
    browser.execute_script("localStorage.setItem('sise.lang', arguments[0]); localStorage.setItem('sise.theme', arguments[1]);", lang, theme)
    problems = []
    for path, ready in VIEWS:
        browser.get(server.url + path.replace("?login", ""))
        wait(browser, lambda d: d.execute_script("return document.documentElement.lang") == lang, timeout=20)
        wait(browser, lambda d: d.execute_script("return !!document.querySelector(arguments[0])", ready.replace("#auth-dialog", "#rows tr")), timeout=20)
        if path == "/?login":
            browser.execute_script("document.querySelector('[data-action=account]').click()")
            wait(browser, lambda d: d.execute_script("return !document.querySelector('#auth-dialog').hidden"))
        bad, axe = audit(browser)
        if bad:
            problems.append(f"{path} ({lang}, {theme}):\n" + axe.report(bad))
    assert not problems, "\n\n".join(problems)
