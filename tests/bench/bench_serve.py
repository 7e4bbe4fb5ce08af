#!/usr/bin/env python3
"""Load test of cutboard serve on loopback, bounded in count and time:
REQUESTS game requests (default 2,000; a PDF of a 2-player game, each its
own seed) from CONCURRENCY clients (default 16) with keep-alive
connections, against a server with its default 2 workers (and queue of 16).
Prints requests/s, p50 and p99 latency, errors (anything but 200; must be 0
beside deliberate 503s, which are counted apart) and the server's peak
resident memory (VmHWM) after a quarter, half and all of the requests: it
must not grow with the number of requests (the last two within 10 %, after
the first quarter's warm-up). Stops after LIMIT seconds (default 300)
whatever is left. The server is stopped at the end. Then the slow-client
timings (which tests/serve_api.py checks only for order, not for time):
with one worker and a 3 s time limit, how soon a game is served while a
client trickles its body a byte a second (at most 2.5 s), and how soon that
upload is cut off (at most 6 s).

Then the per-request rows: a 4-player PDF at 1, 4 and 16 clients, the server's
CPU time a request beside its floor (the same game inside a deck made in
one process), requests/s and p50; with BENCH_BASE=/path/to/an/earlier/
cutboard each row is measured for both builds, one after the other.
BENCH_SERVE_REQUESTS sets the requests a row (default 300).
Usage: bench_serve.py CUTBOARD [REQUESTS [CONCURRENCY]]."""
import http.client
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

CB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./cutboard")
N = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
C = int(sys.argv[3]) if len(sys.argv) > 3 else 16
LIMIT = float(os.environ.get("BENCH_SERVE_SECONDS", "300"))


def server_port(server):
    """The port a `cutboard serve --listen 127.0.0.1:0` says it listens on;
    exits with the server's own words when it does not start."""
    line = server.stderr.readline()
    m = re.search(r"127\.0\.0\.1:(\d+)/", line)
    if not m:
        server.kill()
        sys.exit("bench_serve: %s did not start: %s" % (server.args[0], line.strip() or "no output"))
    return int(m.group(1))


def peak_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        m = re.search(r"VmHWM:\s+(\d+) kB", f.read())
    return int(m.group(1)) / 1024 if m else float("nan")


def stop(server):
    """SIGTERM, as a user stops it; killed if it has not drained in 60 s."""
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    server.stderr.close()


