"""Times ccxt's upbit.parse_ticker on the frames Sise's benchmark uses (one JSON frame per line).

Usage: python bench_ccxt.py FRAMES.jsonl SECONDS
Prints one line: `ccxt <version> parse_ticker: <frames/s> frames/s (json.loads + parse_ticker, N frames)`.
"""
import json
import sys
import time

import ccxt


def main() -> None:
    path, seconds = sys.argv[1], float(sys.argv[2])
    with open(path, "rb") as handle:
        raw = [line.strip() for line in handle if line.strip()]
    upbit = ccxt.upbit()
    # ccxt cannot load markets offline: give it the markets the frames mention.
    codes = sorted({json.loads(line).get("code") or json.loads(line).get("cd") for line in raw})
    upbit.set_markets([
        {"id": code, "symbol": f"{code.split('-')[1]}/{code.split('-')[0]}", "base": code.split("-")[1],
         "quote": code.split("-")[0], "baseId": code.split("-")[1], "quoteId": code.split("-")[0],
         "type": "spot", "spot": True, "active": True, "precision": {}, "limits": {}, "info": {}}
        for code in codes
    ])
    for line in raw[:100]:
        upbit.parse_ticker(json.loads(line))
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for line in raw:
            upbit.parse_ticker(json.loads(line))
        done += len(raw)
    elapsed = time.perf_counter() - start
    print(f"ccxt {ccxt.__version__} parse_ticker: {done / elapsed:,.0f} frames/s (json.loads + parse_ticker, {len(raw)} frames)")


if __name__ == "__main__":
    main()
