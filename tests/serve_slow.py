#!/usr/bin/env python3
"""cutboard serve against hostile clients, on loopback, bounded (about 15 s):
slow clients that trickle header lines cannot starve a normal request (a
per-address connection limit, a deadline for a request's headers), a port
already in use is refused (exit 74) instead of shared, and requests with two
Content-Length headers or a JSON body with text after it get a JSON 400.
Usage: serve_slow.py CUTBOARD"""
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time

from checks import report, summary

CB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "cutboard")


def start(listen="127.0.0.1:0"):
    p = subprocess.Popen([CB, "serve", "--listen", listen], stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    if "serving http://" not in line:
        raise SystemExit(f"serve did not start: {line!r}")
    return p, int(line.split("http://127.0.0.1:")[1].split("/")[0])


def connect(port, source, timeout=2.0):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def timed_get(port, source, path="/api/health"):
    """(status, seconds) of a GET from SOURCE; status None when it failed."""
    t0 = time.monotonic()
    try:
        s = connect(port, source, timeout=5)
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        r = http.client.HTTPResponse(s)
        r.begin()
        r.read()
        s.close()
        return r.status, time.monotonic() - t0
    except OSError as e:
        return None, time.monotonic() - t0


def raw(port, data):
    s = connect(port, "127.0.0.1", timeout=10)
    s.sendall(data)
    r = http.client.HTTPResponse(s)
    r.begin()
    body = r.read()
    s.close()
    return r.status, r.getheader("Content-Type"), body


def slow_clients(port, sources, per_source):
    """Opens PER_SOURCE connections from each address, each having sent half
    a request; returns the sockets the server kept."""
    socks = []
    for src in sources:
        for _ in range(per_source):
            try:
                s = connect(port, src, timeout=1)
                s.sendall(b"GET / HTTP/1.1\r\nX-Slow: 1\r\n")
                socks.append(s)
            except OSError:
                pass
    time.sleep(0.5)
    kept = []
    for s in socks:  # the ones the server closed read as end of file
        s.setblocking(False)
        try:
            gone = s.recv(1) == b""
        except BlockingIOError:
            gone = False
        except OSError:
            gone = True
        (s.close() if gone else kept.append(s))
    return kept


def trickle(socks, stop):
    """One header line every 2 s on each socket, until STOP or closed."""
    while not stop.is_set():
        for s in list(socks):
            try:
                s.send(b"X-More: 1\r\n")
            except OSError:
                socks.remove(s)
        stop.wait(2)


def main():
    p, port = start()
    try:
        # the port is taken: a second server must not share it
        t0 = time.monotonic()
        try:
            r = subprocess.run([CB, "serve", "--listen", f"127.0.0.1:{port}"],
                               capture_output=True, text=True, timeout=5)
            rc, err = r.returncode, r.stderr
        except subprocess.TimeoutExpired:  # (run kills it)
            rc, err = "still serving after 5 s", ""
        report(rc == 74 and "Address already in use" in err and time.monotonic() - t0 < 5,
               "a port already in use: exit 74, not shared", f"exit {rc}, {err!r}")

        # 1,000 slow connections from one address: at most 16 are kept
        t0 = time.monotonic()
        held = slow_clients(port, ["127.0.0.1"], 1000)
        report(0 < len(held) <= 16, f"1000 slow connections from one address: {len(held)} kept "
               "(limit 16)")
        # and 14 more addresses with 15 each, under the global limit
        held += slow_clients(port, [f"127.0.1.{k}" for k in range(1, 15)], 15)
        stop = threading.Event()
        th = threading.Thread(target=trickle, args=(held, stop))
        th.start()
        n_held = len(held)
        worst = 0.0
        ok = True
        for k in range(5):  # normal requests while they trickle, from another address
            st, dt = timed_get(port, "127.0.0.2")
            worst = max(worst, dt)
            ok &= st == 200 and dt < 1.0
            time.sleep(1)
        report(ok, f"normal requests answered while {n_held} slow connections trickle "
               f"(slowest {worst * 1000:.0f} ms, limit 1000 ms)")
        # the headers' deadline (10 s) closes every trickling connection
        deadline = t0 + 14
        while held and time.monotonic() < deadline:
            time.sleep(0.25)
        stop.set()
        th.join()
        report(not held, f"trickling connections closed by the headers' deadline "
               f"({len(held)} of {n_held} still open {time.monotonic() - t0:.1f} s after they "
               "began)")
        for s in held:
            s.close()

        st, ctype, body = raw(port, b"POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Length: 2"
                              b"\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{}")
        report(st == 400 and ctype.startswith("application/json") and
               "Content-Length" in json.loads(body)["error"],
               "two Content-Length headers: 400, JSON", f"{st} {ctype} {body[:200]!r}")
        b = b'{"seed":"a"}garbage'
        st, ctype, body = raw(port, b"POST /api/game HTTP/1.1\r\nHost: x\r\nContent-Length: "
                              + str(len(b)).encode() + b"\r\nConnection: close\r\n\r\n" + b)
        report(st == 400 and ctype.startswith("application/json"),
               "a JSON body with text after it: 400, JSON", f"{st} {ctype} {body[:200]!r}")
    finally:
        p.terminate()
        p.wait(timeout=30)
    sys.exit(summary(need_one=True))


main()
