#!/usr/bin/env python3
"""Outputs under hostile conditions, run the way a user runs cutboard: every
write checked (standard output included), every collision of two outputs or
of an output and an input refused after per-sheet and per-game names are
expanded, any name the file system accepts usable as an output, a write
blocked on a FIFO or a stalled pipe still stopped by SIGINT/SIGTERM with
nothing committed, input text escaped before it reaches a terminal, and the
same bytes whatever the cache folder holds (icons and the font's program).
Each case prints ok/FAIL; the exit status is 1 if any failed.
Usage: outputs_check.py CUTBOARD"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

CB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "cutboard")
failed = passed = 0


def report(name, ok, detail=""):
    global failed, passed
    passed += ok
    failed += not ok
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else "\n  " + detail))


def run(args, cwd, stdout=subprocess.DEVNULL, **kw):
    return subprocess.run([CB] + args, cwd=cwd, stdout=stdout, stderr=subprocess.PIPE,
                          timeout=120, **kw)


def files(cwd):
    """Every file under CWD, hidden ones included, as relative paths."""
    out = []
    for root, _, names in os.walk(cwd):
        out += [os.path.relpath(os.path.join(root, n), cwd) for n in names]
    return sorted(out)


def one_line(r):
    return r.stderr.decode(errors="replace").count("\n") == 1


def refused(name, args, code, want_files, cwd, msg_part):
    before = {f: open(os.path.join(cwd, f), "rb").read() for f in files(cwd)}
    r = run(args, cwd)
    after = {f: open(os.path.join(cwd, f), "rb").read() for f in files(cwd)}
    err = r.stderr.decode(errors="replace")
    ok = r.returncode == code and one_line(r) and msg_part in err and after == before
    report(name, ok, f"exit {r.returncode}, stderr {err!r}, files now {sorted(after)} "
           f"(were {sorted(before)})")


def stdout_checked(w):
    run(["--seed", "x", "--players", "2", "-o", "g.pdf", "--json", "b.json"], w)
    edge = json.load(open(os.path.join(w, "b.json")))["sheets"][0]["edges"][0]
    for name, args in [("check", ["check", "b.json"]),
                       ("cut", ["cut", "b.json", "--path", f"{edge[0]},{edge[1]}"])]:
        with open("/dev/full", "wb") as full:
            r = run(args, w, stdout=full)
        report(f"{name} > /dev/full: exit 74, one line", r.returncode == 74 and one_line(r)
               and b"standard output" in r.stderr, f"exit {r.returncode}, {r.stderr!r}")
        r = subprocess.run(["sh", "-c", f'"{CB}" "$@" >&-', "sh"] + args, cwd=w,
                           stderr=subprocess.PIPE, timeout=60)
        report(f"{name} >&-: exit 74, one line", r.returncode == 74 and one_line(r),
               f"exit {r.returncode}, {r.stderr!r}")
    # nothing to standard output: a closed one is no failure
    r = subprocess.run(["sh", "-c", f'"{CB}" --seed x --players 2 -o q.pdf >&-'], cwd=w,
                       stderr=subprocess.PIPE, timeout=60)
    report("game -o FILE >&-: exit 0", r.returncode == 0, f"exit {r.returncode}, {r.stderr!r}")


def collisions(w):
    for f in os.listdir(w):
        os.remove(os.path.join(w, f))
    refused("-o g.svg --json g-1.svg refused (sheet 1's SVG)",
            ["--seed", "x", "--players", "2", "-o", "g.svg", "--json", "g-1.svg"], 64, [], w,
            "g-1.svg")
    refused("-o g.pdf --obj g.obj --json g-2.obj refused (sheet 2's OBJ)",
            ["--seed", "x", "--players", "2", "-o", "g.pdf", "--obj", "g.obj", "--json",
             "g-2.obj"], 64, [], w, "g-2.obj")
    refused("deck --out-dir dd --manifest dd/game-00001.pdf refused",
            ["deck", "--count", "2", "--seed", "s", "--out-dir", "dd", "--manifest",
             "dd/game-00001.pdf"], 64, [], w, "game-00001.pdf")
    report("  ... and dd not left behind", not os.path.exists(os.path.join(w, "dd")))
    run(["deck", "--count", "2", "--seed", "s", "--shard", "1/2", "--manifest", "c.jsonl",
         "-o", "c.pdf"], w)
    run(["deck", "--count", "2", "--seed", "s", "--shard", "2/2", "--manifest", "m1.jsonl",
         "-o", "m1.pdf"], w)
    refused("deck merge c.jsonl m1.jsonl -o ./c.jsonl refused (its own input)",
            ["deck", "merge", "c.jsonl", "m1.jsonl", "-o", "./c.jsonl"], 64, [], w, "c.jsonl")
    run(["--seed", "x", "--players", "2", "-o", "h.pdf", "--json", "h-1.obj"], w)
    refused("render h-1.obj (a two-sheet board file) --obj h.obj refused (sheet 1's OBJ is "
            "the input)", ["render", "h-1.obj", "-o", "r.pdf", "--obj", "h.obj"], 64, [], w,
            "h-1.obj")


def long_names(w):
    for n in (249, 255):
        pdf, js = "p" * (n - 4) + ".pdf", "j" * (n - 5) + ".json"
        r = run(["--seed", "x", "--players", "2", "-o", pdf, "--json", js], w)
        ok = r.returncode == 0 and os.path.getsize(os.path.join(w, pdf)) > 1000 and \
            os.path.getsize(os.path.join(w, js)) > 100
        r2 = run(["--seed", "y", "--players", "2", "-o", pdf, "--json", js], w)  # replaces
        left = [f for f in os.listdir(w) if f.startswith(".")]
        report(f"outputs named with {n} characters written and replaced",
               ok and r2.returncode == 0 and not left,
               f"exit {r.returncode}/{r2.returncode}, {r.stderr!r}, hidden left {left}")
        os.remove(os.path.join(w, pdf))
        os.remove(os.path.join(w, js))


def interruptible():
    """SIGINT as at a terminal: a shell starts background jobs with it
    ignored, and cutboard keeps an ignored SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def blocked_writes(w):
    for f in os.listdir(w):
        os.remove(os.path.join(w, f))
    os.mkfifo(os.path.join(w, "f"))
    for sig in (signal.SIGTERM, signal.SIGINT):
        p = subprocess.Popen([CB, "--seed", "x", "-o", "f", "--json", "b.json"], cwd=w,
                             stderr=subprocess.DEVNULL, preexec_fn=interruptible)
        time.sleep(1.0)  # blocked opening the FIFO: nobody reads it
        p.send_signal(sig)
        try:
            rc = p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            rc = "still running"
        report(f"-o FIFO with no reader stopped by {sig.name}, nothing committed",
               rc == -sig and files(w) == ["f"], f"exit {rc}, files {files(w)}")
    # a stalled pipe: the reader never reads
    r_fd, w_fd = os.pipe()
    p = subprocess.Popen([CB, "--seed", "x", "-o", "-", "--json", "b.json"], cwd=w,
                         stdout=w_fd, stderr=subprocess.DEVNULL, preexec_fn=interruptible)
    os.close(w_fd)
    time.sleep(1.5)  # the PDF (> 64 KiB) fills the pipe
    p.send_signal(signal.SIGINT)
    try:
        rc = p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = "still running"
    os.close(r_fd)
    report("-o - into a stalled pipe stopped by SIGINT, --json not committed",
           rc == -signal.SIGINT and files(w) == ["f"], f"exit {rc}, files {files(w)}")


