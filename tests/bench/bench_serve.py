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
Usage: bench_serve.py CUTBOARD [REQUESTS [CONCURRENCY]]."""
import http.client
import os
import re
import signal
import subprocess
import sys
import threading
import time

CB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./cutboard")
N = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
C = int(sys.argv[3]) if len(sys.argv) > 3 else 16
LIMIT = float(os.environ.get("BENCH_SERVE_SECONDS", "300"))


def peak_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        m = re.search(r"VmHWM:\s+(\d+) kB", f.read())
    return int(m.group(1)) / 1024 if m else float("nan")


def main():
    server = subprocess.Popen([CB, "serve", "--listen", "127.0.0.1:0"], stderr=subprocess.PIPE,
                              text=True)
    try:
        port = int(re.search(r"127\.0\.0\.1:(\d+)/", server.stderr.readline()).group(1))
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
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        server.stderr.close()

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
        port = int(re.search(r"127\.0\.0\.1:(\d+)/", server.stderr.readline()).group(1))
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
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        server.stderr.close()
    ok = served is not None and served < 2.5 and closed is not None and closed < 6
    print("\n| slow client (1 worker, time limit 3 s) | game served | upload cut off | ok |")
    print("| --- | ---: | ---: | --- |")
    fmt = lambda t: "never" if t is None else f"{t:.2f} s"
    print(f"| a body trickled at 1 byte/s | {fmt(served)} | {fmt(closed)} | "
          f"{'yes' if ok else 'NO'} |")
    return 0 if ok else 1


if __name__ == "__main__":
    rc = main()
    sys.exit(slow_client() or rc)
