"""Fixtures for the browser suite: a real `sise serve --demo` and a real headless Chromium."""
import json
import os
import pathlib
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import ElementNotInteractableException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "browser"
os.environ.setdefault("SE_OFFLINE", "true")


def sise_binary() -> str:
    return os.environ.get("SISE_BIN", str(ROOT / ".build" / "debug" / "sise"))


class Server:
    """`sise serve --demo` on an ephemeral port; restartable on the same data directory."""

    def __init__(self, data_dir: str, extra=()):
        self.data_dir = data_dir
        self.extra = list(extra)
        self.process = None
        self.url = None

    def start(self):
        # Its stderr is kept: a server that dies says how (Swift's backtracer writes there).
        self.stderr = open(os.path.join(self.data_dir, "stderr.log"), "w")
        self.process = subprocess.Popen(
            # bcrypt at its least cost: the suite signs people up and in by the dozen (its pages
            # are the point, not the hash's strength; the Swift suites do the same).
            [sise_binary(), "serve", "--demo", "--demo-hostile-names", "--port", "0", "--data-dir", self.data_dir,
             "--password-cost", "4"] + self.extra,
            stdout=subprocess.PIPE, stderr=self.stderr, text=True,
            env={**os.environ, "SWIFT_BACKTRACE": "enable=yes,interactive=no,color=no"})
        deadline = time.time() + 60
        while time.time() < deadline:
            line = self.process.stdout.readline()
            if line.startswith("listening on "):
                self.url = line.split("listening on ", 1)[1].strip()
                break
        assert self.url, "sise serve did not print its listening line\n" + self.stderr_tail()
        self.wait_live()
        return self

    def status(self) -> dict:
        with urllib.request.urlopen(self.url + "/api/status", timeout=5) as response:
            return json.load(response)

    def wait_live(self, timeout=30):
        # One slow answer while a loaded machine starts the server is asked again; only the
        # deadline decides that the board never went live.
        deadline = time.time() + timeout
        last = None
        while time.time() < deadline:
            try:
                if self.status()["exchanges"]["upbit"]["state"] == "live":
                    return
            except (TimeoutError, OSError) as error:
                last = error
            time.sleep(0.2)
        # A process that ended says how (a negative code is the signal that ended it).
        raise AssertionError(f"the board never went live (last error: {last}; sise serve exit status: {self.process.poll()})\n"
                             + self.stderr_tail())

    def stderr_tail(self, lines=250):
        """The end of the server's stderr (a crash's backtrace), for a failure's message."""
        try:
            with open(os.path.join(self.data_dir, "stderr.log")) as log:
                return "".join(log.readlines()[-lines:])
        except OSError:
            return ""

    def faults(self, **switches):
        simulator = self.status()["simulator"]
        request = urllib.request.Request(simulator + "/_sim/faults", data=json.dumps(switches).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        urllib.request.urlopen(request, timeout=5).read()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)


@pytest.fixture
def server():
    with tempfile.TemporaryDirectory() as data_dir:
        running = Server(data_dir).start()
        yield running
        running.stop()


@pytest.fixture
def screens_server():
    """The screenshot suites' demo server (screens.py), a hundred KRW markets an exchange: every
    real coin of the demo (the longest names a row holds), invented ones after them and the
    hostile names. The layout rules read every element at twelve sizes a view; 250 rows of each
    kind only made that slower (a board's twelve sizes 6.1 → 3.9 s on an idle machine). CoinGecko's
    budget is the audit's (the views' layouts are the point here; a spent budget has its own
    tests): the seeded favorites' cards on 코인정보 spend the default ten calls a minute before
    the ranking is drawn."""
    with tempfile.TemporaryDirectory() as data_dir:
        running = Server(data_dir, extra=["--demo-markets", "100", "--coingecko-calls-per-minute", "10000"]).start()
        yield running
        running.stop()