def deck_blocked(w):
    """deck has its own SIGINT/SIGTERM handler (it keeps the games made):
    a write blocked on a FIFO must still stop at the first signal."""
    for f in os.listdir(w):
        os.remove(os.path.join(w, f))
    fifo = os.path.join(w, "d.pdf")
    os.mkfifo(fifo)
    for stalled in (False, True):
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK) if stalled else None
        p = subprocess.Popen([CB, "deck", "--count", "40", "--seed", "s", "-o", "d.pdf",
                              "--manifest", "m.jsonl"], cwd=w, stderr=subprocess.PIPE)
        time.sleep(2.0)  # no reader: blocked opening; a stalled one: the pipe is full
        p.send_signal(signal.SIGTERM)
        try:
            rc = p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            rc = "still running"
        err = p.stderr.read().decode(errors="replace")
        if reader is not None:
            os.close(reader)
        report(f"deck -o FIFO ({'a reader that never reads' if stalled else 'no reader'}) "
               "stopped by one SIGTERM, nothing committed",
               rc == 128 + signal.SIGTERM and "stopped by SIGTERM" in err and
               files(w) == ["d.pdf"], f"exit {rc}, {err!r}, files {files(w)}")


def escaped(w):
    run(["--seed", "x", "--players", "2", "-o", "g.pdf", "--json", "b.json"], w)
    d = json.load(open(os.path.join(w, "b.json")))
    d["sheets"][0]["seed"] = "\x1b]0;pwned\x07\x1b[2J\u009b"
    json.dump(d, open(os.path.join(w, "e.json"), "w"))
    r = run(["check", "e.json"], w, stdout=subprocess.PIPE)
    raw = r.stdout + r.stderr
    report("check prints a seed's terminal escapes escaped",
           b"\x1b" not in raw and b"\x07" not in raw and b"\xc2\x9b" not in raw and
           b"\\x1b]0;pwned\\x07" in r.stdout, repr(r.stdout[:200]))
    r = run(["check", "bad\udcff\x1b[2J.json"], w)  # the byte 0xff
    report("an error line escapes a name's bytes that are not UTF-8 and its escapes",
           b"\xff" not in r.stderr and b"\x1b" not in r.stderr and b"\\xff\\x1b[2J" in r.stderr,
           repr(r.stderr))


