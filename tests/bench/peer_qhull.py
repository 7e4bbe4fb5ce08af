#!/usr/bin/env python3
"""Times scipy's Delaunay (qhull) on a board's node coordinates.

usage: peer_qhull.py POINTS.f64 RUNS

POINTS.f64 holds x0 y0 x1 y1 ... as native 64-bit floats (bench_peers.c
writes it from a generated board). Prints the median CPU time of RUNS
triangulations in seconds, then the number of triangles, one per line.
scipy's default options for 2-D input ("Qbb Qc Qz Q12"; no joggling).
"""
import statistics
import sys
import time

import numpy as np
from scipy.spatial import Delaunay


def main():
    points = np.fromfile(sys.argv[1], dtype=np.float64).reshape(-1, 2)
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    times, triangles = [], 0
    for _ in range(runs):
        t = time.process_time()
        tri = Delaunay(points)
        times.append(time.process_time() - t)
        triangles = len(tri.simplices)
        del tri
    print(f"{statistics.median(times):.6f}")
    print(triangles)


if __name__ == "__main__":
    main()
