#!/usr/bin/env python3
"""Issue 29's speed rows: the CPU the playtest's agents take a game, as `cutboard
playtest` processes (one job, --no-influence, fixed seeds): thinking agents
at 2, 4 and 9 players, greedy ones at 4, printed as games per CPU second
(user + system of the child, from the kernel's accounting). Every game
makes its boards first; the last row plays greedy games on one board file
made beforehand, the engine and the agents alone.

With BENCH_BASE=/path/to/an/earlier/cutboard, each row is measured for both
builds, runs alternating (base, this, base, this ...), their ratio is
printed, and so is whether the two builds' reports (--json) are byte for
byte the same: the engine's speedups keep every decision and every
random draw. Runs: BENCH_AGENT_RUNS (default 3); the median is printed.
Usage: bench_agents.py CUTBOARD."""
import os
import subprocess
import sys
import tempfile

from bench_one_game import cpu_ms, median

CB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./cutboard")
BASE = os.environ.get("BENCH_BASE")
RUNS = max(1, int(os.environ.get("BENCH_AGENT_RUNS", "3")))

# label, games a run, playtest options
ROWS = [
    ("thinking, 2 players", 8, ["--agents", "thinking", "-p", "2"]),
    ("thinking, 4 players", 4, ["--agents", "thinking", "-p", "4"]),
    ("thinking, 9 players", 1, ["--agents", "thinking", "-p", "9"]),
    ("greedy, 4 players", 400, ["--agents", "greedy", "-p", "4"]),
    ("greedy, 4 players, one board file", 2000, ["--agents", "greedy", "BOARD"]),
]


def run(cb, games, opts, seed, out):
    """CPU seconds of one playtest process writing its report to OUT."""
    argv = [cb, "playtest", "-n", str(games), "--no-influence", "--seed", seed,
            "--json", out] + opts
    ms, code = cpu_ms(argv, os.getcwd())
    if code != 0:
        raise SystemExit(f"bench_agents: {' '.join(argv)} failed")
    return ms / 1000


def main():
    builds = [("this", CB)] + ([("base", os.path.abspath(BASE))] if BASE else [])
    print(f"\nPlaytest agents: games per CPU second, one job, --no-influence, median of {RUNS}"
          + (f", paired with {BASE}" if BASE else ""))
    print("\n| agents | games a run | this build | base | this / base | same report |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        board = os.path.join(tmp, "board.json")
        made = subprocess.run([CB, "--players", "4", "--seed", "bench agents", "--json", board,
                               "-o", os.path.join(tmp, "board.pdf")], capture_output=True)
        if made.returncode != 0:
            raise SystemExit("bench_agents: the board file was not made")
        for label, games, opts in ROWS:
            opts = [board if o == "BOARD" else o for o in opts]
            cpu = {name: [] for name, _ in builds}
            same = True
            for k in range(RUNS):
                seed = f"bench agents {k}"
                reports = {}
                for name, cb in reversed(builds):
                    out = os.path.join(tmp, f"{name}.json")
                    cpu[name].append(run(cb, games, opts, seed, out))
                    reports[name] = open(out, "rb").read()
                if BASE:
                    same &= reports["this"] == reports["base"]
            me = games / median(cpu["this"])
            if BASE:
                base = games / median(cpu["base"])
                cols = f"{base:.2f}/s | {me / base:.2f}x | {'yes' if same else 'NO'}"
            else:
                cols = "- | - | -"
            print(f"| {label} | {games} | {me:.2f}/s | {cols} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
