"""What the matrix tests share: the built `sise`, started and read the same way."""
import functools
import json
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


@functools.lru_cache(maxsize=None)
def registry():
    """The exchanges as `sise exchanges --json` lists them: the tests keep no list of their own."""
    return tuple(json.loads(subprocess.run([sise_binary(), "exchanges", "--json"], capture_output=True, text=True, check=True,
                                           timeout=30).stdout))


def exchange_ids():
    return [entry["id"] for entry in registry()]


def simulator_flags(sim_url):
    """Every exchange pointed at its mount on one `sise simulate`."""
    return [part for entry in registry() for part in (entry["restFlag"], sim_url + entry["simulatorPath"])]
