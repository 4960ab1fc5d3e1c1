#!/usr/bin/env python3
"""What a page open on a live demo costs in the browser: Chromium's CPU (every one of its
processes, read from /proc) while the page sits on screen, as a phone's battery pays it.

    scripts/bench-page.py [PATH ...]      (default: / /compare /coin/KRW-BTC)

Environment: SISE_BIN (default .build/debug/sise), SECONDS_PER_PAGE (default 25), RUNS (default 3),
WIDTH (default 390: a phone), MOTION (default `reduce`, as the browser suite's pages are;
`no-preference`: a phone whose person asked for nothing, the price glow animating). Prints every
run and the median per page."""
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "Tests" / "Browser"))
from conftest import Chromium, Server  # noqa: E402
from test_board import wait  # noqa: E402

SHOWN = {
    "/": "#rows tr[data-market]:not([data-pending])",
    "/compare": "#compare-rows tr[data-compare]",
    "/coin/KRW-BTC": "#book-ladder tr",
}


def chromium_cpu() -> float:
    found = subprocess.run(["pgrep", "-f", "chromium"], capture_output=True, text=True).stdout.split()
    total = 0
    for pid in found:
        try:
            stat = open(f"/proc/{pid}/stat").read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def main():
    paths = sys.argv[1:] or list(SHOWN)
    seconds = float(os.environ.get("SECONDS_PER_PAGE", "25"))
    runs = int(os.environ.get("RUNS", "3"))
    width = int(os.environ.get("WIDTH", "390"))
    motion = os.environ.get("MOTION", "reduce")
    figures = {path: [] for path in paths}
    with tempfile.TemporaryDirectory() as data_dir:
        server = Server(data_dir).start()
        try:
            for run in range(runs):
                for path in paths:
                    driver = Chromium.tab(width, 844)
                    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": motion}]})
                    driver.get(server.url + path)
                    shown = SHOWN.get(path, "body")
                    wait(driver, lambda d: d.execute_script("return document.querySelectorAll(arguments[0]).length > 0", shown), timeout=30)
                    time.sleep(3)
                    before = chromium_cpu()
                    time.sleep(seconds)
                    share = (chromium_cpu() - before) / seconds * 100
                    figures[path].append(share)
                    print(f"run {run + 1}  {path}: Chromium {share:.1f} % of a core", flush=True)
        finally:
            Chromium.close()
            server.stop()
    for path, shares in figures.items():
        print(f"median of {runs}, {path}: {statistics.median(shares):.1f} % of a core")


if __name__ == "__main__":
    main()