def make_driver(width: int, height: int, dark: bool = False):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--lang=ko-KR", "--disable-gpu",
                     f"--window-size={width},{height}"):
        options.add_argument(argument)
    # (--disable-gpu: headless pages composite in software either way; without the emulated GPU
    # process a module costs ≈ 4 % less CPU.)
    options.add_experimental_option("prefs", {"intl.accept_languages": "ko-KR,ko"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_window_size(width, height)
    emulate_media(driver, dark)
    return driver


def emulate_media(driver, dark: bool):
    # A person who asked for reduced motion: a changed price keeps its outline without the fading
    # glow. The glow (an opacity animation of the cell's own layer) still costs a live board
    # 0.13–0.21 of a core against 0.08 without, and only test_board's glow test reads it.
    features = [{"name": "prefers-reduced-motion", "value": "reduce"}]
    if dark:
        features.append({"name": "prefers-color-scheme", "value": "dark"})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


class Chromium:
    """One headless Chromium for a test process, a fresh tab for each test that asks. Starting
    Chromium costs ≈ 1.8 s of CPU and a new tab ≈ 0.75 s, on a machine the whole test command keeps
    busy. A fresh tab starts with no history, no emulation and no injected script (they belong to
    the tab); what the tabs share — cookies, and the storage, service workers and caches of the
    origins the last tab visited — is cleared. A tab that cannot be replaced (a crashed or hung
    page) takes its Chromium with it: the next test starts another."""

    driver = None

    @classmethod
    def tab(cls, width: int, height: int, dark: bool = False):
        if cls.driver is not None:
            try:
                cls.renew(width, height, dark)
                return cls.driver
            except WebDriverException:
                cls.close()
        cls.driver = make_driver(width, height, dark)
        return cls.driver

    @classmethod
    def renew(cls, width: int, height: int, dark: bool):
        driver = cls.driver
        old = driver.current_window_handle
        history = driver.execute_cdp_cmd("Page.getNavigationHistory", {}).get("entries", [])
        origins = {origin for origin in (origin_of(entry.get("url", "")) for entry in history) if origin}
        driver.switch_to.new_window("tab")
        new = driver.current_window_handle
        driver.switch_to.window(old)
        driver.close()
        driver.switch_to.window(new)
        driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
        for origin in origins:
            driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        driver.set_window_size(width, height)
        emulate_media(driver, dark)
        driver.get_log("browser")  # the last tab's console is not this test's

    @classmethod
    def close(cls):
        if cls.driver is not None:
            try:
                cls.driver.quit()
            except WebDriverException:
                pass
            cls.driver = None


def origin_of(url: str):
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else None


@pytest.fixture(scope="session", autouse=True)
def _chromium_at_the_end():
    yield
    Chromium.close()


@pytest.fixture
def browser():
    return Chromium.tab(375, 812)


def open_tab(driver, name: str):
    """Clicks a tab as a person would: on a phone the tabs past the bottom bar's five are in 더보기.
    A person taps once the page stands: right after a reload the bars are still being laid out, so
    the tap waits until the tab can take it."""
    WebDriverWait(driver, 15).until(lambda d: d.execute_script("return document.readyState") == "complete")
    tab = driver.find_element(By.CSS_SELECTOR, f'[data-tab="{name}"]')
    if not tab.is_displayed():
        driver.find_element(By.ID, "more-button").click()
        # As long as the suite's other waits: a loaded machine may take seconds to slide the sheet in.
        WebDriverWait(driver, 15).until(lambda d: tab.is_displayed())

    def tapped(_):
        try:
            tab.click()
            return True
        except ElementNotInteractableException:
            return False

    WebDriverWait(driver, 15).until(tapped)


def texts(driver, selector: str):
    """The text of every element `selector` matches, in one round trip: reading a list element by
    element costs a round trip each (through chromedriver and three of Chromium's processes) —
    on a loaded machine a table of 200 rows read twice in a wait took minutes. As WebElement.text,
    an element not shown reads as ""."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0]), e => e.checkVisibility() ? e.innerText : '')", selector)


def attributes(driver, selector: str, name: str):
    """One attribute of every element `selector` matches, in one round trip (see `texts`)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0]), e => e.getAttribute(arguments[1]))", selector, name)


def fill(driver, selector: str, value: str):
    """Types into a field as a person does, after clearing what it held."""
    field = driver.find_element(By.CSS_SELECTOR, selector)
    field.clear()
    field.send_keys(value)


def tap(driver, element):
    """A tap as a thumb does it: the element scrolled to the middle of the screen first, clear of
    the phone's bottom bar (which is on top of whatever the page shows behind it)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def screenshot(driver, name: str):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def pytest_configure(config):
    config.addinivalue_line("markers", "narrow: a journey taken at 360 px as well as 390 px (test_journeys.py)")


def pytest_collection_modifyitems(config, items):
    """A journey runs at 360 px only when marked `narrow`: the done-when journeys of the phone walk
    (back, 초성 in every box, toasts, hostile numbers, language, offline, a bad link, rows on screen)."""
    narrow_only = [item for item in items if getattr(item, "callspec", None) and item.callspec.params.get("phone") == 360
                   and not item.get_closest_marker("narrow")]
    if narrow_only:
        config.hook.pytest_deselected(items=narrow_only)
        dropped = set(map(id, narrow_only))
        items[:] = [item for item in items if id(item) not in dropped]
