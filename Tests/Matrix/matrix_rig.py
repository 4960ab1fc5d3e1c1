"""What the matrix tests share: the built `sise`, started and read the same way."""
import os
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]


def sise_binary():
    return os.environ.get("SISE_BIN", str(ROOT / ".build" / "debug" / "sise"))


def start(*args):
    """Starts `sise ARGS` (serve or simulate on port 0); returns the process and the URL it printed."""
    process = subprocess.Popen([sise_binary(), *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    assert line.startswith("listening on "), f"sise {args[0]} did not start: {line!r}"
    return process, line.split("listening on ", 1)[1].strip()
