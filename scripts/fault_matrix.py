"""The live-truth fault matrix: every fault against the real clients (`sise watch --json` through
a TCP fault proxy to `sise simulate`), one fresh rig per row, and a table of what a user would
notice. Run through scripts/fault-matrix.sh (release build)."""

import asyncio
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests" / "Faults"))
from live_rig import Rig, duplicates  # noqa: E402

WS_DOWN = dict(wsRefuse=True, wsDropNow=True)
WS_UP = dict(wsRefuse=False)


async def drop(rig):
    rig.proxy.drop()


def proxy_fault(start, seconds):
    async def run(rig):
        start(rig)
        await asyncio.sleep(seconds)
        rig.proxy.set_pass()
    return run


def sim_fault(seconds, on, off):
    async def run(rig):
        rig.faults(**on)
        await asyncio.sleep(seconds)
        rig.faults(**off)
    return run


async def restart(rig):
    await rig.restart_simulator(pause=2.0)


def refuse(rig):
    rig.proxy.refuse()
    rig.proxy.drop()


ROWS = [
    ("WebSocket drop", drop),
    ("15 s stall (TCP)", proxy_fault(lambda r: r.proxy.stall(), 15)),
    ("8 s refusal (TCP)", proxy_fault(refuse, 8)),
    ("REST 429 + Retry-After 2 s", sim_fault(6, dict(WS_DOWN, failNext=6, failNextStatus=429, retryAfterSeconds=2),
                                             dict(WS_UP, failNext=0, retryAfterSeconds=0))),
    ("418 ban (30 s)", sim_fault(6, dict(WS_DOWN, failNext=1, failNextStatus=418), dict(WS_UP, failNext=0))),
    ("5xx burst (6 s of 503)", sim_fault(6, dict(WS_DOWN, errorRate=1.0, errorStatus=503), dict(WS_UP, errorRate=0))),
    ("malformed JSON (6 s)", sim_fault(6, dict(WS_DOWN, malformedRate=1.0), dict(WS_UP, malformedRate=0))),
    ("garbage WS frames (30 %, 6 s)", sim_fault(6, dict(wsGarbageRate=0.3), dict(wsGarbageRate=0))),
    ("3 s latency (TCP, 10 s)", proxy_fault(lambda r: r.proxy.delay(3.0), 10)),
    ("upstream restarted, same port", restart),
]


def rest_counts(stats):
    upbit = stats.get("upbit", {})
    return {k: v for k, v in upbit.items() if not k.startswith("websocket")}


async def measure(name, fault):
    async with Rig() as rig:
        if await rig.watch.wait_state(lambda s: s == "live", 30) is None:
            return dict(name=name, error="never live")
        await asyncio.sleep(2)
        markets = {row["market"] for _, row in rig.watch.tickers()}
        before = rig.stats()
        started = time.monotonic()
        await fault(rig)
        ended = time.monotonic()
        await asyncio.sleep(1.0)  # a status line still on its way
        left = [t for t, state in rig.watch.statuses(since=started) if state != "live"]
        detected = left[0] if left else None
        stayed_live = detected is None and rig.watch.state() == "live"
        recovered = None
        if not stayed_live:
            recovered = await rig.watch.wait_state(lambda s: s == "live", 40, since=detected or started)
        settled = (recovered or time.monotonic()) + 3
        await asyncio.sleep(max(0.0, settled - time.monotonic()))
        after = rig.stats()
        # After an outage the board caught up: every market printed again within 3 s of
        # recovery (the resubscribe snapshot or a poll), so no tick was lost for good.
        lost = None
        if not stayed_live and recovered is not None:
            refreshed = {row["market"] for _, row in rig.watch.tickers(since=recovered, until=recovered + 3)}
            lost = len(markets - refreshed)
        rest_before, rest_after = rest_counts(before), rest_counts(after)
        rest = sum(rest_after.values()) - sum(rest_before.values())
        if rest < 0:  # the simulator restarted: its counters began again
            rest = sum(rest_after.values())
        peak = max(after.get("peakPerSecond", {}).get("upbit", {"-": 0}).values())
        connects = max(0, after.get("upbit", {}).get("websocket", 0) - before.get("upbit", {}).get("websocket", 0))
        refused = sum(after.get("refused", {}).get("upbit", {}).values())
        return dict(
            name=name,
            detection=None if detected is None else detected - started,
            recovery=None if recovered is None else max(0.0, recovered - ended),
            stayed_live=stayed_live, lost=lost,
            duplicates=duplicates(rig.watch.tickers(since=started)),
            rest=rest, peak=peak, connects=connects, refused=refused,
            rss=(rig.watch.max_rss_kb() or 0) / 1024,
        )


def cell(value, unit="s"):
    return "—" if value is None else f"{value:.2f} {unit}"


async def main():
    print("| fault | detection | recovery | ticks lost | duplicate ticks | upstream during fault | max RSS |")
    print("|---|---|---|---|---|---|---|")
    misses = 0
    for name, fault in ROWS:
        r = await measure(name, fault)
        if "error" in r:
            print(f"| {name} | {r['error']} | | | | | |")
            misses += 1
            continue
        if r["stayed_live"]:
            detection, recovery = "stayed live", "—"
        else:
            detection = cell(r["detection"])
            recovery = "never" if r["recovery"] is None else cell(r["recovery"])
        lost = "—" if r["lost"] is None else r["lost"]
        upstream = f"REST {r['rest']} (peak {r['peak']}/s), WS connects {r['connects']}, refused {r['refused']}"
        print(f"| {name} | {detection} | {recovery} | {lost} | {r['duplicates']} | {upstream} | {r['rss']:.0f} MB |",
              flush=True)
        if r["duplicates"] or (not r["stayed_live"] and ((r["detection"] or 0) > 5.5 or r["recovery"] is None
                                                          or r["recovery"] > 3.0)):
            misses += 1
    print(f"\n{misses} row(s) outside detection ≤ 5 s (+0.5 s measuring slack), recovery ≤ 3 s, no duplicates")


if __name__ == "__main__":
    asyncio.run(main())
