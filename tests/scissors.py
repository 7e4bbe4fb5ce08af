"""The scissors figures of a board file's sheets, computed here from the file
alone (not from cutboard's code): the smallest piece of paper, the shortest
stretch of an edge visible between its nodes' rims, and the least paper
between a power dot's outline and a printed edge or the trim line.

Shapes as the board file format (doc/cutboard-board.5.scd) and the renderer
draw them: a node is a disk of node_radius_mm; a start a rectangle 2.5 radii
along its side and 1.55 radii deep, inward from the trim line; a dot a circle
of 0.30 radii (at least 1.5 mm) drawn with a 0.5 pt outline; an edge a 1.6 pt
line; the trim line 0.5 pt.
"""
import math

PT = 25.4 / 72
EDGE_HALF = 1.6 * PT / 2
TRIM_HALF = 0.5 * PT / 2
DOT_OUTLINE_HALF = 0.5 * PT / 2
START_HALF_WIDTH = 1.25
START_DEPTH = 1.55

# The clauses of the contract these figures are held to.
MIN_PIECE_MM2 = 120.0
MIN_VISIBLE_MM = 3.0
MIN_DOT_PAPER_MM = 1.0
# The board file keeps coordinates to 0.01 mm.
ROUNDING_MM = 0.02


def dot_radius(r):
    return max(0.30 * r, 1.5)


def start_rect(node, r):
    """x0, y0, x1, y1 of a start's rectangle."""
    x, y, hw, dep = node["x_mm"], node["y_mm"], START_HALF_WIDTH * r, START_DEPTH * r
    side = node["side"]
    if side == "top":
        return x - hw, y, x + hw, y + dep
    if side == "bottom":
        return x - hw, y - dep, x + hw, y
    if side == "left":
        return x, y - hw, x + dep, y + hw
    return x - dep, y - hw, x, y + hw


def leave(node, r, ux, uy):
    """How far from NODE's centre a line in direction (ux, uy) leaves its shape."""
    if node["kind"] != "start":
        return r
    x0, y0, x1, y1 = start_rect(node, r)
    t = math.inf
    for p, u, lo, hi in ((node["x_mm"], ux, x0, x1), (node["y_mm"], uy, y0, y1)):
        if u > 1e-12:
            t = min(t, (hi - p) / u)
        elif u < -1e-12:
            t = min(t, (lo - p) / u)
    return t


def seg_dist(px, py, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    L2 = dx * dx + dy * dy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L2))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def pieces(sheet):
    """Areas (mm^2) of the faces of the drawing inside the trim rectangle:
    the edges plus the trim line between the nodes that stand on it."""
    bd = sheet["board"]
    X0, Y0 = bd["x_mm"], bd["y_mm"]
    X1, Y1 = X0 + bd["width_mm"], Y0 + bd["height_mm"]
    pts = [(n["x_mm"], n["y_mm"]) for n in sheet["nodes"]]
    adj = {i: set() for i in range(len(pts))}
    for a, b in sheet["edges"]:
        adj[a].add(b)
        adj[b].add(a)
    eps = 1e-6
    sides = {"top": [], "bottom": [], "left": [], "right": []}

    def vertex_at(x, y):
        for i, p in enumerate(pts):
            if abs(p[0] - x) < eps and abs(p[1] - y) < eps:
                return i
        pts.append((x, y))
        adj[len(pts) - 1] = set()
        return len(pts) - 1

    corners = [vertex_at(X0, Y0), vertex_at(X1, Y0), vertex_at(X1, Y1), vertex_at(X0, Y1)]
    for i, (x, y) in enumerate(pts):
        if abs(y - Y0) < eps:
            sides["top"].append((x, i))
        if abs(y - Y1) < eps:
            sides["bottom"].append((x, i))
        if abs(x - X0) < eps:
            sides["left"].append((y, i))
        if abs(x - X1) < eps:
            sides["right"].append((y, i))
    assert all(c in [i for _, i in sides["top"] + sides["bottom"]] for c in corners)
    for run in sides.values():
        run.sort()
        for (_, i), (_, j) in zip(run, run[1:]):
            adj[i].add(j)
            adj[j].add(i)
    order = {}
    for v, ns in adj.items():
        order[v] = sorted(ns, key=lambda u: math.atan2(pts[u][1] - pts[v][1],
                                                       pts[u][0] - pts[v][0]))
    seen = set()
    areas = []
    for v in adj:
        for u in order[v]:
            if (v, u) in seen:
                continue
            a, b, area = v, u, 0.0
            while (a, b) not in seen:
                seen.add((a, b))
                area += pts[a][0] * pts[b][1] - pts[b][0] * pts[a][1]
                ring = order[b]
                k = ring.index(a)
                a, b = b, ring[(k - 1) % len(ring)]
            areas.append(area / 2)
    outer = min(range(len(areas)), key=lambda k: areas[k])  # the one way round, the largest
    return [abs(a) for k, a in enumerate(areas) if k != outer]


