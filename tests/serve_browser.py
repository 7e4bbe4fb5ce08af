#!/usr/bin/env python3
"""The page of cutboard serve in a real browser: headless Chromium driven
over its DevTools protocol (python3-websocket). Loads the page, checks that
every control has a label and that the page asks nothing of any other host,
changes the player count as a user would (keyboard into the field) and sees
the preview change from 4 sheets to 3, then to 12, which the page refuses
in its form's words, marking the sheets it still shows out of date; downloads the PDF through the
Download PDF link and checks it with pdfinfo (3 sheets + the rules page) and
against the CLI's bytes. Takes a screenshot (to look at). The server and
the browser are stopped at the end.
Usage: serve_browser.py CUTBOARD [SCREENSHOT.png] (run from the tree)."""
import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from checks import report, summary

try:
    import websocket
except ImportError:  # the PATH's python3 may be another build than Debian's,
    sys.path.append("/usr/lib/python3/dist-packages")  # where python3-websocket is
    try:
        import websocket
    except ImportError:
        websocket = None

CB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./cutboard")
SHOT = sys.argv[2] if len(sys.argv) > 2 else None
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class DevTools:
    """One page of the browser, over a flat session."""

    def __init__(self, ws_url):
        self.ws = websocket.create_connection(ws_url, timeout=30, suppress_origin=True)
        self.next_id = 0
        self.events = []
        self.session = None
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]

    def call(self, method, browser=False, **params):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params}
        if self.session and not browser:
            msg["sessionId"] = self.session
        self.ws.send(json.dumps(msg))
        while True:
            m = json.loads(self.ws.recv())
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def js(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def wait(self, expr, timeout=20):
        """Polls EXPR until it is truthy; returns its value (None on timeout)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            v = self.js(expr)
            if v:
                return v
            time.sleep(0.1)
        return None

    def pump(self, seconds):
        """Reads events for up to SECONDS."""
        self.ws.settimeout(0.2)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                self.events.append(json.loads(self.ws.recv()))
            except websocket.WebSocketTimeoutException:
                pass
        self.ws.settimeout(30)


def main():
    if not CHROMIUM or not websocket:
        print("chromium or python3-websocket is not installed: skipping the browser test "
              "(apt-get install chromium python3-websocket, or make deps)")
        return 0
    tmp = tempfile.mkdtemp(prefix="serve-browser-")
    env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")
    server = subprocess.Popen([CB, "serve", "--listen", "127.0.0.1:0"], stderr=subprocess.PIPE,
                              text=True, env=env)
    browser = None
    try:
        line = server.stderr.readline()
        port = int(re.search(r"127\.0\.0\.1:(\d+)/", line).group(1))
        base = f"http://127.0.0.1:{port}"
        browser = subprocess.Popen(
            [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-extensions", "--disable-background-networking", "--disable-sync",
             "--remote-debugging-port=0", "--remote-allow-origins=*",
             f"--user-data-dir={tmp}/profile", "about:blank"],
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        ws_url = None
        end = time.monotonic() + 30
        while time.monotonic() < end and not ws_url:
            out = browser.stderr.readline()
            m = re.search(r"DevTools listening on (ws://\S+)", out)
            ws_url = m.group(1) if m else None
            if not out and browser.poll() is not None:
                break
        if not ws_url:
            raise SystemExit("chromium did not start")
        dt = DevTools(ws_url)
        dl = os.path.join(tmp, "downloads")
        os.mkdir(dl)
        dt.call("Browser.setDownloadBehavior", browser=True, behavior="allow", downloadPath=dl,
                eventsEnabled=True)
        dt.call("Network.enable")
        dt.call("Page.enable")
        dt.call("Emulation.setDeviceMetricsOverride", width=1200, height=900,
                deviceScaleFactor=1, mobile=False)
        dt.call("Page.navigate", url=f"{base}/?seed=browser+test&players=4")

        n = dt.wait("document.querySelectorAll('#sheets img').length === 4 && "
                    "[...document.querySelectorAll('#sheets img')].every(i => i.complete && "
                    "i.naturalWidth > 0) && document.querySelectorAll('#sheets img').length")
        report(n == 4, "the page shows 4 sheets for 4 players", n)
        status = dt.js("document.getElementById('status').textContent")
        report("4 sheets" in status and "browser test" in status, "it states the seed", status)
        report(dt.js("document.getElementById('seedshown').textContent") == "browser test",
               "the seed is shown")
        rules = dt.js("document.getElementById('rulestext').textContent")
        report(rules and "Setup" in rules, "the rules are previewed", (rules or "")[:80])
        unlabelled = dt.js("[...document.querySelectorAll('input, select')]"
                           ".filter(e => !e.labels || e.labels.length === 0).map(e => e.id)")
        report(unlabelled == [], "every control has a label", unlabelled)
        themes = dt.js("[...document.getElementById('theme').options].map(o => o.value)")
        report("default" in themes, "the theme list comes from /api/themes", themes)
        first = dt.js("[...document.querySelectorAll('#sheets img')].map(i => i.src)")

        # Players 4 -> 3 with the keyboard: focus the field, select it, type 3.
        dt.js("document.getElementById('players').focus(); document.getElementById('players').select()")
        dt.call("Input.insertText", text="3")
        n = dt.wait("document.querySelectorAll('#sheets img').length === 3 && "
                    "[...document.querySelectorAll('#sheets img')].every(i => i.complete && "
                    "i.naturalWidth > 0) && 3")
        now = dt.js("[...document.querySelectorAll('#sheets img')].map(i => i.src)")
        report(n == 3 and not set(now) & set(first), "players 3: the preview changes to 3 sheets",
               n)
        report(dt.js("location.search").find("players=3") >= 0, "the page's URL keeps the options",
               dt.js("location.search"))
        if SHOT:
            png = dt.call("Page.captureScreenshot", format="png")["data"]
            with open(SHOT, "wb") as f:
                f.write(base64.b64decode(png))
            report(os.path.getsize(SHOT) > 20000, f"screenshot {SHOT}")

        # Players 12: the page says what is wrong in its own words (the
        # form's label, not the CLI's --players) and marks the sheets it
        # still shows as out of date; 3 again clears both.
        dt.js("document.getElementById('players').focus(); document.getElementById('players').select()")
        dt.call("Input.insertText", text="12")
        status = dt.wait("document.getElementById('status').className === 'error' && "
                         "document.getElementById('status').textContent")
        report(status and status.startswith("Players: ") and "--players" not in status,
               "players 12: the error names the field as the form does", status)
        report(dt.js("document.getElementById('sheets').classList.contains('stale') && "
                     "getComputedStyle(document.querySelector('#sheets img')).opacity < 0.5"),
               "the previews of the options before are marked out of date")
        if SHOT:
            png = dt.call("Page.captureScreenshot", format="png")["data"]
            bad = re.sub(r"(\.png)?$", "-error.png", SHOT, count=1)
            with open(bad, "wb") as f:
                f.write(base64.b64decode(png))
        dt.js("document.getElementById('players').focus(); document.getElementById('players').select()")
        dt.call("Input.insertText", text="3")
        ok = dt.wait("document.getElementById('status').className === '' && "
                     "!document.getElementById('sheets').classList.contains('stale') && "
                     "document.querySelectorAll('#sheets img').length === 3")
        report(ok, "players 3 again: the mark goes, 3 sheets")

        # Download PDF, as a click on the link.
        dt.js("document.getElementById('pdf').click()")
        done = None
        end = time.monotonic() + 30
        while time.monotonic() < end and not done:
            dt.pump(0.3)
            for e in dt.events:
                if e.get("method") == "Browser.downloadProgress" and \
                        e["params"].get("state") == "completed":
                    done = e
        files = os.listdir(dl)
        report(done and len(files) == 1 and files[0].endswith(".pdf"), "the PDF is downloaded",
               files)
        if files:
            path = os.path.join(dl, files[0])
            info = subprocess.run(["pdfinfo", path], capture_output=True, text=True).stdout
            pages = re.search(r"Pages:\s+(\d+)", info)
            report(pages and pages.group(1) == "4", "pdfinfo: 3 sheets + the rules page",
                   info[:200])
            ref = subprocess.run([CB, "--seed", "browser test", "--players", "3", "-o", "-"],
                                 capture_output=True, env=env).stdout
            report(open(path, "rb").read() == ref, "the download is the CLI's PDF, byte for byte")

        urls = [e["params"]["request"]["url"] for e in dt.events
                if e.get("method") == "Network.requestWillBeSent"]
        away = [u for u in urls if not (u.startswith(base + "/") or u.startswith("blob:" + base + "/")
                                        or u.startswith("data:"))]
        report(len(urls) >= 4 and not away, f"no request leaves the server ({len(urls)} made)",
               away)
        dt.ws.close()
    finally:
        if browser and browser.poll() is None:
            browser.terminate()
            try:
                browser.wait(timeout=10)
            except subprocess.TimeoutExpired:
                browser.kill()
                browser.wait()
        if browser:
            browser.stderr.close()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        server.stderr.close()
        shutil.rmtree(tmp, ignore_errors=True)
    report(server.returncode == 0, "the server stops with exit 0")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
