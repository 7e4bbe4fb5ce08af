#!/usr/bin/env python3
"""Draws cutboard board files into one PDF with ReportLab: the script a user
would write instead of `cutboard render FILE... -o OUT.pdf`.

usage: peer_reportlab.py THEME_DIR FONT.ttf OUT.pdf BOARD.json...

The same drawing as peer_pycairo.py (see there for what it draws and what
it leaves out), in ReportLab's canvas: page streams compressed, each icon an
ImageReader made once (ReportLab then embeds it once, its alpha as a soft
mask: mask="auto"), the label in the TrueType font given (embedded, subset).
"""
import json
import os
import sys

from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

PT = 72 / 25.4  # points per millimetre


def colour(hex_rgb):
    return tuple(int(hex_rgb[i:i + 2], 16) / 255 for i in (1, 3, 5))


def tint(c):
    return tuple(0.35 * v + 0.65 for v in c)


class Theme:
    def __init__(self, folder):
        with open(os.path.join(folder, "theme.json")) as f:
            t = json.load(f)
        readers = {}
        self.types = {}
        for kind in t["node_types"] + t["missions"] + [t["center"]]:
            path = os.path.join(folder, kind["icon"])
            if path not in readers:
                readers[path] = ImageReader(path)
            self.types[kind["name"]] = (colour(kind["color"]), readers[path])
        self.center = self.types[t["center"]["name"]]


class Sheet:
    """A page in millimetres with y down, as the board file gives them."""

    def __init__(self, c, page_h):
        self.c, self.h = c, page_h

    def x(self, mm):
        return mm * PT

    def y(self, mm):
        return (self.h - mm) * PT

    def icon(self, img, x, y, side, quarters=0):
        w, h = img.getSize()
        s = side / max(w, h) * PT
        c = self.c
        c.saveState()
        c.translate(self.x(x), self.y(y))
        c.rotate(quarters * 90)  # counter-clockwise, y up
        c.drawImage(img, -w * s / 2, -h * s / 2, w * s, h * s, mask="auto")
        c.restoreState()

    def disk(self, x, y, r, fill, outline, width_pt):
        c = self.c
        c.setFillColorRGB(*fill)
        c.setStrokeColorRGB(*outline)
        c.setLineWidth(width_pt)
        c.circle(self.x(x), self.y(y), r * PT, stroke=1, fill=1)


def draw_sheet(c, theme, game, sheet):
    s = Sheet(c, sheet["page"]["height_mm"])
    board, r = sheet["board"], sheet["node_radius_mm"]
    bx, by, bw, bh = board["x_mm"], board["y_mm"], board["width_mm"], board["height_mm"]
    nodes = sheet["nodes"]
    c.setStrokeGray(0.55)
    c.setLineWidth(0.5)
    c.rect(s.x(bx), s.y(by + bh), bw * PT, bh * PT, stroke=1, fill=0)
    # edges: one path, one stroke
    c.setStrokeColorRGB(0.1, 0.1, 0.1)
    c.setLineWidth(1.6)
    c.setLineCap(1)
    p = c.beginPath()
    for a, b in sheet["edges"]:
        p.moveTo(s.x(nodes[a]["x_mm"]), s.y(nodes[a]["y_mm"]))
        p.lineTo(s.x(nodes[b]["x_mm"]), s.y(nodes[b]["y_mm"]))
    c.drawPath(p, stroke=1, fill=0)
    c.setLineCap(0)
    # power dots, before the nodes so a node's outline covers the touch point
    dot_r = max(0.35 * r, 1.5)
    for n in nodes:
        for x, y in n.get("dots", []):
            s.disk(x, y, dot_r, (0.88, 0.88, 0.88), (0.1, 0.1, 0.1), 0.5)
    for n in nodes:
        x, y = n["x_mm"], n["y_mm"]
        if n["kind"] == "center":
            col, img = theme.center
            s.disk(x, y, r, tint(col), col, 2.4)
            c.setLineWidth(0.8)
            c.circle(s.x(x), s.y(y), 0.78 * r * PT, stroke=1, fill=0)
            s.icon(img, x, y, 1.1 * r)
        elif n["kind"] == "start":
            col, img = theme.types[n["mission"]]
            hw, dep = 1.25 * r, 1.55 * r
            rx, ry, rw, rh, quarters = {
                "top": (x - hw, y, 2 * hw, dep, 2), "bottom": (x - hw, y - dep, 2 * hw, dep, 0),
                "left": (x, y - hw, dep, 2 * hw, 3), "right": (x - dep, y - hw, dep, 2 * hw, 1)
            }[n["side"]]
            c.setFillColorRGB(*tint(col))
            c.setStrokeColorRGB(*col)
            c.setLineWidth(1.4)
            c.rect(s.x(rx), s.y(ry + rh), rw * PT, rh * PT, stroke=1, fill=1)
            s.icon(img, rx + rw / 2, ry + rh / 2, 1.25 * r, quarters)
        else:
            col, img = theme.types[n["type"]]
            s.disk(x, y, r, tint(col), col, 1.0)
            # on the trim line the icon goes into the half that stays
            ix = 1 if x <= bx else -1 if x >= bx + bw else 0
            iy = 1 if y <= by else -1 if y >= by + bh else 0
            side = (0.65 if ix and iy else 0.85 if ix or iy else 1.25) * r
            off = 0.05 * r + side / 2
            s.icon(img, x + ix * off, y + iy * off, side)
    who = (f"shared board for {game['players']} players" if game.get("shared")
           else f"player {sheet['player']} of {game['players']}")
    c.setFont("DejaVuSans", 7)
    c.setFillGray(0.55)
    c.drawString(s.x(bx), s.y(sheet["page"]["height_mm"] - 6),
                 f"cutboard \u00b7 {who} \u00b7 seed \"{game['seed']}\" \u00b7 "
                 f"sheet {sheet['seed']}")


def main():
    theme_dir, font, out, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    theme = Theme(theme_dir)
    pdfmetrics.registerFont(TTFont("DejaVuSans", font))
    c = canvas.Canvas(out, pageCompression=1)
    for path in files:
        with open(path) as f:
            game = json.load(f)
        for sheet in game["sheets"]:
            page = sheet["page"]
            c.setPageSize((page["width_mm"] * PT, page["height_mm"] * PT))
            draw_sheet(c, theme, game, sheet)
            c.showPage()
    c.save()


if __name__ == "__main__":
    main()
