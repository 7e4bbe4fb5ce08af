#!/usr/bin/env python3
"""The library's layers point one way: a file may use (include, or link to a
symbol of) its own folder and the folders below it, never one above.
Folders from the bottom: base, planar, board, io, game (the rules
engine and its agents), print, deck (many games from one master seed,
their manifests and merges), net, serve (the HTTP API's answers); cli
sits on top. Also finds link cycles between object files (nm), such as
a.c calling b.c calling a.c, and any use of libharu's private struct fields
outside src/print/hpdf_internals.c. Usage: layers.py BUILD_DIR (run from the tree)."""
import collections
import glob
import re
import subprocess
import sys

ORDER = ["base", "planar", "board", "io", "game", "print", "deck", "net", "serve", "cli"]
RANK = {name: i for i, name in enumerate(ORDER)}


def folder(path):
    parts = path.split("/")
    return parts[-2]


def include_violations():
    bad = []
    for path in sorted(glob.glob("src/*/*.[ch]")):
        here = folder(path)
        for no, line in enumerate(open(path, encoding="utf-8"), 1):
            m = re.match(r'\s*#\s*include\s+"([a-z_]+)/', line)
            if m and m.group(1) in RANK and RANK[m.group(1)] > RANK[here]:
                bad.append(f"{path}:{no}: {here} includes {m.group(1)}/ (a higher layer)")
            elif m and m.group(1) not in RANK:
                bad.append(f"{path}:{no}: unknown folder {m.group(1)}/")
    return bad


# Fields of libharu's structs (hpdf_objects.h, hpdf_pages.h, hpdf_doc.h)
# that cutboard may touch only in src/print/hpdf_internals.c.
HPDF_PRIVATE = re.compile(r"->(attr|stream|mmgr|xref|filter|write_fn|xobjects|contents)\b|HPDF_PageAttr")


def hpdf_outside_fence():
    bad = []
    for path in sorted(glob.glob("src/*/*.[ch]")):
        if path.endswith("print/hpdf_internals.c"):
            continue
        for no, line in enumerate(open(path, encoding="utf-8"), 1):
            if HPDF_PRIVATE.search(line) and ("HPDF" in line or "page" in line or "dict" in line):
                bad.append(f"{path}:{no}: libharu's internals outside hpdf_internals.c: {line.strip()}")
    return bad


def link_graph(build):
    defined, wanted = {}, {}
    for obj in sorted(glob.glob(build + "/*/*.o")):
        out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
        need = set()
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in "TDBR":
                defined[p[2]] = obj
            elif len(p) == 2 and p[0] == "U":
                need.add(p[1])
        wanted[obj] = need
    edges = collections.defaultdict(set)
    for obj, need in wanted.items():
        for sym in need:
            if sym in defined and defined[sym] != obj:
                edges[obj].add((defined[sym], sym))
    return list(wanted), edges


def cycles(nodes, edges):
    """Strongly connected components with more than one object (Tarjan)."""
    succ = {v: sorted({d for d, _ in edges[v]}) for v in nodes}
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    nodes, edges = link_graph(build)
    if not nodes:
        print(f"layers: no object files under {build}/", file=sys.stderr)
        return 2
    backward = [f"{obj} uses {sym} from {dep} (a higher layer)"
                for obj in nodes for dep, sym in sorted(edges[obj])
                if RANK[folder(dep)] > RANK[folder(obj)]]
    checks = {
        "includes point down": include_violations(),
        "links point down": backward,
        "no link cycles": ["link cycle: " + " <-> ".join(c) for c in cycles(nodes, edges)],
        "libharu's internals only in print/hpdf_internals.c": hpdf_outside_fence(),
    }
    failed = 0
    for name, problems in checks.items():
        for line in problems:
            print("layers:", line)
        failed += bool(problems)
        print(("FAIL " if problems else "ok   ") + name)
    print(f"{len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
