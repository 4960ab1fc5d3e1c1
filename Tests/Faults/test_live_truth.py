"""Live truth below HTTP: faults injected by a TCP proxy between `sise watch --json` and the
exchange. A stall is reported within the silence bound, and every fault recovers within 3 s
of the upstream coming back, without duplicate ticks."""

import asyncio
import time

from live_rig import Rig, duplicates


def run(coroutine):
    return asyncio.run(coroutine)


def test_a_silent_stall_is_reported_and_recovers():
    async def scenario():
        async with Rig() as rig:
            assert await rig.watch.wait_state(lambda s: s == "live", 20) is not None
            await asyncio.sleep(1)
            stalled = time.monotonic()
            rig.proxy.stall()
            detected = await rig.watch.wait_state(lambda s: s != "live", 10, since=stalled)
            assert detected is not None, "a 15 s stall must not stay live"
            assert detected - stalled <= 5.5, f"reported {detected - stalled:.2f} s after the stall began"
            # No ticker line may claim to be live while the path is frozen.
            await asyncio.sleep(max(0.0, stalled + 15 - time.monotonic()))
            assert rig.watch.state() != "live"
            resumed = time.monotonic()
            rig.proxy.set_pass()
            recovered = await rig.watch.wait_state(lambda s: s == "live", 10, since=resumed)
            assert recovered is not None and recovered - resumed <= 3.0, \
                f"live again {None if recovered is None else round(recovered - resumed, 2)} s after the stall"
            await asyncio.sleep(2)
            assert duplicates(rig.watch.tickers(since=stalled)) == 0
    run(scenario())


def test_a_drop_and_a_refusal_recover_within_three_seconds():
    async def scenario():
        async with Rig() as rig:
            assert await rig.watch.wait_state(lambda s: s == "live", 20) is not None
            dropped = time.monotonic()
            rig.proxy.drop()
            # Either the state blinks delayed and back, or the reconnect is fast enough not to.
            await asyncio.sleep(3)
            assert rig.watch.state() == "live"
            assert rig.watch.tickers(since=dropped + 1.5), "ticks flow again after the drop"

            refused = time.monotonic()
            rig.proxy.refuse()
            rig.proxy.drop()
            assert await rig.watch.wait_state(lambda s: s != "live", 5, since=refused) is not None
            await asyncio.sleep(8)
            back = time.monotonic()
            rig.proxy.set_pass()
            recovered = await rig.watch.wait_state(lambda s: s == "live", 10, since=back)
            assert recovered is not None and recovered - back <= 3.0
            await asyncio.sleep(2)
            assert duplicates(rig.watch.tickers(since=dropped)) == 0
    run(scenario())
