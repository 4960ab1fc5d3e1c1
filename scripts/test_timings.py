#!/usr/bin/env python3
"""The test command's timing table: every Swift suite and every pytest module with its seconds,
slowest first, and each phase's wall time. Reads what scripts/test.sh leaves in its log folder:
`swift*.log` (Swift Testing's "Suite X passed after N seconds"), `pytest*.xml` (JUnit XML) and
`phases.tsv` (phase, seconds). Usage: scripts/test_timings.py LOG_DIR"""
import collections
import glob
import os
import re
import sys
import xml.etree.ElementTree as ElementTree


def swift_suites(path):
    """(suite, seconds) from one Swift Testing log."""
    found = []
    for line in open(path, errors="replace"):
        match = re.search(r"Suite (\S+) (?:passed|failed) after ([0-9.]+) seconds", line)
        if match:
            found.append((match.group(1), float(match.group(2))))
    return found


def pytest_modules(path):
    seconds, counts = collections.defaultdict(float), collections.Counter()
    for case in ElementTree.parse(path).iter("testcase"):
        parts = case.get("classname", "?").split(".")
        # `Tests.Browser.test_board` or `Tests.Browser.test_board.TestSomething`: the module.
        module = ".".join(parts[:-1] if len(parts) > 1 and parts[-1][:1].isupper() else parts)
        seconds[module] += float(case.get("time", 0))
        counts[module] += 1
    return [(module, seconds[module], counts[module]) for module in seconds]


def main(folder):
    rows = []
    for path in sorted(glob.glob(os.path.join(folder, "swift*.log"))):
        label = os.path.basename(path)[:-4]
        for suite, seconds in swift_suites(path):
            rows.append((seconds, f"{label}: {suite}", ""))
    for path in sorted(glob.glob(os.path.join(folder, "pytest*.xml"))):
        for module, seconds, count in pytest_modules(path):
            rows.append((seconds, f"pytest: {module}", str(count)))
    print("\nSlowest suites and modules (seconds, tests):")
    for seconds, name, count in sorted(rows, reverse=True):
        print(f"  {seconds:8.1f}  {name}" + (f"  ({count})" if count else ""))
    phases = os.path.join(folder, "phases.tsv")
    if os.path.exists(phases):
        # Phases that ran side by side overlap: the test command's own wall time of the tests
        # ("wall (tests)") stands for them in the total.
        print("\nPhases (wall seconds):")
        rows = [line.rstrip("\n").split("\t") for line in open(phases) if "\t" in line]
        for name, seconds in rows:
            print(f"  {float(seconds):8.1f}  {name}")
        wall = [float(seconds) for name, seconds in rows if name == "wall (tests)"]
        before = sum(float(seconds) for name, seconds in rows if name in ("install", "lint", "build"))
        total = before + wall[0] if wall else sum(float(seconds) for _, seconds in rows)
        print(f"  {total:8.1f}  total")

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".test-logs")
