#!/usr/bin/env python3
"""Times igraph's C core building the same models bench_network.c times.

usage: bench_igraph.py RUNS
Prints one line per model: "<model> <median milliseconds of CPU time>". The
parameters match bench_network.c and bench_networkx.py: n = 100,000
(complete: 2,000), ring k = 4 (a circular lattice with 2 neighbours each
side), regular k = 3, random G(n, m) with m = 1.5 n and G(n, p) with
p = 3 / (n - 1), small-world k = 4 p = 0.1, scale-free m = 2 (the default
psumtree method: no repeated links, as ours). Anchored has no igraph
generator: a random tree (Tree_Game) joined with G(n, n/2), a handful of
links short of 1.5 n where the two overlap.

igraph draws from Python's random module unless told otherwise; here it
uses its own generator in C (set_random_number_generator(None)), so the
figures are igraph's C code, not callbacks into Python.
"""
import statistics
import sys
import time

import igraph as ig

N = 100_000

MODELS = [
    ("linear", lambda: ig.Graph.Lattice([N], circular=False)),
    ("ring", lambda: ig.Graph.Lattice([N], nei=2, circular=True)),
    ("regular", lambda: ig.Graph.K_Regular(N, 3)),
    ("complete", lambda: ig.Graph.Full(2000)),
    ("random", lambda: ig.Graph.Erdos_Renyi(n=N, m=3 * N // 2)),
    ("random-p", lambda: ig.Graph.Erdos_Renyi(n=N, p=3.0 / (N - 1))),
    ("anchored", lambda: ig.Graph.Tree_Game(N).union(ig.Graph.Erdos_Renyi(n=N, m=N // 2))),
    ("small-world", lambda: ig.Graph.Watts_Strogatz(1, N, 2, 0.1)),
    ("scale-free", lambda: ig.Graph.Barabasi(N, 2)),
]


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    ig.set_random_number_generator(None)
    for name, make in MODELS:
        times = []
        for _ in range(runs):
            t = time.process_time()
            make()
            times.append((time.process_time() - t) * 1000)
        print(name, f"{statistics.median(times):.3f}", flush=True)


if __name__ == "__main__":
    main()
