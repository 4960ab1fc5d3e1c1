"""The same tools on `sise serve` at `/mcp`, over the protocol's streamable HTTP transport, as the
official MCP Python SDK connects to it in both eras: the public tools listed and answering within
their schemas, the terminal's own-data tools not offered to an anonymous caller, a foreign Origin
refused, no server-sent stream."""
import asyncio
import os
import pathlib
import re
import subprocess
import tempfile
import urllib.error
import urllib.request

import jsonschema
import pytest

mcp = pytest.importorskip("mcp")
from mcp import Client  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
SISE = os.environ.get("SISE_BIN", str(ROOT / ".build" / "debug" / "sise"))


@pytest.fixture(scope="module")
def server():
    with tempfile.TemporaryDirectory() as data_dir:
        process = subprocess.Popen([SISE, "serve", "--demo", "--port", "0", "--data-dir", data_dir],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        url = None
        for _ in range(200):
            line = process.stdout.readline()
            if "listening on " in line:
                url = re.search(r"http://\S+", line).group(0)
                break
        assert url, "sise serve did not start"
        yield url
        process.terminate()
        process.wait(timeout=20)


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_public_tools_answer_over_http(server, mode):
    async def run():
        async with Client(server + "/mcp", mode=mode) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            assert {"markets", "executable_premium", "tether_premium", "wallets"} <= set(tools)
            assert not {"portfolio", "tax", "alerts", "alerts_add"} & set(tools), "the terminal's data is not the server's to offer"
            for name, arguments in [("markets", {"limit": 3}), ("exchanges", {}),
                                    ("executable_premium", {"symbols": ["BTC"], "amount": 1000000, "lang": "en"})]:
                result = await client.call_tool(name, arguments)
                assert not result.is_error, result.content[0].text
                jsonschema.validate(result.structured_content, tools[name].output_schema)
                assert result.structured_content["about"]["demo"] is True
            with pytest.raises(MCPError):
                await client.call_tool("portfolio", {})

    asyncio.run(run())


def test_a_foreign_origin_is_refused_and_there_is_no_stream(server):
    body = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}'
    request = urllib.request.Request(server + "/mcp", data=body, method="POST",
                                     headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                                              "Origin": "http://evil.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 403
    with pytest.raises(urllib.error.HTTPError) as stream:
        urllib.request.urlopen(urllib.request.Request(server + "/mcp", headers={"Accept": "text/event-stream"}), timeout=10)
    assert stream.value.code == 405
    plain = urllib.request.Request(server + "/mcp", data=body, method="POST",
                                   headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
    with urllib.request.urlopen(plain, timeout=10) as answer:
        assert answer.status == 200 and b'"protocolVersion":"2025-11-25"' in answer.read()
