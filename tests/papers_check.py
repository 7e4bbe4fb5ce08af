#!/usr/bin/env python3
"""Every paper the help offers makes a board a person can cut, at the defaults.

usage: papers_check.py CUTBOARD [--all | --sample] [--report]

For every paper in `cutboard --help` (a5..a0, letter, legal, tabloid,
sra4..sra2), landscape and portrait, own sheets and shared, 2..9 players:
writes the game with a seed of its own (one seed a combination; --all: the
same with a second seed; --sample: each paper at 2..9 players once, the
orientation and sharing turning with the player count, a quarter of the
games, for the slow sanitizer build), then holds every sheet to
`cutboard check`'s verdict and, computed here from the board file alone
(tests/scissors.py), to the scissors clauses: pieces >= 120 mm^2, edges
visible >= 3 mm between their nodes' rims, dots >= 1 mm of paper from any
printed line. --report prints, per paper, the smallest piece, the
shortest visible edge and the least dot clearance. Exits 1 on the first
combination that fails.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scissors  # noqa: E402

PAPERS = ["a5", "a4", "a3", "a2", "a1", "a0", "letter", "legal", "tabloid",
          "sra4", "sra3", "sra2"]


def main():
    cutboard = os.path.abspath(sys.argv[1])
    seeds = ["paper walk"] + (["paper walk 2"] if "--all" in sys.argv else [])
    sample = "--sample" in sys.argv
    report = "--report" in sys.argv
    listed = subprocess.run([cutboard, "--help"], capture_output=True, text=True).stdout
    # the help's list: "a4 (default), letter, a3, tabloid, a5..a0, legal, sra4.. sra2"
    for name in ("a4", "letter", "a3", "tabloid", "a5..a0", "legal", "sra4"):
        assert name in listed, f"--help no longer lists {name}: update PAPERS"
    figures = {}
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        out, board = os.path.join(tmp, "g.pdf"), os.path.join(tmp, "g.json")
        games = 0
        for i, paper in enumerate(PAPERS):
            for portrait in ([], ["--portrait"]):
                for shared in ([], ["--shared"]):
                    for players in range(2, 10):
                        turn = (i + players) % 4
                        if sample and turn != 2 * bool(portrait) + bool(shared):
                            continue
                        for seed in seeds:
                            games += 1
                            opts = ["--paper", paper, *portrait, *shared, "--players",
                                    str(players), "--seed", f"{seed} {paper}{players}"]
                            what = " ".join(opts)
                            r = subprocess.run([cutboard, *opts, "-o", out, "--json", board,
                                                "--rules", "none"], capture_output=True,
                                               text=True)
                            if r.returncode != 0:
                                print(f"FAIL {what}: exit {r.returncode}: {r.stderr.strip()}")
                                failed += 1
                                continue
                            c = subprocess.run([cutboard, "check", board], capture_output=True,
                                               text=True)
                            sheets = json.load(open(board))["sheets"]
                            verdicts = c.stdout.count("meets the contract")
                            if c.returncode != 0 or verdicts != len(sheets):
                                print(f"FAIL {what}: cutboard check: "
                                      f"{c.stdout.splitlines()[0] if c.stdout else c.stderr}")
                                failed += 1
                            for k, sheet in enumerate(sheets):
                                bad = scissors.failures(sheet)
                                if bad:
                                    print(f"FAIL {what} sheet {k + 1}: {'; '.join(bad)}")
                                    failed += 1
                                piece, visible, paper_mm = scissors.figures(sheet)
                                f = figures.setdefault(paper, [float("inf")] * 3)
                                f[0] = min(f[0], piece)
                                f[1] = min(f[1], visible)
                                if paper_mm is not None:
                                    f[2] = min(f[2], paper_mm)
    if report:
        print("paper     smallest piece  shortest visible edge  least dot paper")
        for paper in PAPERS:
            f = figures.get(paper)
            if f:
                print(f"{paper:8s} {f[0]:10.1f} mm^2 {f[1]:14.2f} mm {f[2]:15.2f} mm")
    if failed:
        print(f"papers_check: {failed} failures")
        return 1
    print(f"papers_check: {games} games on every paper, every sheet checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
