"""`sise mcp` as an assistant meets it: the official MCP Python SDK (`mcp` on PyPI) starts it over
stdio, in both protocol eras (the 2025-11-25 handshake and 2026-07-28's per-request envelope),
lists its tools, calls each one against a simulator whose clock stands still, validates every
answer against the tool's declared output schema, and compares it with what `sise … --json`
prints against the same simulator: one row per tool."""
import asyncio
import json
import os
import pathlib
import re
import subprocess
import tempfile
import time

import jsonschema
import pytest

mcp = pytest.importorskip("mcp")
from mcp import Client, StdioServerParameters  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
SISE = os.environ.get("SISE_BIN", str(ROOT / ".build" / "debug" / "sise"))
FROZEN_AT = "1796300000000"

# One call per tool: the arguments an assistant would give.
CALLS = {
    "markets": {"exchange": "upbit", "sort": "change"},  # 250 rows: three pages
    "price": {"symbols": ["BTC", "KRW-ETH"], "exchange": "bithumb"},
    "compare": {"symbols": ["BTC", "ETH"]},
    "premium_matrix": {"symbols": ["BTC"]},
    "tether_premium": {},
    "executable_premium": {"symbols": ["BTC"], "amount": 10000000, "exchange": "bithumb"},
    "wallets": {"symbol": "BTC"},
    "notices": {"limit": 5},
    "events": {},
    "exchanges": {},
    "rank": {"per-page": "10"},
    "orderbook": {"market": "KRW-BTC", "exchange": "korbit", "levels": 5},
    "trades": {"market": "ETH", "count": 10},
    "candles": {"market": "KRW-BTC", "interval": "1d", "count": 150},  # 150: two pages (256 KB)
    "coin": {"coin": "bitcoin"},
    "global": {},
    "search": {"query": "bit"},
    # The terminal's own data (a purchase is in it: see `env`).
    "portfolio": {},
    "tax": {"year": 2027, "method": "fifo"},
    "alerts": {},
}


