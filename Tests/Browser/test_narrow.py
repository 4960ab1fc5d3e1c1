"""The phone at its narrowest (320 px, Korean): the top bar keeps brand, live status and log-in on
one line, no word broken inside (the report: "시 / 세", "실시 / 간", "로그 / 인")."""
import pytest
from selenium.webdriver.common.by import By

from conftest import Chromium, screenshot
from test_board import wait


@pytest.mark.parametrize("width", [320, 390])
def test_the_top_bar_is_one_line(server, width):
    driver = Chromium.tab(width, 700)
    driver.get(server.url)
    wait(driver, lambda d: d.find_element(By.ID, "status").get_attribute("data-state") == "live")
    heights = driver.execute_script("""
        const bar = document.querySelector('.topbar').getBoundingClientRect();
        // Everything that shows (the spacer has no height of its own); each part's vertical centre.
        const parts = [...document.querySelectorAll('.topbar > *')].filter(e => e.offsetParent !== null && e.getBoundingClientRect().height > 0);
        return { bar: bar.height, parts: parts.map(e => { const r = e.getBoundingClientRect();
                                                          return [e.id || e.className, r.height, r.top + r.height / 2, r.right]; }) };
    """)
    for name, height, top, right in heights["parts"]:
        # A button is a thumb's size (44 px); two lines of text would be taller.
        assert height <= 46, f"{name} wraps ({height} px tall) at {width} px"
        assert right <= width, f"{name} runs off the screen at {width} px"
    centres = [centre for _, _, centre, _ in heights["parts"]]
    assert max(centres) - min(centres) <= 6 and heights["bar"] <= 56, f"the top bar's parts are on more than one line: {heights}"
    assert driver.find_element(By.ID, "account-button").text == "로그인"
    screenshot(driver, f"topbar-{width}")
