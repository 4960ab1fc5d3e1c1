"""What the pinned benchmarks share: start `sise serve`/`sise simulate` on one CPU (`taskset`, when
there are two) and read a process's CPU time from /proc."""
import os
import pathlib
import subprocess

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