@pytest.fixture(scope="module")
def simulator():
    process = subprocess.Popen([SISE, "simulate", "--port", "0", "--frozen-at", FROZEN_AT, "--no-rate-limit"], stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    url = re.search(r"http://127\.0\.0\.1:\d+", line).group(0)
    yield url
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def env(simulator):
    with tempfile.TemporaryDirectory() as data_dir:
        env = {**os.environ, "SISE_DEMO_SIMULATOR": simulator, "SISE_DATA_DIR": data_dir}
        for command in (["portfolio", "add", "buy", "KRW-BTC", "0.5", "--price", "100000000", "--at", "2026-06-01T09:00:00+09:00"],
                        ["alerts", "add", "KRW-BTC", "above", "200000000"]):
            subprocess.run([SISE] + command, env=env, check=True, capture_output=True)
        yield env


STARTED = int(time.time() * 1000)
HANDSHAKE_SAMPLE = {"markets", "executable_premium", "candles", "portfolio"}


def read_times_out(value):
    """The value with each time of reading (an `at` from this test's own clock, not the frozen
    simulator's) written as the same word: two reads of the same data differ in nothing else."""
    if isinstance(value, dict):
        return {k: "read" if k in ("at", "asOf") and isinstance(v, int) and v >= STARTED else read_times_out(v) for k, v in value.items()}
    if isinstance(value, list):
        return [read_times_out(v) for v in value]
    return value


def cli(env, command: str):
    """What `sise … --json` prints for the command a tool's answer names."""
    words = command.split()[1:]
    run = subprocess.run([SISE] + words, env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


async def every_page(client, name, arguments):
    """The whole answer: a list tool's pages joined, by cursor."""
    result = await client.call_tool(name, arguments)
    assert not result.is_error, (name, result.content[0].text)
    answer = result.structured_content
    pages = [answer]
    while answer.get("page", {}).get("nextCursor"):
        result = await client.call_tool(name, {**arguments, "cursor": answer["page"]["nextCursor"]})
        answer = result.structured_content
        pages.append(answer)
    first = pages[0]
    if "page" in first:
        first = {**first, "data": [item for page in pages for item in page["data"]]}
    return first, pages


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_every_tool_answers_as_the_cli_does(env, mode):
    async def run():
        params = StdioServerParameters(command=SISE, args=["mcp"], env=env)
        rows = []
        async with Client(params, mode=mode) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            assert sorted(tools) == sorted([*CALLS, "alerts_add"]), sorted(tools)
            for name, tool in tools.items():
                # Every tool in the current era; the handshake era (the same tools through the same
                # session code) a few of each kind, to keep the test command's time.
                if name == "alerts_add" or (mode == "legacy" and name not in HANDSHAKE_SAMPLE):
                    continue
                assert tool.output_schema and tool.input_schema["type"] == "object", name
                assert re.search("[가-힣]", tool.description) and re.search("[A-Za-z]{4}", tool.description), name
                assert tool.annotations.read_only_hint is True and tool.annotations.destructive_hint is False, name
                answer, pages = await every_page(client, name, CALLS[name])
                for page in pages:
                    jsonschema.validate(page, tool.output_schema)
                about = answer["about"]
                assert about["demo"] is True and about["fetchedAt"] > 0 and about["fetchedAtKST"].endswith("KST")
                same = read_times_out(answer["data"]) == read_times_out(cli(env, about["command"]))
                rows.append((name, len(pages), same))
        print(f"\n{mode}: tool, pages, same as `sise … --json`")
        for row in rows:
            print("  %-16s %2d  %s" % row)
        assert all(same for _, _, same in rows), rows

    asyncio.run(run())


def test_a_bad_call_is_a_readable_error_in_the_callers_language(env):
    async def run():
        params = StdioServerParameters(command=SISE, args=["mcp", "--lang", "en"], env=env)
        async with Client(params, mode="legacy") as client:
            unknown = await client.call_tool("markets", {"colour": "red"})
            assert unknown.is_error and "Unknown argument 'colour'" in unknown.content[0].text
            korean = await client.call_tool("markets", {"colour": "red", "lang": "ko"})
            assert korean.is_error and "인자가 아닙니다" in korean.content[0].text
            bad = await client.call_tool("markets", {"sort": "\u001b[31m"})
            assert bad.is_error and "'sort'" in bad.content[0].text
            # A positional that looks like an option stays a positional: nothing reaches the command line.
            hostile = await client.call_tool("price", {"symbols": ["--data-dir=/etc"]})
            assert hostile.is_error and "Traceback" not in hostile.content[0].text
            amountless = await client.call_tool("executable_premium", {"symbols": ["BTC"]})
            assert amountless.is_error and "'amount' is required" in amountless.content[0].text
            missing = await client.call_tool("price", {})
            assert missing.is_error and "'symbols' is required" in missing.content[0].text

    asyncio.run(run())


def test_a_change_runs_only_once_the_user_confirmed_it(env):
    async def run():
        params = StdioServerParameters(command=SISE, args=["mcp", "--lang", "en"], env=env)
        async with Client(params) as client:
            tool = next(tool for tool in (await client.list_tools()).tools if tool.name == "alerts_add")
            assert tool.annotations.read_only_hint is False and "confirm" in tool.input_schema["properties"]
            rule = {"market": "KRW-ETH", "type": "below", "value": "1000"}
            before = len(cli(env, "sise alerts list --json")["alerts"])
            refused = await client.call_tool("alerts_add", rule)
            assert refused.is_error and "confirm: true" in refused.content[0].text
            assert len(cli(env, "sise alerts list --json")["alerts"]) == before, "nothing was added"
            added = await client.call_tool("alerts_add", {**rule, "confirm": True})
            assert not added.is_error, added.content[0].text
            jsonschema.validate(added.structured_content, tool.output_schema)
            assert added.structured_content["data"]["market"] == "KRW-ETH"
            listed = cli(env, "sise alerts list --json")["alerts"]
            assert len(listed) == before + 1 and listed[-1]["id"] == added.structured_content["data"]["id"]

    asyncio.run(run())
