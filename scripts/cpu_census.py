#!/usr/bin/env python3
"""Where a run's CPU goes: reads every process in /proc once a second until it is stopped
(SIGINT/SIGTERM) or the command it was given ends, and prints the CPU seconds of each kind of
process (Chromium's renderers, `sise serve`, the Swift suites, pytest…), most first.

    scripts/cpu_census.py -- scripts/test.sh          a census of the test command
    scripts/cpu_census.py --seconds 60                of whatever runs in the next minute

A process is counted from its start (or the census's first look) to its last reading: one that
lives less than a second is missed, and so is a process's last second (a parent's children time
is not read, so nothing is counted twice)."""
import argparse
import os
import signal
import subprocess
import sys
import time

TICKS = os.sysconf("SC_CLK_TCK")


def kind(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            words = [w.decode(errors="replace") for w in handle.read().split(b"\0") if w]
    except OSError:
        return "?"
    if not words:
        return "?"
    program = os.path.basename(words[0])
    text = " ".join(words)
    if "chrom" in program:
        for role in ("renderer", "gpu-process", "utility", "zygote"):
            if f"--type={role}" in text:
                return f"chromium {role}"
        return "chromium browser"
    if program == "sise" and len(words) > 1:
        return f"sise {words[1]}"
    if program.endswith(".xctest"):
        return "swift tests"
    if program.startswith("python"):
        if "pytest" in text:
            return "pytest"
        if "wstest" in text:
            return "autobahn"
        return "python " + (os.path.basename(words[1]) if len(words) > 1 else "")
    return program


def reading(pid: str):
    """(start time, CPU seconds) of a process: the start time tells a reused pid from its last owner."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[19]), (int(fields[11]) + int(fields[12])) / TICKS  # starttime; utime + stime


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=0)
    parser.add_argument("command", nargs="*")
    args = parser.parse_args()
    child = subprocess.Popen(args.command) if args.command else None
    stopping = False

    def stop(*_):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    # Per process (pid, start time): CPU at the first and the last look, and its kind at the last
    # look (a child read between its fork and its exec still wears its parent's command line).
    first, last, kinds = {}, {}, {}
    started = time.time()
    passes = 0
    while not stopping:
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            read = reading(pid)
            if read is None:
                continue
            key = (pid, read[0])
            # A process born after the first look is counted from its start.
            first.setdefault(key, read[1] if passes == 0 else 0.0)
            last[key] = read[1]
            named = kind(pid)  # "?": no command line (a kernel thread, or a child already ended)
            if named != "?" or key not in kinds:
                kinds[key] = named
        passes += 1
        if child is not None and child.poll() is not None:
            break
        if args.seconds and time.time() - started >= args.seconds:
            break
        time.sleep(1)
    totals = {}
    for key, seconds in last.items():
        totals[kinds[key]] = totals.get(kinds[key], 0.0) + seconds - first[key]
    wall = time.time() - started
    print(f"\ncpu census over {wall:.0f} s: {sum(totals.values()):.0f} s of CPU", file=sys.stderr)
    for name, seconds in sorted(totals.items(), key=lambda item: -item[1]):
        if seconds >= 1:
            print(f"{seconds:9.1f}  {name}", file=sys.stderr)
    if child is not None:
        sys.exit(child.wait())


if __name__ == "__main__":
    main()