def figures(sheet):
    """(smallest piece mm^2, shortest visible edge mm, least paper between a
    dot's outline and an edge's or the trim line's stroke mm, or None when
    the sheet has no dots)."""
    r = sheet["node_radius_mm"]
    nodes = sheet["nodes"]
    shortest = math.inf
    for a, b in sheet["edges"]:
        na, nb = nodes[a], nodes[b]
        dx, dy = nb["x_mm"] - na["x_mm"], nb["y_mm"] - na["y_mm"]
        L = math.hypot(dx, dy)
        ux, uy = dx / L, dy / L
        shortest = min(shortest, L - leave(na, r, ux, uy) - leave(nb, r, -ux, -uy))
    bd = sheet["board"]
    X0, Y0 = bd["x_mm"], bd["y_mm"]
    X1, Y1 = X0 + bd["width_mm"], Y0 + bd["height_mm"]
    dr = dot_radius(r)
    dots = [d for n in nodes for d in (n.get("dots") or [])]
    least = None
    if dots:
        # edges near each dot, by a coarse grid of edge boxes
        cell = 4 * r + 10
        grid = {}
        for a, b in sheet["edges"]:
            ax, ay, bx, by = nodes[a]["x_mm"], nodes[a]["y_mm"], nodes[b]["x_mm"], nodes[b]["y_mm"]
            for cx in range(int(min(ax, bx) // cell), int(max(ax, bx) // cell) + 1):
                for cy in range(int(min(ay, by) // cell), int(max(ay, by) // cell) + 1):
                    grid.setdefault((cx, cy), []).append((ax, ay, bx, by))
        least = math.inf
        for x, y in dots:
            trim = min(x - X0, X1 - x, y - Y0, Y1 - y) - dr - DOT_OUTLINE_HALF - TRIM_HALF
            least = min(least, trim)
            cx, cy = int(x // cell), int(y // cell)
            for gx in (cx - 1, cx, cx + 1):
                for gy in (cy - 1, cy, cy + 1):
                    for seg in grid.get((gx, gy), ()):
                        g = seg_dist(x, y, *seg) - dr - DOT_OUTLINE_HALF - EDGE_HALF
                        least = min(least, g)
    return min(pieces(sheet)), shortest, least


def failures(sheet):
    """The scissors clauses SHEET breaks, as text (empty when none)."""
    piece, visible, paper = figures(sheet)
    bad = []
    if piece < MIN_PIECE_MM2 - 0.5:
        bad.append(f"a piece of {piece:.1f} mm^2 (under {MIN_PIECE_MM2:g})")
    if visible < MIN_VISIBLE_MM - ROUNDING_MM:
        bad.append(f"an edge visible for {visible:.2f} mm (under {MIN_VISIBLE_MM:g})")
    if paper is not None and paper < MIN_DOT_PAPER_MM - ROUNDING_MM:
        bad.append(f"a dot {paper:.2f} mm from a printed line (under {MIN_DOT_PAPER_MM:g})")
    return bad
