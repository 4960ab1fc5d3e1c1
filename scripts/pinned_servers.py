"""What the pinned benchmarks share: start `sise serve`/`sise simulate` on one CPU (`taskset`, when
there are two) and read a process's CPU time from /proc."""
import contextlib
import os
import pathlib
import subprocess
import tempfile
import time

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """User + system CPU seconds of `pid` so far."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def pinned(cpu):
    """The `taskset` prefix that keeps a command on `cpu` (none on a one-CPU machine)."""
    return ["taskset", "-c", str(cpu)] if os.cpu_count() >= 2 and subprocess.run(["which", "taskset"], capture_output=True).returncode == 0 else []


def start(command, cpu):
    """Starts `command` on `cpu`; (process, URL) once it prints its `listening on` line."""
    process = subprocess.Popen(pinned(cpu) + command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    if "listening on" not in line:
        raise SystemExit(f"{command[1]} did not start: {line!r}")
    return process, line.split("listening on ", 1)[1].strip()


@contextlib.contextmanager
def serving(sise, settle=3):
    """`sise simulate` on CPU 1 and `sise serve` fed by it on CPU 0, on a fresh data directory;
    yields (server process, server URL, simulator URL) once the board had `settle` seconds to go live."""
    with tempfile.TemporaryDirectory() as data:
        simulator, sim_url = start([sise, "simulate", "--port", "0"], 1)
        try:
            server, url = start([sise, "serve", "--port", "0", "--data-dir", data, "--upbit-url", sim_url], 0)
            try:
                time.sleep(settle)
                yield server, url, sim_url
            finally:
                server.terminate()
                server.wait(10)
        finally:
            simulator.terminate()
            simulator.wait(10)
