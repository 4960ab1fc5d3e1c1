#!/usr/bin/env python3
"""`sise serve --demo` started and stopped again and again, to catch a crash that happens once in
hundreds of start-ups (issue 84.6: a SIGSEGV on a NIO singleton event-loop thread just after
start-up). Each round starts a server on an ephemeral port with core dumps allowed, waits for its
first answer, asks a few routes, stops it with SIGTERM, and records how it ended. A death by a
signal keeps its data directory and stderr under artifacts/startup-loop/, with a backtrace from
gdb when gdb and the core are there.

    scripts/startup_loop.py [--rounds 2000] [--bin .build-opt/debug/sise] [--cpu 1]

Prints the rounds, the crashes (signal and round) and the median start-up time.
"""
import argparse
import os
import pathlib
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "artifacts" / "startup-loop"


def allow_cores():
    resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


def one_round(binary, cpu, index):
    work = tempfile.mkdtemp(prefix="sise-startup-")
    command = [binary, "serve", "--demo", "--port", "0", "--data-dir", work]
    if cpu is not None:
        command = ["taskset", "-c", str(cpu)] + command
    started = time.monotonic()
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              cwd=work, preexec_fn=allow_cores)
    ready = None
    try:
        line = server.stdout.readline()
        if "listening on " in line:
            url = line.split("listening on ", 1)[1].strip()
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and server.poll() is None:
                try:
                    if urllib.request.urlopen(url + "/healthz", timeout=2).status == 200:
                        ready = time.monotonic() - started
                        break
                except OSError:
                    time.sleep(0.05)
            for path in ("/api/markets", "/api/exchanges", "/"):
                try:
                    urllib.request.urlopen(url + path, timeout=5).read()
                except OSError:
                    pass
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
        _, err = server.communicate()
    code = server.returncode
    if code is not None and code < 0 and -code != signal.SIGTERM:
        keep = OUT / f"round-{index}"
        keep.mkdir(parents=True, exist_ok=True)
        (keep / "stderr.txt").write_text(err or "")
        for core in pathlib.Path(work).glob("core*"):
            shutil.move(str(core), keep / core.name)
            if shutil.which("gdb"):
                trace = subprocess.run(["gdb", "-batch", "-ex", "thread apply all bt", binary, str(keep / core.name)],
                                       capture_output=True, text=True)
                (keep / "backtrace.txt").write_text(trace.stdout)
    shutil.rmtree(work, ignore_errors=True)
    return code, ready


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--bin", default=os.environ.get("SISE_BIN", str(ROOT / ".build-opt" / "debug" / "sise")))
    parser.add_argument("--cpu", type=int, default=None, help="pin each server to this CPU")
    args = parser.parse_args()
    crashes, times, other = [], [], 0
    for index in range(args.rounds):
        code, ready = one_round(args.bin, args.cpu, index)
        if ready is not None:
            times.append(ready)
        if code is not None and code < 0 and -code != signal.SIGTERM:
            crashes.append((index, signal.Signals(-code).name))
            print(f"round {index}: died by {signal.Signals(-code).name}", flush=True)
        elif code not in (0, -signal.SIGTERM):
            other += 1
        if (index + 1) % 100 == 0:
            print(f"{index + 1} rounds, {len(crashes)} crashes", flush=True)
    median = statistics.median(times) if times else float("nan")
    print(f"{args.rounds} start-ups of {args.bin}: {len(crashes)} crashes {crashes[:10]}, "
          f"{other} other exits, start-up to /healthz median {median * 1000:.0f} ms")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
