#!/usr/bin/env python3
"""The hostile requests of issues 16 (cases 1-6) and 50 against a real
`grundy serve`.

Starts the server on 127.0.0.1 (a free port), fires COPIES of each hostile
request at once, then measures `/api/games` (must answer in under 100 ms),
checks that the server still computes a small answer, and times how long
SIGTERM takes to stop it. Prints one line per request kind and the figures.
Issue 50's cases follow: a client that pipelines requests and never reads,
1,030 idle connections at once, and cheap requests while 16 clients loop on
costly ones.

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


#: Source addresses on loopback (all of 127.0.0.0/8 is), so that the server,
#: which caps connections per address, sees the kinds of clients apart:
#: the hostile ones, the slow ones, the greedy ones, and the checks.
HOSTILE, SLOW, GREEDY, CHECKS = "127.0.0.1", "127.0.0.3", "127.0.0.4", "127.0.0.2"


def request(address, method, path, body=None, timeout=30.0, source=CHECKS):
    """One HTTP/1.1 request on its own connection, from `source`:
    (status, seconds, bytes); a connection the server resets is status
    "reset"."""
    host, port = address
    started = time.monotonic()
    data = json.dumps(body).encode() if body is not None else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
    with socket.create_connection((host, port), timeout=timeout, source_address=(source, 0)) as s:
        s.sendall(head.encode() + b"\r\n" + data)
        chunks = []
        while True:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                return ("timeout", time.monotonic() - started, sum(map(len, chunks)))
            except ConnectionResetError:
                return ("reset", time.monotonic() - started, sum(map(len, chunks)))
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
        with socket.create_connection(address, timeout=hold + 5, source_address=(SLOW, 0)) as s:
            s.sendall(b"GET /api/ga")
            s.settimeout(hold + 5)
            try:
                gone = s.recv(1) == b""
            except socket.timeout:
                gone = False
            results.append((gone, time.monotonic() - started))
    except OSError:
        results.append((True, time.monotonic() - started))


def pipeliner(address, results):
    """Sends 4,000 requests at once and reads nothing (issue 50): how long
    until the server drops the connection (None: kept past 30 s)."""
    started = time.monotonic()
    with socket.create_connection(address, source_address=(GREEDY, 0)) as s:
        s.setblocking(False)
        burst = b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n" * 4000
        try:
            s.sendall(burst)
        except (BlockingIOError, OSError):
            pass
        s.setblocking(True)
        time.sleep(12)
        s.settimeout(30)
        try:
            while s.recv(1 << 20):
                pass
            results.append(time.monotonic() - started)
        except (socket.timeout, OSError):
            results.append(time.monotonic() - started if s.fileno() >= 0 else None)


def many_connections(address, count):
    """Opens `count` idle connections (issue 50): how many the server
    closed at once, and whether a new request is served meanwhile."""
    held = []
    closed = 0
    for _ in range(count):
        try:
            s = socket.create_connection(address, timeout=5, source_address=(GREEDY, 0))
        except OSError:
            closed += 1
            continue
        held.append(s)
    time.sleep(0.5)
    for s in held:
        s.settimeout(0.01)
        try:
            if s.recv(1) == b"":
                closed += 1
        except socket.timeout:
            pass
        except OSError:
            closed += 1
    served = request(address, "GET", "/api/games", timeout=10)[0]
    for s in held:
        s.close()
    return closed, served


def fairness(address, clients, seconds):
    """Cheap compute requests while `clients` loop on costly ones (issue
    50): the statuses of the cheap ones."""
    stop = time.monotonic() + seconds
    def loop():
        while time.monotonic() < stop:
            request(address, "GET", q("4.{2+}", 100000), source=HOSTILE)
    loopers = [threading.Thread(target=loop) for _ in range(clients)]
    for t in loopers:
        t.start()
    time.sleep(0.5)
    statuses = []
    while time.monotonic() < stop - 0.5:
        statuses.append(request(address, "GET", q("kayles", 10))[0])
        time.sleep(0.05)
    for t in loopers:
        t.join()
    return statuses


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
                results[name].append(request(address, method, path, body, source=HOSTILE))
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

    # Issue 50: the server cannot be locked out.
    dropped = []
    greedy = threading.Thread(target=pipeliner, args=(address, dropped))
    greedy.start()
    closed, served = many_connections(address, 1030)
    print(f"1,030 idle connections from one address: {closed} closed as accepted (caps: 512 "
          f"in all, 128 an address), a request from another address meanwhile -> {served}")
    statuses = fairness(address, 16, 8.0)
    cheap_ok = sum(1 for s in statuses if s == "200")
    print(f"16 clients looping on 4.{{2+}} to 100000 (3 s each): cheap requests {cheap_ok}/{len(statuses)} "
          f"answered 200")
    greedy.join()
    kept = dropped[0] if dropped else None
    print("a client that pipelines 4,000 requests and reads nothing: "
          + (f"dropped after {kept:.1f} s" if kept is not None else "kept (not dropped)"))

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
    verdict = ok and max(ms) < 100 and cheap_ok == len(statuses) and kept is not None
    print("verdict:", "pass" if verdict else "FAIL",
          "(/api/games under 100 ms afterwards; every cheap request answered; the pipeliner dropped)")
    return 0 if verdict else 1


if __name__ == "__main__":
    raise SystemExit(main())
