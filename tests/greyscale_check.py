#!/usr/bin/env python3
"""Node types told apart in black and white, without their glyphs.

usage: greyscale_check.py CUTBOARD

Writes a colour game (shared A3, 9 players: every type of the default theme
on one sheet), renders its first page in greyscale with poppler
(pdftoppm -gray, 150 dpi), and reads each node's fill from the page: the
grey of the ring between its glyph's square and its outline (from 0.70 to
0.80 node radii, where neither reaches). A type's grey is the median of its
nodes'. Exits 1 unless every type on the sheet has a grey of its own: every
pair of types at least MIN_STEP grey levels (of 255) apart.
"""
import json
import math
import os
import subprocess
import sys
import tempfile

MIN_STEP = 10
DPI = 150


def read_pgm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    assert fields[0] == b"P5" and fields[3] == b"255", fields
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos + 1:pos + 1 + w * h]


def main():
    cutboard = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        pdf, board = os.path.join(tmp, "g.pdf"), os.path.join(tmp, "g.json")
        subprocess.run([cutboard, "--seed", "grey", "--shared", "--players", "9", "--paper",
                        "a3", "--rules", "none", "-o", pdf, "--json", board], check=True)
        subprocess.run(["pdftoppm", "-gray", "-r", str(DPI), "-f", "1", "-l", "1", pdf,
                        os.path.join(tmp, "p")], check=True)
        pgm = [f for f in os.listdir(tmp) if f.startswith("p") and f.endswith(".pgm")][0]
        w, h, px = read_pgm(os.path.join(tmp, pgm))
        sheet = json.load(open(board))["sheets"][0]
    scale = DPI / 25.4
    r = sheet["node_radius_mm"]
    per_type = {}
    for n in sheet["nodes"]:
        if n["kind"] != "node" or "type" not in n:
            continue
        bx, by = sheet["board"]["x_mm"], sheet["board"]["y_mm"]
        bw, bh = sheet["board"]["width_mm"], sheet["board"]["height_mm"]
        if n["x_mm"] in (bx, bx + bw) or n["y_mm"] in (by, by + bh):
            continue  # on the trim line its glyph moves inward
        vals = []
        for k in range(36):
            th = 2 * math.pi * k / 36
            for f in (0.70, 0.75, 0.80):
                x = int(round((n["x_mm"] + f * r * math.cos(th)) * scale))
                y = int(round((n["y_mm"] + f * r * math.sin(th)) * scale))
                if 0 <= x < w and 0 <= y < h:
                    vals.append(px[y * w + x])
        vals.sort()
        per_type.setdefault(n["type"], []).append(vals[len(vals) // 2])
    greys = {t: sorted(v)[len(v) // 2] for t, v in per_type.items()}
    names = sorted(greys, key=lambda t: greys[t])
    print("grey levels:", ", ".join(f"{t} {greys[t]}" for t in names))
    if len(greys) < 2:
        print("greyscale_check: fewer than 2 types on the sheet")
        return 1
    least = min((abs(greys[a] - greys[b]), a, b) for a in greys for b in greys if a < b)
    print(f"least difference: {least[0]} grey levels ({least[1]} / {least[2]}); "
          f"{len(greys)} types")
    if least[0] < MIN_STEP:
        print(f"greyscale_check: {least[1]} and {least[2]} print {least[0]} grey levels apart "
              f"(under {MIN_STEP})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
