#!/usr/bin/env python3
"""Times NetworkX building the same models bench_network.c times.

usage: bench_networkx.py RUNS
Prints one line per model: "<model> <median milliseconds of CPU time>". The parameters
match bench_network.c: n = 100,000 (complete: 2,000), ring k = 4, regular
k = 3, random G(n, m) with m = 1.5 n, anchored = a random labelled tree plus
uniform random links up to 1.5 n (NetworkX has no such generator: composed
here from its parts), small-world k = 4 p = 0.1, scale-free m = 2.
"""
import random
import statistics
import sys
import time

import networkx as nx

N = 100_000


def anchored(n, links, seed):
    rng = random.Random(seed)
    g = nx.random_labeled_tree(n, seed=seed)
    m = n - 1  # g.number_of_edges() is O(n) per call: count here
    while m < links:
        a, b = rng.randrange(n), rng.randrange(n)
        if a != b and not g.has_edge(a, b):
            g.add_edge(a, b)
            m += 1
    return g


MODELS = [
    ("linear", lambda s: nx.path_graph(N)),
    ("ring", lambda s: nx.circulant_graph(N, [1, 2])),
    ("regular", lambda s: nx.random_regular_graph(3, N, seed=s)),
    ("complete", lambda s: nx.complete_graph(2000)),
    ("random", lambda s: nx.gnm_random_graph(N, 3 * N // 2, seed=s)),
    ("random-p", lambda s: nx.fast_gnp_random_graph(N, 3.0 / (N - 1), seed=s)),
    ("anchored", lambda s: anchored(N, 3 * N // 2, s)),
    ("small-world", lambda s: nx.watts_strogatz_graph(N, 4, 0.1, seed=s)),
    ("scale-free", lambda s: nx.barabasi_albert_graph(N, 2, seed=s)),
]


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    for name, make in MODELS:
        times = []
        for r in range(runs):
            t = time.process_time()
            make(r)
            times.append((time.process_time() - t) * 1000)
        print(name, f"{statistics.median(times):.3f}", flush=True)


if __name__ == "__main__":
    main()
