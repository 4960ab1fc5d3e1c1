#!/usr/bin/env python3
"""Favorite writes per second against one `sise serve --demo` (SQLite) pinned to CPU 0, 8
keep-alive clients on CPU 1 for 5 s, 3 runs per binary:
    taskset -c 1 python3 scripts/bench-favorites.py BEFORE_BIN AFTER_BIN"""
import os, sys, subprocess, tempfile, time, re
os.environ.setdefault("SISE_BIN", "x")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_test as c
def run(binary):
    d = tempfile.mkdtemp()
    p = subprocess.Popen(["taskset", "-c", "0", binary, "serve", "--demo", "--port", "0", "--data-dir", d, "--favorite-writes-per-minute", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    url = None
    while url is None:
        m = re.search(r"listening on (http://\S+)", p.stdout.readline()); url = m and m.group(1)
    port = int(url.rsplit(":", 1)[1]); public = url
    time.sleep(3)
    jars = [c.Browser(public) for _ in range(8)]
    for j in jars: j.request(port, "GET", "/api/status")
    def star(conn, n, i):
        j = jars[n]
        conn.request("PUT", f"/api/favorites/bench-{n}-{i % 400}", headers={"Host": public.split("//")[1], "Origin": public,
            "X-CSRF-Token": j.cookies["sise_csrf"], "Cookie": "; ".join(f"{k}={v}" for k, v in j.cookies.items())})
        resp = conn.getresponse(); resp.read(); return resp.status in (200, 201, 204)
    rate, errors = c.load(port, 5, 8, star)
    p.terminate(); p.wait()
    return rate
for b in sys.argv[1:]:
    print(b, sorted(round(run(b)) for _ in range(3)))