def main():
    server = subprocess.Popen([CB, "serve", "--listen", "127.0.0.1:0"], stderr=subprocess.PIPE,
                              text=True)
    try:
        port = server_port(server)
        lock = threading.Lock()
        state = {"next": 0, "done": 0}
        lat, statuses, marks = [], {}, {}
        checkpoints = {N // 4: "1/4", N // 2: "1/2", N: "all"}
        t0 = time.monotonic()

        def client():
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            while True:
                with lock:
                    k = state["next"]
                    if k >= N or time.monotonic() - t0 > LIMIT:
                        break
                    state["next"] += 1
                start = time.monotonic()
                try:
                    conn.request("GET", f"/api/game?seed=load-{k}&players=2")
                    r = conn.getresponse()
                    body = r.read()
                    st = r.status if r.status != 200 or body.startswith(b"%PDF") else -1
                    if r.getheader("Connection", "").lower() == "close":
                        conn.close()
                        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                except (OSError, http.client.HTTPException):
                    st = 0
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                took = time.monotonic() - start
                with lock:
                    lat.append(took)
                    statuses[st] = statuses.get(st, 0) + 1
                    state["done"] += 1
                    if state["done"] in checkpoints:
                        marks[checkpoints[state["done"]]] = peak_mb(server.pid)
            conn.close()

        threads = [threading.Thread(target=client) for _ in range(C)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.monotonic() - t0
    finally:
        stop(server)

    lat.sort()
    done = len(lat)
    p50 = lat[done // 2] if done else float("nan")
    p99 = lat[min(done - 1, int(done * 0.99))] if done else float("nan")
    busy = statuses.get(503, 0)
    errors = done - statuses.get(200, 0) - busy
    grow = marks.get("all", 0) / marks["1/2"] if marks.get("1/2") else float("nan")
    ok = done == N and errors == 0 and grow <= 1.10 and server.returncode == 0
    print(f"\nHTTP server: cutboard serve (2 workers), GET /api/game?seed=load-K&players=2 "
          f"(a 2-sheet PDF + rules page), {C} clients, keep-alive")
    print("\n| workload | n | requests/s | p50 | p99 | errors | 503 | peak MB (1/4, 1/2, all) "
          "| ok |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    print(f"| game PDF, concurrency {C} | {done} | {done / wall:.1f} | {p50 * 1000:.1f} ms | "
          f"{p99 * 1000:.1f} ms | {errors} | {busy} | "
          f"{marks.get('1/4', 0):.1f}, {marks.get('1/2', 0):.1f}, {marks.get('all', 0):.1f} | "
          f"{'yes' if ok else 'NO'} |")
    if not ok:
        print(f"bench_serve: {done} of {N} done in {wall:.1f} s, statuses {statuses}, "
              f"peak memory x{grow:.2f} from half to all, exit {server.returncode}")
    return 0 if ok else 1


def slow_client():
    """Seconds to serve a game beside a trickling upload, and until the
    upload is cut off; None where it did not happen within 12 s."""
    import socket
    server = subprocess.Popen([CB, "serve", "--listen", "127.0.0.1:0", "--workers", "1",
                               "--time-limit", "3"], stderr=subprocess.PIPE, text=True)
    served = closed = None
    try:
        port = server_port(server)
        s = socket.create_connection(("127.0.0.1", port), timeout=20)
        s.sendall(b"POST /api/game HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        t0 = time.monotonic()
        while time.monotonic() - t0 < 12 and closed is None:
            try:
                s.sendall(b" ")
            except OSError:
                closed = time.monotonic() - t0
                break
            if served is None:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
                conn.request("GET", "/api/game?seed=fast&players=2")
                r = conn.getresponse()
                r.read()
                conn.close()
                served = time.monotonic() - t0 if r.status == 200 else float("nan")
            s.settimeout(1.0)
            try:
                if s.recv(100) == b"":
                    closed = time.monotonic() - t0
            except socket.timeout:
                pass
            except OSError:
                closed = time.monotonic() - t0
        s.close()
    finally:
        stop(server)
    ok = served is not None and served < 2.5 and closed is not None and closed < 6
    print("\n| slow client (1 worker, time limit 3 s) | game served | upload cut off | ok |")
    print("| --- | ---: | ---: | --- |")
    fmt = lambda t: "never" if t is None else f"{t:.2f} s"
    print(f"| a body trickled at 1 byte/s | {fmt(served)} | {fmt(closed)} | "
          f"{'yes' if ok else 'NO'} |")
    return 0 if ok else 1


def server_cpu(pid):
    """User + system CPU seconds the process PID has used so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def per_request(cb, clients, n):
    """A 4-player A4 game PDF (with its rules page), N requests from CLIENTS
    keep-alive clients against a fresh `cutboard serve` (default workers):
    (CPU ms a request, requests/s, p50 s, failures)."""
    server = subprocess.Popen([cb, "serve", "--listen", "127.0.0.1:0"], stderr=subprocess.PIPE,
                              text=True)
    try:
        port = server_port(server)
        warm = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        warm.request("GET", "/api/game?seed=warm&players=4")  # the theme's icons made once
        warm.getresponse().read()
        warm.close()
        lock = threading.Lock()
        state = {"next": 0, "bad": 0}
        lat = []

        def client():
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            while True:
                with lock:
                    k = state["next"]
                    if k >= n:
                        break
                    state["next"] += 1
                start = time.monotonic()
                conn.request("GET", f"/api/game?seed=cpu-{k}&players=4")
                r = conn.getresponse()
                ok = r.status == 200 and r.read().startswith(b"%PDF")
                with lock:
                    lat.append(time.monotonic() - start)
                    state["bad"] += not ok
            conn.close()

        c0, t0 = server_cpu(server.pid), time.monotonic()
        threads = [threading.Thread(target=client) for _ in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall, cpu = time.monotonic() - t0, server_cpu(server.pid) - c0
    finally:
        stop(server)
    lat.sort()
    return cpu * 1000 / n, n / wall, lat[len(lat) // 2], state["bad"]


def deck_floor(cb):
    """CPU ms of a 4-player game inside a 50-game deck made in one process."""
    with tempfile.TemporaryDirectory() as tmp:
        pid = os.fork()
        if pid == 0:
            fd = os.open(os.devnull, os.O_WRONLY)
            os.dup2(fd, 2)
            os.execv(cb, [cb, "deck", "--players", "4", "--count", "50", "--seed", "floor",
                          "-o", os.path.join(tmp, "d.pdf")])
        _, _, ru = os.wait4(pid, 0)
    return (ru.ru_utime + ru.ru_stime) * 1000 / 50


def per_request_rows():
    """Issue 33's serve rows, each beside its floor, paired with BENCH_BASE
    (an earlier cutboard) when given: both servers measured in turn."""
    base = os.environ.get("BENCH_BASE")
    n = int(os.environ.get("BENCH_SERVE_REQUESTS", "300"))
    builds = [("this build", CB)] + ([("base", os.path.abspath(base))] if base else [])
    floor = deck_floor(CB)
    print(f"\nServe, a request's cost: GET /api/game?seed=cpu-K&players=4 (a 4-sheet A4 PDF + rules "
          f"page), {n} requests a row after one to warm up, default 2 workers; CPU is the "
          f"server's (user + system) over the requests; floor: the same game's CPU inside a "
          f"50-game deck made in one process, {floor:.1f} ms"
          + (f"; paired with {base}" if base else ""))
    print("\n| workload | build | CPU a request | requests/s | p50 | failed | target | ok |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- | --- |")
    ok_all = True
    for clients in (1, 4, 16):
        for name, cb in builds:
            cpu, rate, p50, bad = per_request(cb, clients, n)
            if clients == 1:
                target, ok = "<= 6 ms CPU, p50 <= 15 ms", cpu <= 6 and p50 <= 0.015
            elif clients == 4:
                target, ok = ">= 40 requests/s", rate >= 40
            else:
                target, ok = "-", True
            ok = ok and bad == 0
            if name == "this build":
                ok_all = ok_all and bad == 0
            print(f"| 4-player PDF, {clients} client{'s' if clients > 1 else ''} | {name} | "
                  f"{cpu:.1f} ms | {rate:.1f} | {p50 * 1000:.1f} ms | {bad} | {target} | "
                  f"{'yes' if ok else 'NO'} |")
    return 0 if ok_all else 1


if __name__ == "__main__":
    rc = main()
    rc = slow_client() or rc
    sys.exit(rc or per_request_rows())
