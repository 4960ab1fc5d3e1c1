"""nginx configured exactly as deploy/nginx.conf, on loopback, in front of given Sise replicas.

Used by the cluster test (scripts/cluster_test.py) and the behind-a-proxy tests
(Tests/Proxy). Only the replica addresses, the listening address and the server name change;
every `location` and header is the documented one.
"""
import os
import re
import socket
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def binary():
    return "nginx" if subprocess.run(["sh", "-c", "command -v nginx"], capture_output=True).returncode == 0 else "/usr/sbin/nginx"


def start(work, port, replica_ports, extra=""):
    """Starts nginx on 127.0.0.1:`port` in front of `replica_ports`; returns the process once it accepts."""
    conf = open(os.path.join(ROOT, "deploy/nginx.conf")).read()
    servers = "".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;\n" for p in replica_ports)
    conf, count = re.subn(r"    server 127\.0\.0\.1:8081.*\n    server 127\.0\.0\.1:8082.*\n    server 127\.0\.0\.1:8083.*\n", servers, conf)
    assert count == 2, "deploy/nginx.conf: the two upstreams' server lines"
    conf = conf.replace("listen 80;", f"listen 127.0.0.1:{port};").replace("server_name sise.example.kr;", "server_name _;")
    temp = os.path.join(work, "nginx")
    for d in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        os.makedirs(os.path.join(temp, d), exist_ok=True)
    paths = "".join(f"{d}_temp_path {temp}/{d};\n" for d in ("proxy", "fastcgi", "uwsgi", "scgi")) + f"client_body_temp_path {temp}/body;\n"
    path = os.path.join(work, "nginx.conf")
    with open(path, "w") as f:
        f.write(f"worker_processes 1;\ndaemon off;\npid {work}/nginx.pid;\nerror_log {work}/nginx-error.log;\n"
                f"events {{ worker_connections 8192; }}\nhttp {{\naccess_log off;\n{paths}{conf}\n{extra}\n}}\n")
    if os.geteuid() == 0:
        with open(path) as f: text = f.read()
        with open(path, "w") as f: f.write("user root;\n" + text)
    nginx = subprocess.Popen([binary(), "-c", path, "-p", work], stderr=subprocess.PIPE)
    deadline = time.time() + 10
    while time.time() < deadline:
        if nginx.poll() is not None:
            raise RuntimeError("nginx did not start: " + nginx.stderr.read().decode())
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return nginx
        except OSError:
            time.sleep(0.1)
    nginx.kill()
    raise RuntimeError("nginx did not accept connections within 10 s")
