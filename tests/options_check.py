#!/usr/bin/env python3
"""Option ranges are true: a request is met, or refused with a value that works.

usage: options_check.py CUTBOARD

Tries papers (named and custom), margins, resolutions and node caps across
and beyond their ranges. Each request either writes a game whose board file
`cutboard check` passes, or is refused at once with exit 64 and one line
naming the option and a value; that value, put in place of the one refused
(or added), must then make a game that passes. Never exit 70, never a
written board that fails its check. Exits 1 on the first broken promise.
"""
import os
import re
import subprocess
import sys
import tempfile

CUTBOARD = os.path.abspath(sys.argv[1])


def requests():
    for w in (120, 150, 180, 210, 250, 300, 400, 500):
        for h in (100, 140, 180, 220):
            yield ["--paper", f"{w}x{h}mm"]
    for paper in ("a5", "a4", "letter", "a3", "legal"):
        for m in ("5", "9", "20", "30", "40", "50"):
            yield ["--paper", paper, "--margin", m]
        for r in ("4", "7", "9", "10", "12", "14", "16", "17", "20", "22", "95", "120", "200"):
            yield ["--paper", paper, "--resolution", r]
        yield ["--paper", paper, "--node-cap", "3"]
        yield ["--paper", paper, "--portrait", "--margin", "45"]


def run(tmp, args):
    """0 when the game is written and passes its check; else (exit, message)."""
    pdf, board = os.path.join(tmp, "o.pdf"), os.path.join(tmp, "o.json")
    r = subprocess.run([CUTBOARD, "--seed", "ranges", *args, "-o", pdf, "--json", board,
                        "--rules", "none"], capture_output=True, text=True)
    if r.returncode != 0:
        if os.path.exists(pdf):
            return r.returncode, "a file was left behind: " + r.stderr.strip()
        return r.returncode, r.stderr.strip()
    caps = [a for i, a in enumerate(args) if a == "--node-cap" or
            (i > 0 and args[i - 1] == "--node-cap")]
    c = subprocess.run([CUTBOARD, "check", *caps, board], capture_output=True, text=True)
    os.remove(pdf)
    return 0 if c.returncode == 0 else ("check", c.stdout.splitlines()[0])


def suggestion(msg):
    """The option and value a refusal names as working, or None."""
    paper = re.search(r"\((\d+x\d+mm)\)", msg)
    if paper:
        return "--paper", paper.group(1)
    if "(a5 or larger)" in msg:
        return "--paper", "a5"
    m = re.match(r"cutboard: --(margin|resolution|node-cap): .*?([0-9.]+)(?: mm)? works", msg) \
        or re.match(r"cutboard: --(margin): .*\(at least ([0-9.]+) mm\)", msg)
    return ("--" + m.group(1), m.group(2)) if m else None


def main():
    bad = tried = met = 0
    with tempfile.TemporaryDirectory() as tmp:
        for args in requests():
            got = run(tmp, args)
            if got == 0:
                met += 1
                continue
            what = " ".join(args)
            if got[0] != 64 or "\n" in got[1]:
                print(f"FAIL {what}: {got}")
                bad += 1
                continue
            fix = suggestion(got[1])
            if not fix:
                print(f"FAIL {what}: refused with no value that works: {got[1]}")
                bad += 1
                continue
            again = list(args)
            if fix[0] in again:
                again[again.index(fix[0]) + 1] = fix[1]
            else:
                again += list(fix)
            tried += 1
            if run(tmp, again) != 0:
                print(f"FAIL {what}: {got[1]}\n  but {' '.join(again)}: {run(tmp, again)}")
                bad += 1
    print(f"options_check: {met} requests met, {tried} refused with a value that works"
          f"{'' if not bad else f', {bad} broken'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
