#!/usr/bin/env python3
"""Sise as a cluster on loopback: PostgreSQL, one simulator, three `sise serve` replicas and
nginx in front (deploy/nginx.conf). Checks what a user of a scaled-out install relies on and
prints what it measured. Run through scripts/cluster-test.sh (it builds nothing; SISE_BIN)."""
import concurrent.futures, datetime, http.client, json, os, re, select, signal, socket, subprocess, sys, tempfile, threading, time
from http.server import BaseHTTPRequestHandler, HTTPServer, ThreadingHTTPServer

import urllib.request
import websocket  # websocket-client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nginx_rig  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SISE = os.environ["SISE_BIN"]
WORK = tempfile.mkdtemp(prefix="sise-cluster-")
PROCS = []


def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port


def start(args, name):
    out = open(os.path.join(WORK, name + ".log"), "w+")
    proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT)
    PROCS.append(proc)
    deadline = time.time() + 60
    while time.time() < deadline:
        out.seek(0)
        m = re.search(r"listening on (http://\S+)", out.read())
        if m:
            return proc, m.group(1)
        if proc.poll() is not None:
            out.seek(0); sys.exit(f"{name} exited: {out.read()[-2000:]}")
        time.sleep(0.1)
    sys.exit(f"{name} did not start")


class Browser:
    """A cookie jar speaking to one address (a replica or nginx) as Sise's page does."""
    def __init__(self, public):
        self.public = public  # the origin every replica is configured with (nginx's)
        self.cookies = {}

    def request(self, port, method, path, body=None, raw=None, content_type=None, timeout=10):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        headers = {"Host": self.public.split("//")[1], "Origin": self.public, "Accept": "application/json"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if "sise_csrf" in self.cookies:
            headers["X-CSRF-Token"] = self.cookies["sise_csrf"]
        data = raw
        if raw is not None:
            headers["Content-Type"] = content_type
        if body is not None:
            data = json.dumps(body).encode(); headers["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=headers)
        r = conn.getresponse()
        for k, v in r.getheaders():
            if k.lower() == "set-cookie":
                name, _, rest = v.partition("=")
                self.cookies[name] = rest.split(";")[0]
        text = r.read().decode()
        conn.close()
        return r.status, (json.loads(text) if text.startswith(("{", "[")) else text)

    def socket(self, port):
        ws = websocket.create_connection(f"ws://127.0.0.1:{port}/ws", timeout=10, origin=self.public,
                                         host=self.public.split("//")[1],
                                         cookie="; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        ws.send(json.dumps({"type": "view", "quote": "KRW", "sort": "value"}))
        return ws


def wait_ready(port):
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2); c.request("GET", "/readyz")
            if c.getresponse().status == 200: return
        except OSError:
            pass
        time.sleep(0.3)
    sys.exit(f"replica on {port} never became ready")


def wait_for(ws, predicate, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        ws.settimeout(max(0.05, deadline - time.time()))
        try:
            text = ws.recv()
        except websocket.WebSocketTimeoutException:
            break
        if predicate(text):
            return time.time()
    return None


def load(port, seconds, threads, make):
    """Requests per second from `threads` keep-alive clients running `make(conn, i)`."""
    done, errors, stop = [0], [0], time.time() + seconds
    lock = threading.Lock()
    def worker(n):
        # Each client from its own address, as people are: nginx's per-address limits (limit_req)
        # apply to a visitor, not to the benchmark as a whole.
        def connect():
            return http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(f"127.0.9.{n + 2}", 0))
        conn = connect(); i = 0
        while time.time() < stop:
            try:
                ok = make(conn, n, i)
            except OSError:
                ok = False; conn = connect()
            with lock:
                done[0] += ok; errors[0] += (not ok)
            i += 1
    ts = [threading.Thread(target=worker, args=(n,)) for n in range(threads)]
    [t.start() for t in ts]; [t.join() for t in ts]
    return done[0] / seconds, errors[0]


class Services:
    """A push service and Telegram's Bot API on loopback: the first push request is held open until
    its sender dies (counted as cut, never answered); every other request is answered at once."""
    def __init__(self):
        self.log = []  # (path, outcome)
        self.lock = threading.Lock()
        self.held = threading.Event()

    def completed(self, prefix):
        with self.lock: return sum(1 for path, outcome in self.log if path.startswith(prefix) and outcome == "answered")

    def aborted(self, prefix):
        with self.lock: return sum(1 for path, outcome in self.log if path.startswith(prefix) and outcome == "cut")

    def start(self):
        services = self
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.path.startswith("/push/") and not services.held.is_set():
                    services.held.set()
                    # Held until the sender's socket closes (it was killed), at most 4 s.
                    until = time.time() + 4
                    while time.time() < until:
                        ready, _, _ = select.select([self.connection], [], [], 0.1)
                        if ready and not self.connection.recv(1, socket.MSG_PEEK):
                            with services.lock: services.log.append((self.path, "cut"))
                            return
                self.send_response(201 if self.path.startswith("/push/") else 200)
                self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"{}")
                with services.lock: services.log.append((self.path, "answered"))
            def log_message(self, *args): pass
        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server.server_port


def connected_to(port, processes):
    """The process (of `processes`, by pid) with an open TCP connection to 127.0.0.1:`port`."""
    inodes = set()
    for line in open("/proc/net/tcp").read().splitlines()[1:]:
        fields = line.split()
        if int(fields[2].split(":")[1], 16) == port and fields[3] == "01":  # ESTABLISHED
            inodes.add(fields[9])
    for pid, proc in processes.items():
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:[") and target[8:-1] in inodes:
                    return proc
        except OSError:
            continue
    return None


def premium_args(sim):
    """The premium's sources on the simulator: every replica records the premium's history, and
    reads every exchange's wallets and looks at its listings, flags and wallets each second for the
    history of changes."""
    return ["--binance-url", sim + "/binance", "--dunamu-url", sim + "/dunamu", "--okx-url", sim + "/okx", "--bybit-url", sim + "/bybit",
            "--events-every", "1", "--wallets-every", "1"]


def psql_count(server_url, sql):
    return int(subprocess.run(["psql", server_url.rsplit("/", 1)[0] + "/sise", "-tAc", sql], capture_output=True, text=True,
                              check=True).stdout.strip())


def deliveries_settle(server_url, seconds=15):
    """Waits until the delivery queue is empty: a delivered job leaves it, and no replica starts a
    delivery that is not in it (each takes a job by a lease on its row) — nothing more can come."""
    deadline = time.time() + seconds
    while psql_count(server_url, "SELECT count(*) FROM webhook_job") > 0 and time.time() < deadline:
        time.sleep(0.1)
    assert psql_count(server_url, "SELECT count(*) FROM webhook_job") == 0, "deliveries left in the queue"


def minute_points(server_url, series=None):
    """The 1-minute history points in the store (of one series): {bucket: (series, largest count)}."""
    where = "resolution = 60000" + (f" AND series = '{series}'" if series else "")
    out = subprocess.run(["psql", server_url.rsplit("/", 1)[0] + "/sise", "-tAc",
                          f"SELECT bucket, count(*), max(count) FROM premium_point WHERE {where} GROUP BY bucket ORDER BY bucket"],
                         capture_output=True, text=True, check=True).stdout
    return {int(b): (int(n), int(m)) for b, n, m in (line.split("|") for line in out.split())}


def main():
    results = {}
    pg = subprocess.run([os.path.join(ROOT, "scripts/postgres.sh"), "start"], capture_output=True, text=True,
                        env=dict(os.environ, PG_FSYNC="on"))
    if pg.returncode != 0:
        sys.exit("PostgreSQL did not start: " + pg.stderr)
    server_url, pg_dir = pg.stdout.split()
    try:
        subprocess.run(["psql", server_url, "-qc", "CREATE DATABASE sise"], check=True)
        database = server_url.rsplit("/", 1)[0] + "/sise"
        # Three replicas on one address share Upbit's per-IP REST limit (deploy/README.md); the
        # simulator stands for three machines here, each with its own limit.
        _, sim = start([SISE, "simulate", "--port", "0", "--no-rate-limit"], "simulator")
        nginx_port, single_port = free_port(), free_port()
        # A push service and Telegram's Bot API stand in on loopback (section 6).
        services = Services()
        services_port = services.start()
        public = f"http://127.0.0.1:{nginx_port}"
        replicas = []
        for n in range(3):
            proc, url = start([SISE, "serve", "--port", "0", "--database", database, "--upbit-url", sim, "--korbit-url", sim,
                               "--bithumb-url", sim + "/bithumb", "--coingecko-url", sim + "/api/v3", "--public-url", public,
                               "--data-dir", os.path.join(WORK, f"r{n}"), "--allow-private-webhooks",
                               "--delivery-lease", "6", "--telegram-api-url", f"http://127.0.0.1:{services_port}/tg",
                               "--favorite-writes-per-minute", "0", "--max-connections-per-ip", "100000",
                               "--trusted-proxy", "127.0.0.1/32", "--password-cost", "4", *premium_args(sim)], f"replica{n}")
            replicas.append((proc, int(url.rsplit(":", 1)[1])))
        for _, port in replicas: wait_ready(port)
        (a, pa), (b, pb), (c, pc) = replicas

        extra = ("upstream sise_one { server 127.0.0.1:%d; keepalive 64; }\n"
                 "server { listen 127.0.0.1:%d; location / { proxy_pass http://sise_one; proxy_http_version 1.1;"
                 " proxy_set_header Connection \"\"; proxy_set_header Host $http_host; } }\n" % (pa, single_port))
        try:
            PROCS.append(nginx_rig.start(WORK, nginx_port, [p for _, p in replicas], extra))
        except RuntimeError as problem:
            sys.exit(str(problem))

        # 1. Sign up on A, open a page on C, star on B: the page on C shows it within a second.
        user = Browser(public)
        assert user.request(pa, "GET", "/api/status")[0] == 200
        status, me = user.request(pa, "POST", "/api/auth/signup", {"email": "cluster@sise.kr", "password": "Cluster-Pass-2026!", "nickname": "클러스터"})
        assert status in (200, 201), (status, me)
        ws = user.socket(pc)
        assert wait_for(ws, lambda t: '"snapshot"' in t, 10), "no board on replica C"
        started = time.time()
        status, _ = user.request(pb, "PUT", "/api/favorites/KRW-ETH")
        assert status in (200, 201, 204), status
        seen = wait_for(ws, lambda t: '"favorites"' in t and "KRW-ETH" in t, 5)
        assert seen, "the star on replica B never reached the page on replica C"
        results["star on B → page on C"] = f"{(seen - started) * 1000:.0f} ms"
        assert user.request(pa, "GET", "/api/favorites")[1]["favorites"] == ["KRW-ETH"], "replica A reads the same favorites"
        ws.close()
        # The same in a real browser: a headless Chromium page of the account, through nginx, on
        # whichever replica nginx gave it; a star set on another replica lights its row.
        def ws_counts():
            counts = []
            for _, port in replicas:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/metrics", headers={"Host": public.split("//")[1]})
                m = re.search(r"^sise_ws_clients (\d+)", conn.getresponse().read().decode(), re.M)
                counts.append(int(m.group(1)) if m else 0)
            return counts
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--lang=ko-KR", "--window-size=390,844"):
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            before = ws_counts()
            driver.get(public + "/healthz")
            driver.add_cookie({"name": "sise_session", "value": user.cookies["sise_session"], "path": "/"})
            driver.get(public + "/")
            star_css = '#rows tr[data-market="KRW-XRP"] [data-action="favorite"]'
            deadline = time.time() + 20
            while time.time() < deadline and not driver.find_elements(By.CSS_SELECTOR, star_css):
                time.sleep(0.2)
            star = driver.find_element(By.CSS_SELECTOR, star_css)
            assert star.get_attribute("aria-pressed") == "false"
            deadline, page_on = time.time() + 5, None
            while page_on is None and time.time() < deadline:
                grown = [i for i, (x, y) in enumerate(zip(before, ws_counts())) if y > x]
                page_on = grown[0] if grown else None
                time.sleep(0.1)
            assert page_on is not None, "the page's socket is on no replica"
            other = replicas[(page_on + 1) % 3][1]
            started = time.time()
            status, _ = user.request(other, "PUT", "/api/favorites/KRW-XRP")
            assert status in (200, 201, 204), status
            while star.get_attribute("aria-pressed") != "true" and time.time() < started + 5:
                time.sleep(0.02)
            assert star.get_attribute("aria-pressed") == "true", "the star set on another replica never lit the page's row"
            results["browser: star on one replica lights the page on another"] = f"{(time.time() - started) * 1000:.0f} ms"
        finally:
            driver.quit()

        # A picture uploaded through A is served by C (it is in the database, not on A's disk).
        png = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + b"IHDR" + bytes([0, 0, 0, 8, 0, 0, 0, 8, 8, 6, 0, 0, 0])
        status, answer = user.request(pa, "PUT", "/api/me/avatar", raw=png, content_type="image/png")
        assert status == 200, (status, answer)
        conn = http.client.HTTPConnection("127.0.0.1", pc, timeout=5)
        conn.request("GET", answer["avatar"], headers={"Host": public.split("//")[1]})
        picture = conn.getresponse()
        assert picture.status == 200 and picture.getheader("Content-Type") == "image/png" and picture.read() == png
        results["picture uploaded on A, served by C"] = "yes"

        # 2. An alert fires exactly once with three replicas up (and its webhook is posted once).
        posts = []
        class Hook(BaseHTTPRequestHandler):
            def do_POST(self):
                posts.append(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                self.send_response(204); self.end_headers()
            def log_message(self, *args): pass
        hook = HTTPServer(("127.0.0.1", 0), Hook)
        threading.Thread(target=hook.serve_forever, daemon=True).start()
        status, _ = user.request(pa, "POST", "/api/webhooks", {"url": f"http://127.0.0.1:{hook.server_port}/hook", "secret": "cluster-secret-1"})
        assert status in (200, 201), status
        status, rule = user.request(pa, "POST", "/api/alerts", {"market": "KRW-BTC", "type": "below", "price": "100000000000", "recurring": True})
        assert status == 201, (status, rule)
        # The first firing arrives; then five seconds in which a duplicate from another replica would.
        deadline = time.time() + 10
        while not user.request(pc, "GET", "/api/alerts/history")[1]["history"] and time.time() < deadline:
            time.sleep(0.2)
        time.sleep(5)
        history = user.request(pc, "GET", "/api/alerts/history")[1]["history"]
        assert len(history) == 1, f"fired {len(history)} times"
        assert len(posts) == 1, f"webhook posted {len(posts)} times"
        results["alert firings with 3 replicas"] = f"{len(history)} (webhook posts {len(posts)})"
        # …and a premium line on an OKX cell, held by none: once across the replicas too.
        status, line = user.request(pa, "POST", "/api/alerts", {"market": "KRW-ETH", "type": "premiumAbove", "percent": "-50", "venue": "okx"})
        assert status == 201, (status, line)
        deadline = time.time() + 20
        while time.time() < deadline and not any(f["alertId"] == line["id"] for f in user.request(pc, "GET", "/api/alerts/history")[1]["history"]):
            time.sleep(0.2)
        time.sleep(3)
        premium_firings = [f for f in user.request(pb, "GET", "/api/alerts/history")[1]["history"] if f["alertId"] == line["id"]]
        assert len(premium_firings) == 1 and premium_firings[0].get("venue") == "okx", premium_firings
        results["OKX premium alert firings with 3 replicas"] = "1"
        # …and a rule on every favorite (premium above -100 %: true at once), set on replica B: each
        #     starred coin fires once across the replicas, and a coin starred on replica C — whose
        #     engine learns of the list from the database — fires once as well.
        starred = sorted(m for m in user.request(pa, "GET", "/api/favorites")[1]["favorites"] if m.startswith("KRW-"))
        assert starred, "the user has starred coins by now"
        status, wide = user.request(pb, "POST", "/api/alerts", {"market": "favorites", "type": "premiumAbove", "percent": "-100",
                                                               "recurring": True, "cooldownSeconds": 3600})
        assert status == 201 and wide["target"] == "favorites", (status, wide)
        def wide_markets():
            return sorted(f["market"] for f in user.request(pa, "GET", "/api/alerts/history")[1]["history"] if f["alertId"] == wide["id"])
        deadline = time.time() + 20
        while wide_markets() != starred and time.time() < deadline:
            time.sleep(0.2)
        later = next(m for m in ("KRW-SOL", "KRW-DOGE", "KRW-ADA") if m not in starred)
        assert user.request(pc, "PUT", f"/api/favorites/{later}")[0] in (200, 201, 204)
        deadline = time.time() + 20
        while later not in wide_markets() and time.time() < deadline:
            time.sleep(0.2)
        time.sleep(3)  # a second firing from another replica would come by now
        assert wide_markets() == sorted(starred + [later]), (wide_markets(), starred)
        assert user.request(pb, "DELETE", f"/api/alerts/{wide['id']}")[0] == 200
        results["a rule on every favorite with 3 replicas"] = (f"{len(starred)} starred coins and one starred on another replica: "
                                                                "each told once")
        # …and a P&L line: BTC bought on replica A at twice its price, a line below −10 % set on
        #     replica B — read from the portfolio each second by every replica, told once.
        status, btc = user.request(pa, "GET", "/api/markets/KRW-BTC")
        assert status == 200 and btc.get("price"), (status, btc)
        status, _ = user.request(pa, "POST", "/api/portfolio/transactions",
                                 {"type": "buy", "market": "KRW-BTC", "quantity": "1", "price": str(int(btc["price"] * 2))})
        assert status == 201, status
        status, pnl = user.request(pb, "POST", "/api/alerts", {"market": "KRW-BTC", "type": "pnlBelow", "percent": "-10"})
        assert status == 201, (status, pnl)
        def pnl_firings():
            return [f for f in user.request(pc, "GET", "/api/alerts/history")[1]["history"] if f["alertId"] == pnl["id"]]
        deadline = time.time() + 20
        while not pnl_firings() and time.time() < deadline:
            time.sleep(0.2)
        time.sleep(3)  # a second firing from another replica would come by now
        assert len(pnl_firings()) == 1 and pnl_firings()[0]["observed"] < -10, pnl_firings()
        results["a P&L line with 3 replicas"] = f"told once ({pnl_firings()[0]['observed']:.1f} %)"
        # …and quiet hours: a webhook quiet around now holds a firing back; its quiet hours cleared
        #     on another replica, the held firing goes out as one digest, once across the replicas.
        kst = datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=9)))
        around = {"quietStart": (kst - datetime.timedelta(hours=1)).strftime("%H:%M"),
                  "quietEnd": (kst + datetime.timedelta(hours=1)).strftime("%H:%M")}
        status, quiet = user.request(pa, "POST", "/api/webhooks",
                                     {"url": f"http://127.0.0.1:{hook.server_port}/quiet", "secret": "cluster-secret-2", **around})
        assert status == 201 and quiet["quietStart"] == around["quietStart"], (status, quiet)
        status, held = user.request(pb, "POST", "/api/alerts", {"market": "KRW-ETH", "type": "above", "price": "1"})
        assert status == 201, (status, held)
        def digests():
            return [p for p in posts if b'"type":"digest"' in p]
        deadline = time.time() + 15
        while not any(held["id"].encode() in p for p in posts) and time.time() < deadline:
            time.sleep(0.2)
        time.sleep(3)
        assert not digests(), "held back in the quiet hours"
        assert sum(held["id"].encode() in p for p in posts) == 1, "the webhook without quiet hours got it, once"
        status, _ = user.request(pc, "PATCH", f"/api/webhooks/{quiet['id']}", {"quietStart": None, "quietEnd": None})
        assert status == 200, status
        deadline = time.time() + 15
        while not digests() and time.time() < deadline:
            time.sleep(0.2)
        time.sleep(3)  # a second digest from another replica would come by now
        assert len(digests()) == 1 and held["id"].encode() in digests()[0], digests()
        assert user.request(pa, "DELETE", f"/api/webhooks/{quiet['id']}")[0] == 200
        results["quiet hours with 3 replicas"] = f"a firing held back, then one digest ({json.loads(digests()[0])['count']} held)"
        # …and a 체결강도 line every tape is above: each replica carries BTC's tape for it; told once.
        status, strength = user.request(pa, "POST", "/api/alerts", {"market": "KRW-BTC", "type": "strengthAbove", "percent": "0.01"})
        assert status == 201, (status, strength)
        def strength_firings():
            return [f for f in user.request(pb, "GET", "/api/alerts/history")[1]["history"] if f["alertId"] == strength["id"]]
        deadline = time.time() + 20
        while not strength_firings() and time.time() < deadline:
            time.sleep(0.2)
        time.sleep(3)
        assert len(strength_firings()) == 1, strength_firings()
        results["a 체결강도 line with 3 replicas"] = f"told once ({strength_firings()[0]['observed']:.0f} %)"
        # …and a volume spike (a minute's window): set now, surged minutes later (section 7's end),
        # after replicas were killed and one restarted — still told once.
        status, spike = user.request(pa, "POST", "/api/alerts", {"market": "KRW-XRP", "type": "volumeSpike", "factor": "3", "windowMinutes": 1})
        assert status == 201, (status, spike)

        # 2b. One budget across replicas: wrong passwords for one account sent at once, spread over
        #     the three replicas, get five 401s in all (the counts are rows in PostgreSQL), not five each.
        guessed = Browser(public)
        assert guessed.request(pa, "GET", "/api/status")[0] == 200
        assert guessed.request(pa, "POST", "/api/auth/signup", {"username": "guessed", "password": "Guessed-Pass-2026!", "nickname": "추측"})[0] == 201
        def guess(port):
            stranger = Browser(public)
            stranger.request(port, "GET", "/api/status")
            return stranger.request(port, "POST", "/api/auth/login", {"login": "guessed", "password": "wrong guess"}, timeout=30)[0]
        with concurrent.futures.ThreadPoolExecutor(24) as pool:
            statuses = list(pool.map(guess, [(pa, pb, pc)[n % 3] for n in range(24)]))
        assert statuses.count(401) == 5 and statuses.count(429) == 19, statuses
        results["wrong passwords at once over 3 replicas"] = f"{statuses.count(401)} × 401, {statuses.count(429)} × 429 (one budget of 5)"

        # 3. Throughput: 1 replica (nginx → A only) against all 3 (nginx → A, B, C).
        def read(conn, n, i):
            conn.request("GET", "/api/markets?quote=KRW", headers={"Host": public.split("//")[1]})
            r = conn.getresponse(); r.read(); return r.status == 200
        jars = [Browser(public) for _ in range(8)]
        for j in jars: j.request(pa, "GET", "/api/status")
        def star(conn, n, i):
            j = jars[n]
            conn.request("PUT", f"/api/favorites/bench-{n}-{i % 400}", headers={
                "Host": public.split("//")[1], "Origin": public, "X-CSRF-Token": j.cookies["sise_csrf"],
                "Cookie": "; ".join(f"{k}={v}" for k, v in j.cookies.items())})
            r = conn.getresponse(); r.read(); return r.status in (200, 201, 204)
        for label, port in (("1 replica", single_port), ("3 replicas", nginx_port)):
            reads, _ = load(port, 5, 8, read)
            writes, _ = load(port, 5, 8, star)
            results[f"/api/markets reads/s, {label}"] = f"{reads:.0f}"
            results[f"favorite writes/s, {label}"] = f"{writes:.0f}"

        # 4. /ws clients per replica behind nginx (round robin, no stickiness).
        sockets = []
        for _ in range(90):
            page = Browser(public); sockets.append(page.socket(nginx_port))
        deadline = time.time() + 10
        counts = ws_counts()
        while sum(counts) < 90 and time.time() < deadline:
            time.sleep(0.1)
            counts = ws_counts()
        results["/ws clients per replica (90 opened)"] = " / ".join(map(str, counts))
        for ws in sockets: ws.close()

        # 5. SIGKILL a replica in the middle of writes through nginx: no acknowledged write lost,
        #    pages reconnect to the others within 3 s.
        pages = []
        for _ in range(30):
            page = Browser(public); page.request(nginx_port, "GET", "/api/status")
            pages.append(page.socket(nginx_port))
        acknowledged, failed = [], []
        def writer():
            for i in range(300):
                try:
                    s, _ = user.request(nginx_port, "PUT", f"/api/favorites/coin-{i}")
                    (acknowledged if s in (200, 201, 204) else failed).append(i)
                except OSError:
                    failed.append(i)
        t = threading.Thread(target=writer); t.start()
        # In the middle of the writes: after the first 50 are acknowledged.
        while len(acknowledged) + len(failed) < 50 and t.is_alive():
            time.sleep(0.01)
        b.send_signal(signal.SIGKILL); killed = time.time()
        t.join()
        stored = set(user.request(pa, "GET", "/api/favorites")[1]["favorites"])
        lost = [i for i in acknowledged if f"coin-{i}" not in stored]
        assert not lost, f"acknowledged but lost: {lost[:10]}"
        results["writes during SIGKILL"] = f"{len(acknowledged)} acknowledged, 0 lost, {len(failed)} refused (502 from the dying replica, never acknowledged)"
        reconnect = []
        time.sleep(max(0, killed + 1 - time.time()))
        for ws in pages:
            # A page on the killed replica finds its socket closed (nginx ends it) once it has read
            # what came before the kill; the others keep ticking.
            alive = True
            for _ in range(500):
                try:
                    ws.settimeout(0.05); ws.recv()
                except websocket.WebSocketTimeoutException:
                    break
                except Exception:
                    alive = False
                    break
            if not alive:
                # The page's reconnect: a new socket through nginx, lands on a live replica.
                began = time.time()
                page = Browser(public); page.request(nginx_port, "GET", "/api/status")
                fresh = page.socket(nginx_port)
                assert wait_for(fresh, lambda t: '"snapshot"' in t, 3), "no snapshot after reconnecting"
                reconnect.append(time.time() - began)
                fresh.close()
        if reconnect:
            assert max(reconnect) < 3, f"slowest reconnect {max(reconnect):.1f} s"
        assert reconnect, "no page was on the killed replica (nginx spreads them round robin)"
        results["pages cut by the kill"] = f"{len(reconnect)} of {len(pages)}, each back with a snapshot within {max(reconnect or [0]):.2f} s"
        for ws in pages:
            try: ws.close()
            except Exception: pass

        # 6. A replica SIGKILLed in the middle of a push delivery: the push service's first request
        #    is held open, the replica sending it is killed, and the other picks the delivery up when
        #    its lease ends — delivered once (the cut request never got its answer); the Telegram
        #    message of the same firing is posted once too.
        left = [(proc, port) for proc, port in replicas if proc.poll() is None]
        status, _ = user.request(left[0][1], "POST", "/api/push/subscriptions", {
            "endpoint": f"http://127.0.0.1:{services_port}/push/phone",
            "keys": {"p256dh": "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4", "auth": "BTBZMqHH6r4Tts7J_aSIgg"}})
        assert status == 201, status
        status, _ = user.request(left[0][1], "POST", "/api/webhooks", {"kind": "telegram", "botToken": "123456789:AAH-cluster_test_token_0123456", "chatId": "-100777"})
        assert status == 201, status
        status, _ = user.request(left[0][1], "POST", "/api/alerts", {"market": "KRW-ETH", "type": "above", "price": "1"})
        assert status == 201, status
        assert services.held.wait(15), "the push delivery never came"
        # The Telegram message goes out beside it: once it is answered and its replica has written
        # that down (a kill between a service's answer and that write would send it again — the
        # at-least-once window every queue has), the push request is the one cut.
        deadline = time.time() + 3
        while services.completed("/tg/") < 1 and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)
        holder = connected_to(services_port, {proc.pid: proc for proc, _ in left})
        assert holder is not None, "no replica holds the push request"
        holder.send_signal(signal.SIGKILL)
        cut = time.time()
        deadline = time.time() + 15
        while services.completed("/push/") < 1 and time.time() < deadline:
            time.sleep(0.1)
        delivered = time.time()
        # No second delivery can come once the queue is empty.
        deliveries_settle(server_url)
        assert services.aborted("/push/") == 1, services.log
        assert services.completed("/push/") == 1, services.log
        assert services.completed("/tg/") == 1, services.log
        results["push delivery cut by SIGKILL"] = (f"delivered once, {delivered - cut:.1f} s after the kill by the other replica; "
                                                   "Telegram once")

        # 7. The premium's history across replicas and SIGKILLs: every minute is recorded by one
        #    replica (claimed in the store: no point counted twice) with three, then two, then one
        #    up; recording goes on after the kills; a replica started afterwards (B again) serves
        #    the same points.
        _, url = start([SISE, "serve", "--port", "0", "--database", database, "--upbit-url", sim, "--korbit-url", sim,
                        "--bithumb-url", sim + "/bithumb", "--coingecko-url", sim + "/api/v3", "--public-url", public,
                        "--data-dir", os.path.join(WORK, "r1-again"), "--allow-private-webhooks", "--delivery-lease", "6",
                        "--telegram-api-url", f"http://127.0.0.1:{services_port}/tg", "--password-cost", "4", *premium_args(sim)], "replica1-again")
        again = int(url.rsplit(":", 1)[1])
        wait_ready(again)
        # The first minute that begins after the last kill: awaited after section 8 (up to a
        # minute of waiting for the clock, spent on the next section meanwhile).
        after_kill = (int(cut) // 60 + 1) * 60_000

        # 8. The history of changes and its alerts across replicas: a wallet suspended on the
        #    simulator's Bithumb is one event in the store however many replicas look each second,
        #    and the account that stars the coin with wallet alerts on is told once — its history,
        #    its Telegram chat and its phone.
        live = [port for proc, port in replicas if proc.poll() is None] + [again]
        assert user.request(live[0], "PUT", "/api/favorites/bithumb:KRW-XRP")[0] in (200, 201, 204)
        assert user.request(live[-1], "PUT", "/api/alerts/changes", {"wallets": True})[0] == 200

        def watching(port):
            body = user.request(port, "GET", "/api/events")[1]
            return any(w["exchange"] == "bithumb" and "deposit" in w["since"] for w in body["watched"])
        deadline = time.time() + 20
        while not all(watching(port) for port in live) and time.time() < deadline:
            time.sleep(0.3)
        telegrams, pushes = services.completed("/tg/"), services.completed("/push/")
        switch = urllib.request.Request(sim + "/_sim/wallets", data=json.dumps({"exchange": "bithumb", "currency": "XRP", "deposit": False}).encode(),
                                        headers={"Content-Type": "application/json"}, method="POST")
        urllib.request.urlopen(switch, timeout=10).read()
        suspended = "SELECT count(*) FROM market_event WHERE exchange = 'bithumb' AND symbol = 'XRP' AND kind = 'depositSuspended'"
        deadline = time.time() + 20
        while psql_count(server_url, suspended) < 1 and time.time() < deadline:
            time.sleep(0.3)
        # Settled by the store: an event is written only in the transaction that moves its state
        # row from the old value (a replica that looks again finds the new one and writes none),
        # so once the row holds the suspension, written with the event, no second one can come.
        moved = psql_count(server_url, "SELECT count(*) FROM market_state s JOIN market_event e ON e.exchange = s.exchange AND "
                                       "e.symbol = s.symbol AND e.at = s.at WHERE s.exchange = 'bithumb' AND s.symbol = 'XRP' "
                                       "AND s.aspect = 'deposit' AND e.kind = 'depositSuspended'")
        assert moved >= 1, "the suspension's event and its state row were not written together"
        recorded = psql_count(server_url, suspended)
        assert recorded == 1, f"the suspension recorded {recorded} times, not once; watching: {[watching(port) for port in live]}"
        deadline = time.time() + 15
        while (services.completed("/tg/") < telegrams + 1 or services.completed("/push/") < pushes + 1) and time.time() < deadline:
            time.sleep(0.2)
        # Told by the replica whose write recorded the event (the only one it is returned to),
        # through the queue: once the queue is empty nothing more is on its way.
        deliveries_settle(server_url)
        told = [f for f in user.request(live[0], "GET", "/api/alerts/history")[1]["history"] if f["rule"] == "depositSuspended"]
        assert len(told) == 1 and told[0]["market"] == "KRW-XRP", told
        assert services.completed("/tg/") == telegrams + 1, services.log
        assert services.completed("/push/") == pushes + 1, services.log
        results["changes across replicas"] = (f"a suspension seen by {len(live)} replicas each second: one event, told once "
                                              "(history, Telegram, Web Push)")

        # The volume spike: XRP trades 20 times its usual pace on the simulator's Upbit.
        surge = urllib.request.Request(sim + "/_sim/surge?exchange=upbit", data=json.dumps({"market": "KRW-XRP", "factor": 20}).encode(),
                                       headers={"Content-Type": "application/json"}, method="POST")
        urllib.request.urlopen(surge, timeout=10).read()
        surged = time.time()

        # 7 (end). The first minute that begins after the last kill, recorded (sampled 1 s into it).
        deadline = time.time() + 75
        while after_kill not in minute_points(server_url) and time.time() < deadline:
            time.sleep(1)
        points = minute_points(server_url)
        assert after_kill in points, f"no minute recorded after the kill: {sorted(points)}"
        twice = {bucket: m for bucket, (_, m) in points.items() if m != 1}
        assert not twice, f"minutes recorded by more than one replica: {twice}"
        buckets = sorted(points)
        gaps = [b for a, b in zip(buckets, buckets[1:]) if b - a != 60_000]
        assert not gaps, f"minutes missing before {gaps}: {buckets}"
        status, series = user.request(again, "GET", "/api/premium/history?exchange=upbit&symbol=BTC&venue=okx&range=6h")
        stored = minute_points(server_url, "upbit:BTC:okx")
        assert status == 200 and stored and [p[0] for p in series["points"]] == sorted(stored), (status, series, stored)
        before = sum(1 for b in buckets if b < killed * 1000)
        results["premium history across replicas"] = (f"{len(buckets)} minutes × {points[after_kill][0]} series, each written once "
                                                       f"({before} begun before the first SIGKILL, the last after the second); "
                                                       "served the same by a restarted replica")

        deadline = max(time.time(), surged + 5) + 20
        def spikes():
            return [f for f in user.request(again, "GET", "/api/alerts/history")[1]["history"] if f["alertId"] == spike["id"]]
        while not spikes() and time.time() < deadline:
            time.sleep(0.5)
        time.sleep(max(0, surged + 8 - time.time()))  # a second firing from another replica would come by now
        fired = spikes()
        assert len(fired) == 1 and fired[0]["rule"] == "volumeSpike" and fired[0]["observed"] >= 3, fired
        # Its webhook comes through the delivery queue (a replica's lease may hold it a while).
        def spike_posts():
            return [p for p in posts if spike["id"].encode() in p]
        deadline = time.time() + 30
        while not spike_posts() and time.time() < deadline:
            time.sleep(0.5)
        time.sleep(3)  # a second post would come now
        assert len(spike_posts()) == 1, f"the spike's webhook posted {len(spike_posts())} times"
        results["volume spike with replicas killed and restarted"] = f"told once ({fired[0]['observed']:.1f}× the usual pace; webhook once)"

        print("cluster test: passed")
        for k, v in results.items(): print(f"  {k}: {v}")
    except BaseException:
        print("so far:", json.dumps(results, ensure_ascii=False, indent=1), flush=True)
        if os.environ.get("CLUSTER_DEBUG"):
            print(f"failed; processes kept for {os.environ['CLUSTER_DEBUG']} s, logs in {WORK}", flush=True)
            time.sleep(int(os.environ["CLUSTER_DEBUG"]))
        raise
    finally:
        for p in PROCS:
            if p.poll() is None: p.send_signal(signal.SIGTERM)
        for p in PROCS:
            try: p.wait(10)
            except subprocess.TimeoutExpired: p.kill()
        subprocess.run([os.path.join(ROOT, "scripts/postgres.sh"), "stop", pg_dir])


if __name__ == "__main__":
    main()
