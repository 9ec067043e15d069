#!/usr/bin/env python3
"""The hostile requests of issue 16 (cases 1-6) against a real `grundy serve`.

Starts the server on 127.0.0.1 (a free port), fires COPIES of each hostile
request at once, then measures `/api/games` (must answer in under 100 ms),
checks that the server still computes a small answer, and times how long
SIGTERM takes to stop it. Prints one line per request kind and the figures.

    python3 bench/hostile.py [--grundy target/release/grundy] [--copies 3]

Standard library only; loopback only.
"""

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import threading
import time
import urllib.parse

SPLIT = 'fn options(n) { let o = []; if n > 0 { o.push(n - 1); } split(300, 20); o }'
HUGE_SPLIT = 'fn options(n) { split(9223372036854775807, 2) }'
PRINTER = 'fn options(n) { print("hello"); debug("there"); if n > 0 { [n - 1] } else { [] } }'
PAST_HEAP = 'fn options(n) { if n < 5 { [n + 1] } else { [] } }'


def request(address, method, path, body=None, timeout=30.0):
    """One HTTP/1.1 request on its own connection: (status, seconds, bytes)."""
    host, port = address
    started = time.monotonic()
    data = json.dumps(body).encode() if body is not None else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
    with socket.create_connection((host, port), timeout=timeout) as s:
        s.sendall(head.encode() + b"\r\n" + data)
        chunks = []
        while True:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                return ("timeout", time.monotonic() - started, sum(map(len, chunks)))
            if not chunk:
                break
            chunks.append(chunk)
    reply = b"".join(chunks)
    status = reply.split(b" ", 2)[1].decode() if reply.startswith(b"HTTP/") else "none"
    return (status, time.monotonic() - started, len(reply))


def slow_client(address, hold, results):
    """A client that sends half a request line and waits (case 6)."""
    started = time.monotonic()
    try:
        with socket.create_connection(address, timeout=hold + 5) as s:
            s.sendall(b"GET /api/ga")
            s.settimeout(hold + 5)
            try:
                gone = s.recv(1) == b""
            except socket.timeout:
                gone = False
            results.append((gone, time.monotonic() - started))
    except OSError:
        results.append((True, time.monotonic() - started))


def q(game, to, script=None):
    params = {"game": game, "to": str(to)}
    if script:
        params["script"] = script
    return "/api/analyze?" + urllib.parse.urlencode(params)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--grundy", default="target/release/grundy")
    parser.add_argument("--copies", type=int, default=3)
    parser.add_argument("--slow-clients", type=int, default=100)
    args = parser.parse_args()

    server = subprocess.Popen(
        [args.grundy, "serve", "--host", "127.0.0.1", "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    line = server.stderr.readline()
    hostport = line.split("http://")[1].split("/")[0]
    host, port = hostport.rsplit(":", 1)
    address = (host, int(port))
    print(f"server: {line.strip()}")

    hostile = [
        ("1 position 0.{2+} heap 100", "POST", "/api/position", {"game": "0.{2+}", "heaps": [100]}),
        ("1 position 0.&(2^63-1); heap 100", "POST", "/api/position",
         {"game": "0.&9223372036854775807;", "heaps": [100]}),
        ("2 script split(300, 20)", "GET", q("", 20, SPLIT), None),
        ("2 script split(2^63-1, 2)", "POST", "/api/position",
         {"game": "", "script": HUGE_SPLIT, "heaps": [5]}),
        ("3 script print()", "GET", q("", 50, PRINTER), None),
        ("4 analyze 0.{62} to 200", "GET", q("0.{62}", 200), None),
        ("4 analyze 0.9z to 100000", "GET", q("0.9z", 100000), None),
        ("4 analyze 4.{2+} to 100000", "GET", q("4.{2+}", 100000), None),
        ("5 script option past the heap", "POST", "/api/position",
         {"game": "", "script": PAST_HEAP, "heaps": [3]}),
    ]
    results = {name: [] for name, *_ in hostile}
    threads = []
    slow = []
    started = time.monotonic()
    for _ in range(args.slow_clients):
        t = threading.Thread(target=slow_client, args=(address, 10.0, slow))
        t.start()
        threads.append(t)
    for name, method, path, body in hostile:
        for _ in range(args.copies):
            def fire(name=name, method=method, path=path, body=body):
                results[name].append(request(address, method, path, body))
            t = threading.Thread(target=fire)
            t.start()
            threads.append(t)
    # /api/games while the hostile requests run.
    during = []
    for _ in range(20):
        during.append(request(address, "GET", "/api/games")[1])
        time.sleep(0.05)
    for t in threads:
        t.join()
    hostile_wall = time.monotonic() - started

    print(f"{'request':36} {'statuses':24} {'seconds (min-max)':18} bytes (max)")
    for name, *_ in hostile:
        rs = results[name]
        statuses = ",".join(sorted(str(r[0]) for r in rs))
        secs = [r[1] for r in rs]
        print(f"{name:36} {statuses:24} {min(secs):6.2f}-{max(secs):<10.2f} {max(r[2] for r in rs)}")
    gone = sum(1 for g, _ in slow if g)
    held = max((s for _, s in slow), default=0.0)
    print(f"6 slow clients (half a request line): {gone}/{len(slow)} dropped by the server, "
          f"the last after {held:.1f} s")
    print(f"all hostile requests done in {hostile_wall:.1f} s")
    print(f"/api/games during: median {statistics.median(during) * 1000:.1f} ms, "
          f"max {max(during) * 1000:.1f} ms")

    after = [request(address, "GET", "/api/games") for _ in range(50)]
    ms = sorted(r[1] * 1000 for r in after)
    ok = all(r[0] == "200" for r in after)
    print(f"/api/games after: {'all 200' if ok else 'NOT all 200'}, median {statistics.median(ms):.2f} ms, "
          f"p99 {ms[int(len(ms) * 0.99) - 1]:.2f} ms, max {ms[-1]:.2f} ms")
    small = request(address, "POST", "/api/position", {"game": "kayles", "heaps": [4, 7]})
    print(f"still computing: POST /api/position kayles [4, 7] -> {small[0]} in {small[1] * 1000:.1f} ms")

    # SIGTERM with one client holding a half-sent request.
    holder = socket.create_connection(address)
    holder.sendall(b"GET /api/ga")
    time.sleep(0.1)
    sent = time.monotonic()
    server.send_signal(signal.SIGTERM)
    try:
        code = server.wait(timeout=30)
        print(f"SIGTERM (a half-sent request open): exit {code} after {time.monotonic() - sent:.2f} s")
    except subprocess.TimeoutExpired:
        server.kill()
        print("SIGTERM: the server did not stop within 30 s (killed)")
    holder.close()
    verdict = ok and max(ms) < 100
    print("verdict:", "pass" if verdict else "FAIL", "(/api/games under 100 ms afterwards)")
    return 0 if verdict else 1


if __name__ == "__main__":
    raise SystemExit(main())
