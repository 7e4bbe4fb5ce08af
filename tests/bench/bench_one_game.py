#!/usr/bin/env python3
"""Issue 33's rows for one game as a user makes it: the CPU time (user +
system, from the kernel's accounting of the child) of a `cutboard game
--players 4` process writing one A4 game, and the size of that PDF, each
beside its floor:

  - CPU: the floor is a cutboard process that starts and exits (`cutboard
    check` of a missing file: process start, dynamic linking), and the
    same game's share of a deck made in one process (the game without the
    per-document costs); measured with the user's icon cache folder (a run
    before fills it) and without one (CUTBOARD_CACHE=off);
  - size: the floor is the same PDF without its icon images (what the
    boards, the rules and the font take);
  - a 1M-node poster (4000 x 2830 mm) as a PDF with its board file
    (--json) against without: the CPU ratio, median of 3 (left out with
    BENCH_QUICK=1).

With BENCH_BASE=/path/to/an/earlier/cutboard, each row is measured for both
builds, runs alternating (base, this, base, this ...), and their ratio is
printed. Runs: BENCH_RUNS (default 21); the median is printed.
Usage: bench_one_game.py CUTBOARD."""
import os
import re
import subprocess
import sys
import tempfile

CB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./cutboard")
BASE = os.environ.get("BENCH_BASE")
RUNS = max(5, int(os.environ.get("BENCH_RUNS", "21")))
DECK = 50


def cpu_ms(argv, cwd, env=None):
    """CPU time of one child process running ARGV (with ENV added), in ms."""
    pid = os.fork()
    if pid == 0:
        try:
            os.chdir(cwd)
            os.environ.update(env or {})
            fd = os.open(os.devnull, os.O_WRONLY)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return (ru.ru_utime + ru.ru_stime) * 1000, code


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def image_bytes(pdf):
    """Bytes of the PDF's image objects (icons and their masks)."""
    offs = [m.start() for m in re.finditer(rb"(?m)^\d+ 0 obj", pdf)] + [pdf.rfind(b"xref")]
    return sum(b - a for a, b in zip(offs, offs[1:]) if b"/Subtype /Image" in pdf[a:b])


def measure(cb, tmp, k):
    """One run of each workload with binary CB: a dict of figures."""
    out = os.path.join(tmp, "game.pdf")
    argv = [cb, "game", "--players", "4", "--seed", f"one game {k}", "-o", out]
    game, rc1 = cpu_ms(argv, tmp)
    cold, _ = cpu_ms(argv, tmp, {"CUTBOARD_CACHE": "off"})
    start, _ = cpu_ms([cb, "check", os.path.join(tmp, "missing.json")], tmp)
    deck, rc2 = cpu_ms([cb, "deck", "--players", "4", "--count", str(DECK), "--seed",
                        f"one game {k}", "-o", os.path.join(tmp, "deck.pdf")], tmp)
    if rc1 != 0 or rc2 != 0:
        raise SystemExit(f"bench_one_game: {cb} failed (exit {rc1}, {rc2})")
    pdf = open(out, "rb").read()
    return {"game": game, "cold": cold, "start": start, "deck": deck / DECK, "size": len(pdf),
            "no_icons": len(pdf) - image_bytes(pdf)}


POSTER = ["--shared", "--paper", "4000x2830mm", "--margin", "15", "--resolution", "1190.7"]


def poster(cb, tmp, k):
    """A 1M-node poster as a PDF, without and with its board file (--json):
    the CPU ms of each."""
    argv = [cb] + POSTER + ["--seed", f"poster {k}", "-o", os.path.join(tmp, "p.pdf")]
    plain, rc1 = cpu_ms(argv, tmp)
    json, rc2 = cpu_ms(argv + ["--json", os.path.join(tmp, "p.json")], tmp)
    if rc1 != 0 or rc2 != 0:
        raise SystemExit(f"bench_one_game: {cb} failed on the poster (exit {rc1}, {rc2})")
    return plain, json


def main():
    builds = [("this build", CB)] + ([("base", os.path.abspath(BASE))] if BASE else [])
    runs = {name: [] for name, _ in builds}
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(RUNS):
            for name, cb in reversed(builds):
                runs[name].append(measure(cb, tmp, k))
    fig = {name: {key: median([r[key] for r in rs]) for key in rs[0]} for name, rs in runs.items()}
    me = fig["this build"]
    rows = [
        ("one 4-player A4 game, CLI process, CPU", f"{me['game']:.1f} ms", "game",
         f"process start {me['start']:.1f} ms; the game in a deck {me['deck']:.1f} ms",
         "<= 10 ms", me["game"] <= 10),
        ("the same, no icon cache on disk (CUTBOARD_CACHE=off)", f"{me['cold']:.1f} ms", "cold",
         "as above", "-", True),
        ("one-game PDF size", f"{me['size'] / 1000:.1f} KB", "size",
         f"without its icons {me['no_icons'] / 1000:.1f} KB", "<= 120 KB", me["size"] <= 120e3),
    ]
    quick = os.environ.get("BENCH_QUICK") == "1"
    ratios = {name: [] for name, _ in builds}
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(0 if quick else 3):
            for name, cb in reversed(builds):
                plain, json = poster(cb, tmp, k)
                ratios[name].append(json / plain)
    if not quick:
        r = median(ratios["this build"])
        rows.append(("1M-node poster, --json against without (CPU)", f"{r:.2f}x", "ratio",
                     "1.00x (no board file)", "<= 1.3x", r <= 1.3))
        fig["this build"]["ratio"] = r
        if BASE:
            fig["base"]["ratio"] = median(ratios["base"])
    print(f"\nOne game as a user makes it: `cutboard game --players 4 -o game.pdf`, "
          f"A4, median of {RUNS} processes" + (f", paired with {BASE}" if BASE else ""))
    print("\n| workload | this build | floor | base | base / this | target | ok |")
    print("| --- | ---: | --- | ---: | ---: | --- | --- |")
    for label, value, key, floor, target, ok in rows:
        if BASE:
            b = fig["base"][key]
            base = (f"{b / 1000:.1f} KB" if key == "size" else f"{b:.2f}x" if key == "ratio"
                    else f"{b:.1f} ms")
            ratio = f"{b / me[key]:.2f}x"
        else:
            base = ratio = "-"
        print(f"| {label} | {value} | {floor} | {base} | {ratio} | {target} | "
              f"{'-' if target == '-' else 'yes' if ok else 'NO'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