def cached(w):
    """The same PDF with no cache folder, an empty one, a filled one, and one
    whose files were damaged; a damaged file is made again."""
    cache = os.path.join(w, "cache")
    outs = []
    for i, where in enumerate(["off", cache, cache, "damaged", cache]):
        if where == "damaged":
            for name in os.listdir(cache):
                with open(os.path.join(cache, name), "r+b") as f:
                    f.seek(20)
                    f.write(b"x")
            where = cache
        env = dict(os.environ, CUTBOARD_CACHE=where)
        r = run(["--seed", "cache ä", "-o", f"c{i}.pdf"], w, env=env)
        outs.append(open(os.path.join(w, f"c{i}.pdf"), "rb").read() if r.returncode == 0 else b"")
    kinds = sorted({n.rsplit(".", 1)[-1] for n in os.listdir(cache)})
    report("the same PDF without a cache folder, with it empty, filled and damaged",
           outs[0] != b"" and all(o == outs[0] for o in outs), f"{[len(o) for o in outs]}")
    report("the cache folder holds the icons and the font's program", "font1" in kinds and
           "icon" in kinds, f"{kinds}")


def main():
    with tempfile.TemporaryDirectory() as w:
        cached(w)
    with tempfile.TemporaryDirectory() as w:
        stdout_checked(w)
    with tempfile.TemporaryDirectory() as w:
        collisions(w)
    with tempfile.TemporaryDirectory() as w:
        long_names(w)
    with tempfile.TemporaryDirectory() as w:
        blocked_writes(w)
    with tempfile.TemporaryDirectory() as w:
        deck_blocked(w)
    with tempfile.TemporaryDirectory() as w:
        escaped(w)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)


main()
