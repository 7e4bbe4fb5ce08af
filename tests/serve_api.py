#!/usr/bin/env python3
"""cutboard serve's HTTP API, end to end: starts the server on a free
loopback port and calls every endpoint; checks that the API's PDF, SVG and
board file are byte for byte the CLI's for the same options, every error
status with its JSON body and field, oversized and malformed bodies and
requests, slow clients (they hold no worker; a trickling upload is cut off
at the time limit), a full queue (503 + Retry-After), the time limit and
SIGTERM draining a request in flight (exit 0). Every server started is
stopped. Usage: serve_api.py CUTBOARD (run from the tree)."""
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

from checks import report, summary

CB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./cutboard")
EPOCH = "1700000000"
servers = []


class Server:
    """cutboard serve on 127.0.0.1, a free port; ENV added to the environment."""

    def __init__(self, *args, env=None):
        e = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH)
        e.update(env or {})
        self.proc = subprocess.Popen([CB, "serve", "--listen", "127.0.0.1:0", *args],
                                     stderr=subprocess.PIPE, text=True, env=e)
        servers.append(self)
        line = self.proc.stderr.readline()
        if "serving http://127.0.0.1:" not in line:
            raise SystemExit(f"serve did not start: {line!r}")
        self.port = int(line.split("http://127.0.0.1:")[1].split("/")[0])

    def request(self, method, path, body=None, headers=None, timeout=30):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, data

    def raw(self, head, body=b""):
        """Sends HEAD and as much of BODY as the server takes, then reads
        the response (the server may answer before the body is in)."""
        s = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        try:
            s.sendall(head + body)
        except OSError:
            pass
        r = http.client.HTTPResponse(s)
        try:
            r.begin()
            data = r.read()
        finally:
            s.close()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, data

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=40)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        rest = self.proc.stderr.read()
        self.proc.stderr.close()
        return self.proc.returncode, rest


def cli(*args, **kw):
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH)
    return subprocess.run([CB, *args], capture_output=True, env=env, **kw)


def error_is(what, got, status, field, message=None):
    st, hdr, data = got
    try:
        body = json.loads(data)
    except ValueError:
        body = {}
    ok = (st == status and hdr.get("content-type") == "application/json"
          and body.get("field") == field and isinstance(body.get("error"), str)
          and body["error"] and (message is None or body["error"] == message))
    report(ok, f"{what}: {status} field \"{field}\"", f"{st} {data[:300]!r}")
    return body


def cli_message(*args):
    """The one-line message the CLI gives for ARGS (after "cutboard: ")."""
    r = cli(*args, "-o", os.devnull)
    return r.stderr.decode().strip().removeprefix("cutboard: ")


