#!/usr/bin/env python3
"""Cross-checks cutboard's network analysis against NetworkX.

usage: networkx_check.py FILE.json...   (cutboard-network/1 files with "analysis")

For each file, builds the graph from "nodes" and "links" and recomputes the
analysis with NetworkX: degree histogram, hubs, components, eccentricity (per
component), radius, diameter, centre and average shortest path length of the
largest component (ties: the one with the smallest node), average clustering
and transitivity. Exits 1 and prints every difference (floats within 1e-9).
"""
import json
import sys

import networkx as nx

TOL = 1e-9


def check(path):
    with open(path) as f:
        d = json.load(f)
    a = d["analysis"]
    g = nx.Graph()
    g.add_nodes_from(range(d["nodes"]))
    g.add_edges_from(tuple(e) for e in d["links"])
    bad = []

    def same(name, ours, theirs):
        if isinstance(theirs, float) or isinstance(ours, float):
            ok = abs(float(ours) - float(theirs)) <= TOL
        else:
            ok = ours == theirs
        if not ok:
            bad.append(f"{path}: {name}: cutboard {ours!r}, networkx {theirs!r}")

    same("links", a["links"], g.number_of_edges())
    same("degree_histogram", a["degree_histogram"], nx.degree_histogram(g))
    degs = dict(g.degree())
    top = max(degs.values())
    same("hubs", a["hubs"], sorted(v for v, k in degs.items() if k == top))
    comps = [sorted(c) for c in nx.connected_components(g)]
    same("components", a["components"], len(comps))
    same("connected", a["connected"], nx.is_connected(g))
    big = min(comps, key=lambda c: (-len(c), c[0]))
    same("largest_component", a["largest_component"], len(big))
    same("average_clustering", a["average_clustering"], nx.average_clustering(g))
    same("transitivity", a["transitivity"], nx.transitivity(g))
    if a["distances"]:
        ecc = {}
        for c in comps:
            ecc.update(nx.eccentricity(g.subgraph(c)))
        same("eccentricity", a["eccentricity"], [ecc[v] for v in range(d["nodes"])])
        sub = g.subgraph(big)
        same("radius", a["radius"], nx.radius(sub))
        same("diameter", a["diameter"], nx.diameter(sub))
        same("center", a["center"], sorted(nx.center(sub)))
        apl = nx.average_shortest_path_length(sub) if len(big) > 1 else 0.0
        same("average_shortest_path_length", a["average_shortest_path_length"], float(apl))
    return bad


def main():
    problems = []
    for path in sys.argv[1:]:
        problems += check(path)
    for p in problems:
        print(p)
    print(f"networkx {nx.__version__}: {len(sys.argv) - 1} graphs, "
          f"{len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