def main():
    tmp = tempfile.mkdtemp(prefix="serve-api-")
    a = Server("--workers", "1", "--time-limit", "3")

    # --- the endpoints
    st, hdr, data = a.request("GET", "/api/health")
    h = json.loads(data)
    report(st == 200 and h["status"] == "ok" and h["max_nodes"] == 5000, "GET /api/health", data)
    st, hdr, data = a.request("GET", "/api/themes")
    t = json.loads(data)
    names = [x["name"] for x in t["themes"]]
    report(st == 200 and t["default"] == "default" and "default" in names
           and t["themes"][0]["rules"]["sections"][0]["heading"], "GET /api/themes", data[:200])
    st, hdr, page = a.request("GET", "/")
    csp = hdr.get("content-security-policy", "")
    report(st == 200 and hdr["content-type"].startswith("text/html") and b"<html" in page
           and "default-src 'none'" in csp and b"http://" not in page and b"https://" not in page,
           "GET /: the page, self-contained (no external URL, CSP default-src 'none')")

    # --- byte for byte the CLI's
    st, hdr, pdf = a.request("GET", "/api/game?seed=game+night&players=3")
    ref = cli("--seed", "game night", "--players", "3", "-o", "-").stdout
    report(st == 200 and hdr["content-type"] == "application/pdf" and pdf == ref
           and hdr.get("x-cutboard-seed") == "game%20night"
           and "attachment" in hdr.get("content-disposition", ""),
           "GET /api/game PDF == cutboard --seed 'game night' --players 3 -o -",
           f"{st} {len(pdf)} vs {len(ref)} bytes")
    opts = {"seed": "shop #7 ü", "players": 5, "shared": True, "paper": "letter",
            "portrait": True, "ink_friendly": True, "first_game": True, "rules": "first",
            "theme": "default"}
    st, hdr, pdf = a.request("POST", "/api/game", opts)
    ref = cli("--seed", "shop #7 ü", "--players", "5", "--shared", "--paper", "letter",
              "--portrait", "--ink-friendly", "--first-game", "--rules", "first",
              "-o", "-").stdout
    report(st == 200 and pdf == ref and pdf.startswith(b"%PDF"),
           "POST /api/game (every option) PDF == the CLI's", f"{st} {len(pdf)} vs {len(ref)}")
    st, hdr, js = a.request("POST", "/api/game?format=json", {"seed": "x", "players": 2})
    out = os.path.join(tmp, "x")
    cli("--seed", "x", "--players", "2", "-o", out + ".svg", "--json", out + ".json")
    report(st == 200 and js == open(out + ".json", "rb").read(),
           "format=json == cutboard --json")
    st, hdr, svg = a.request("GET", "/api/game?seed=x&players=2&format=svg&sheet=2")
    report(st == 200 and hdr["content-type"] == "image/svg+xml"
           and svg == open(out + "-2.svg", "rb").read(), "format=svg&sheet=2 == FILE-2.svg")
    st, hdr, data = a.request("POST", "/api/game?format=preview", {"seed": "x", "players": 2})
    pv = json.loads(data)
    report(st == 200 and pv["seed"] == "x" and len(pv["sheets"]) == 2
           and pv["sheets"][1].encode() == open(out + "-2.svg", "rb").read() and pv["nodes"] > 100,
           "format=preview: every sheet's SVG", data[:200])

    # --- check
    board = open(out + ".json", "rb").read()
    st, hdr, data = a.request("POST", "/api/check", board)
    v = json.loads(data) if st == 200 else {}
    ref = cli("check", out + ".json").stdout.decode()
    s1 = v.get("sheets", [{}])[0]
    report(st == 200 and v["ok"] is True and len(v["sheets"]) == 2 and len(s1["starts"]) == 12
           and f"{s1['nodes']} nodes, {s1['edges']} edges" in ref
           and f"hops {s1['hop_min']}..{s1['hop_max']}" in ref,
           "POST /api/check: the verdict and the CLI check's figures", data[:300])
    broken = json.loads(board)
    broken["sheets"][0]["edges"] = broken["sheets"][0]["edges"][:20]
    st, hdr, data = a.request("POST", "/api/check", json.dumps(broken))
    v = json.loads(data) if st == 200 else {}
    report(st == 200 and v["ok"] is False and v["sheets"][0]["failure"]
           and v["sheets"][1]["ok"] is True, "POST /api/check: a board that fails", data[:200])
    error_is("check, not a board file", a.request("POST", "/api/check", b"{\"format\": 1}"),
             422, "")
    error_is("check, empty body", a.request("POST", "/api/check", b""), 400, "")

    # --- errors: the CLI's messages, the field at fault
    error_is("players 12", a.request("GET", "/api/game?seed=x&players=12"), 400, "players",
             cli_message("--players", "12"))
    error_is("players x", a.request("GET", "/api/game?seed=x&players=x"), 400, "players",
             cli_message("--players", "x"))
    error_is("paper bogus", a.request("POST", "/api/game", {"seed": "x", "paper": "bogus"}), 400,
             "paper", cli_message("--paper", "bogus"))
    error_is("paper 50x50mm", a.request("POST", "/api/game", {"seed": "x", "paper": "50x50mm"}),
             400, "paper", cli_message("--paper", "50x50mm"))
    error_is("no seed", a.request("GET", "/api/game?players=3"), 400, "seed")
    error_is("theme as a path", a.request("GET", "/api/game?seed=x&theme=../../etc"), 400, "theme")
    error_is("unknown theme", a.request("GET", "/api/game?seed=x&theme=nope"), 400, "theme")
    error_is("unknown parameter", a.request("GET", "/api/game?seed=x&bogus=1"), 400, "bogus")
    error_is("parameter twice", a.request("GET", "/api/game?seed=x&seed=y"), 400, "seed")
    error_is("bad escape", a.request("GET", "/api/game?seed=%zz"), 400, "seed")
    error_is("NUL in a value", a.request("GET", "/api/game?seed=a%00b"), 400, "seed")
    error_is("format", a.request("GET", "/api/game?seed=x&format=png"), 400, "format")
    error_is("sheet past the last", a.request("GET", "/api/game?seed=x&players=2&format=svg&sheet=3"),
             400, "sheet")
    error_is("rules", a.request("POST", "/api/game", {"seed": "x", "rules": "middle"}), 400,
             "rules", cli_message("--rules", "middle"))
    error_is("malformed JSON", a.request("POST", "/api/game", b"{\"seed\": "), 400, "")
    error_is("JSON not an object", a.request("POST", "/api/game", b"[1,2]"), 400, "")
    error_is("unknown field", a.request("POST", "/api/game", {"seed": "x", "colour": 1}), 400,
             "colour")
    error_is("wrong type", a.request("POST", "/api/game", {"seed": "x", "players": "4"}), 400,
             "players")
    error_is("not a whole number", a.request("POST", "/api/game", {"seed": "x", "players": 2.5}),
             400, "players")
    error_is("bool as a number", a.request("POST", "/api/game", {"seed": "x", "shared": 1}), 400,
             "shared")
    error_is("options in a POST's query", a.request("POST", "/api/game?seed=x", {"seed": "x"}),
             400, "seed")
    error_is("deep JSON", a.request("POST", "/api/game", b"[" * 5000 + b"]" * 5000), 400, "")
    error_is("invalid UTF-8 seed", a.request("POST", "/api/game", b'{"seed": "\xff"}'), 400, "seed")
    error_is("too many nodes", a.request("POST", "/api/game",
                                          {"seed": "x", "players": 9, "paper": "a1"}), 422, "paper")
    error_is("404", a.request("GET", "/nope"), 404, "")
    st, hdr, data = a.request("DELETE", "/api/game?seed=x")
    error_is("DELETE /api/game", (st, hdr, data), 405, "")
    report(hdr.get("allow") == "GET, HEAD, POST", "405 says Allow", hdr)
    error_is("GET /api/check", a.request("GET", "/api/check"), 405, "")
    error_is("POST /", a.request("POST", "/", b"x"), 405, "")
    big = b"{" + b" " * (1 << 20) + b"}"
    error_is("1 MiB + 2 body", a.raw(b"POST /api/game HTTP/1.1\r\nHost: x\r\nContent-Length: "
                                     + str(len(big)).encode() + b"\r\n\r\n", big), 413, "")
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(big[k:k + 65536]), big[k:k + 65536])
                      for k in range(0, len(big), 65536)) + b"0\r\n\r\n"
    error_is("1 MiB + 2 body, chunked", a.raw(b"POST /api/game HTTP/1.1\r\nHost: x\r\n"
                                              b"Transfer-Encoding: chunked\r\n\r\n", chunks),
             413, "")
    st, hdr, data = a.request("POST", "/api/game", json.dumps({"seed": "x"}).encode()
                              + b" " * 1000000)
    report(st == 200 and data.startswith(b"%PDF"), "a body just under 1 MiB is fine", st)

    # --- a NUL in the head: libmicrohttpd 0.9.75 would cut the string there
    # (/api/game\0x served as /api/game); refused, JSON
    nul = "a NUL byte in the request line or a header line, or a folded header line: send " \
          "plain HTTP/1.1"
    for what, head in [("in the path", b"GET /api/health\x00garbage HTTP/1.1\r\nHost: x\r\n"),
                       ("in the query", b"GET /api/game?seed=a\x00&players=9 HTTP/1.1\r\nHost: x\r\n"),
                       ("right before the version", b"GET /api/health\x00 HTTP/1.1\r\nHost: x\r\n"),
                       ("in the method", b"GE\x00T /api/health HTTP/1.1\r\nHost: x\r\n"),
                       ("in a header's value", b"GET /api/health HTTP/1.1\r\nHost: x\r\n"
                                               b"X-Test: a\x00b\r\n"),
                       ("at a header's end", b"GET /api/health HTTP/1.1\r\nHost: x\x00\r\n"),
                       ("before a header's value", b"GET /api/health HTTP/1.1\r\nHost: \x00x\r\n"),
                       ("in a POST's header", b"POST /api/check HTTP/1.1\r\nHost: x\r\n"
                                              b"Content-Length: 2\r\nX: y\x00z\r\n"),
                       ("a folded header line", b"GET /api/health HTTP/1.1\r\nHost: x\r\n"
                                                b"X-Test: a\r\n b\r\n")]:
        body = b"{}" if head.startswith(b"POST") else b""
        error_is(f"NUL {what}" if "folded" not in what else what, a.raw(head + b"\r\n", body),
                 400, "", nul)
    # ...while the head's ordinary forms pass: bare LFs, tabs and no value,
    # empty lines before it, cookies, two requests on one connection
    for what, head in [("bare LFs, tabs, an empty value",
                        b"GET /api/health HTTP/1.1\nHost: x\nX-A:\t a \nX-B:\n\n"),
                       ("empty lines first, a cookie",
                        b"\r\n\r\nGET /api/health HTTP/1.1\r\nHost: x\r\nCookie: a=b; c=d\r\n\r\n"),
                       ("a query, HTTP/1.0", b"GET /api/health?x=%20y HTTP/1.0\r\n\r\n")]:
        st, _, data = a.raw(head)
        report(st == 200 and b'"ok"' in data, f"a plain head: {what}: 200", (st, data[:200]))
    s = socket.create_connection(("127.0.0.1", a.port), timeout=15)
    s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n"
              b"GET /api/themes\x00x HTTP/1.1\r\nHost: x\r\n\r\n"
              b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    got = b""
    try:
        while chunk := s.recv(65536):
            got += chunk
    except OSError:
        pass
    s.close()
    statuses = [int(x) for x in re.findall(rb"HTTP/1\.1 (\d{3})", got)]
    report(statuses[:2] == [200, 400], "requests on one connection: the plain one 200, the one "
           "with a NUL 400", statuses)

    # --- hostile HTTP: the server answers or hangs up, and lives on
    for raw in [b"BLAH\r\n\r\n", b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
                b"GET / HTTP/1.1\r\n" + b"X: " + b"y" * 70000 + b"\r\n\r\n",
                b"POST /api/game HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
                b"POST /api/game HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                b"GET /api/health HTTP/1.1\r\nHo\x00st: x\r\n\r\n",   # libmicrohttpd's own 400
                b"GET /api/health HTTP/1.1\x00\r\nHost: x\r\n\r\n",
                b"\x00\xff" * 100]:
        s = socket.create_connection(("127.0.0.1", a.port), timeout=15)
        try:
            s.sendall(raw)
            s.shutdown(socket.SHUT_WR)
            reply = s.recv(200)
        except OSError:
            reply = b""
        s.close()
        st, _, _ = a.request("GET", "/api/health")
        report(st == 200 and (reply == b"" or reply.startswith(b"HTTP/1.1 4")),
               f"hostile request {raw[:24]!r}...: {reply[:12]!r}, the server lives on")

    # --- a slow client holds a connection, never the only worker; an upload
    # slower than the time limit (3 s) is cut off within 12 s
    s = socket.create_connection(("127.0.0.1", a.port), timeout=20)
    s.sendall(b"POST /api/game HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
    t0 = time.monotonic()
    fast = []
    closed_after = None
    while time.monotonic() - t0 < 12:
        try:
            s.sendall(b" ")
        except OSError:
            closed_after = time.monotonic() - t0
            break
        if not fast:
            st, _, data = a.request("GET", "/api/game?seed=fast&players=2")
            fast.append((st, time.monotonic() - t0))
        s.settimeout(1.0)
        try:
            if s.recv(100) == b"":
                closed_after = time.monotonic() - t0
                break
        except socket.timeout:
            pass
        except OSError:
            closed_after = time.monotonic() - t0
            break
    s.close()
    # Order, not time: other suites share the cores (tests/bench/bench_serve.py
    # measures how soon each happens).
    report(fast and fast[0][0] == 200 and (closed_after is None or fast[0][1] <= closed_after),
           "a game while a client trickles its body (1 worker): served while it trickles", fast)
    report(closed_after is not None,
           "an upload of one byte a second is cut off (the 100 bytes would take 100 s)",
           closed_after)

    rc, err = a.stop()
    report(rc == 0 and "stopped (SIGTERM)" in err, "SIGTERM: exit 0", (rc, err))

    # --- a full queue, the time limit
    b = Server("--workers", "1", "--time-limit", "2",
               env={"CUTBOARD_TEST_SERVE_HOLD_MS": "2500"})
    results = []

    def one(k):
        results.append(b.request("GET", f"/api/game?seed=q{k}&players=2"))

    threads = [threading.Thread(target=one, args=(k,)) for k in range(12)]
    for th in threads:
        th.start()
        time.sleep(0.02)
    for th in threads:
        th.join()
    bodies = [json.loads(d) for _, _, d in results]
    busy = [h for (st, h, _), j in zip(results, bodies) if st == 503 and "busy" in j["error"]]
    late = [j for (st, _, _), j in zip(results, bodies) if st == 503 and "time limit" in j["error"]]
    report(len(results) == 12 and all(st == 503 for st, _, _ in results), "slow server: all 503",
           [st for st, _, _ in results])
    report(len(busy) >= 3 and all(h.get("retry-after") for h in busy),
           "1 worker + 8 waiting: the rest get 503 busy with Retry-After", len(busy))
    report(len(late) >= 1, "a generation past the time limit: 503", len(late))
    rc, err = b.stop()
    report(rc == 0, "slow server stopped: exit 0", (rc, err))

    # --- SIGTERM drains a request in flight
    c = Server("--workers", "1", env={"CUTBOARD_TEST_SERVE_HOLD_MS": "1500"})
    got = []
    th = threading.Thread(target=lambda: got.append(c.request("GET", "/api/game?seed=drain")))
    th.start()
    time.sleep(0.5)
    c.proc.send_signal(signal.SIGTERM)
    th.join()
    c.proc.wait(timeout=30)
    rc, err = c.stop()
    report(got and got[0][0] == 200 and got[0][2].startswith(b"%PDF") and rc == 0,
           "SIGTERM during a request: it completes, exit 0", (got and got[0][0], rc, err))
    try:
        socket.create_connection(("127.0.0.1", c.port), timeout=2).close()
        report(False, "after SIGTERM the port is closed")
    except OSError:
        report(True, "after SIGTERM the port is closed")

    return summary()


if __name__ == "__main__":
    try:
        rc = main()
    finally:
        for srv in servers:
            if srv.proc.poll() is None:
                srv.proc.kill()
                srv.proc.wait()
    sys.exit(rc)
