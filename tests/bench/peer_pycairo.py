#!/usr/bin/env python3
"""Draws cutboard board files into one PDF with pycairo: the script a user
would write instead of `cutboard render FILE... -o OUT.pdf`.

usage: peer_pycairo.py THEME_DIR OUT.pdf BOARD.json...

One page per sheet, in the files' order, drawn as cutboard draws a sheet:
the grey trim line, the edges (1.6 pt, round caps), the power dots (light
grey circles with a dark outline, where the file puts them), the nodes
(circles filled with a 35 % tint of their type's colour, outlined in it,
the type's PNG icon on top; on the trim line the icon moves into the half
that stays), the starts (rectangles in their mission's colour, the icon
turned towards the centre), the centre (thick outline, inner ring, icon)
and the label line in DejaVu Sans. Each icon is loaded once and reused, so
cairo embeds it once.

Left out, compared with cutboard: the rules and legend page, the legend
strip in the margin, moving the label clear of nodes, checking the board
against the contract, and the error handling of a real tool (a bad file
stops it with a Python traceback).
"""
import json
import math
import os
import sys

import cairo

PT = 72 / 25.4  # points per millimetre


def colour(hex_rgb):
    return tuple(int(hex_rgb[i:i + 2], 16) / 255 for i in (1, 3, 5))


def tint(c):
    return tuple(0.35 * v + 0.65 for v in c)


class Theme:
    def __init__(self, folder):
        with open(os.path.join(folder, "theme.json")) as f:
            t = json.load(f)
        self.icons = {}
        self.types = {}
        for kind in t["node_types"] + t["missions"] + [t["center"]]:
            path = os.path.join(folder, kind["icon"])
            if path not in self.icons:
                self.icons[path] = cairo.ImageSurface.create_from_png(path)
            self.types[kind["name"]] = (colour(kind["color"]), self.icons[path])
        self.center = self.types[t["center"]["name"]]


def icon(ctx, img, x, y, side, quarters=0):
    """IMG centred on (x, y) mm in a square of SIDE mm, aspect kept."""
    w, h = img.get_width(), img.get_height()
    s = side / max(w, h)
    ctx.save()
    ctx.translate(x, y)
    ctx.rotate(-quarters * math.pi / 2)
    ctx.scale(s, s)
    ctx.set_source_surface(img, -w / 2, -h / 2)
    ctx.paint()
    ctx.restore()


def disk(ctx, x, y, r, fill, outline, width_pt):
    ctx.new_path()
    ctx.arc(x, y, r, 0, 2 * math.pi)
    ctx.set_source_rgb(*fill)
    ctx.fill_preserve()
    ctx.set_source_rgb(*outline)
    ctx.set_line_width(width_pt / PT)
    ctx.stroke()


def start_rect(node, r):
    hw, dep = 1.25 * r, 1.55 * r
    x, y = node["x_mm"], node["y_mm"]
    return {"top": (x - hw, y, 2 * hw, dep, 2), "bottom": (x - hw, y - dep, 2 * hw, dep, 0),
            "left": (x, y - hw, dep, 2 * hw, 3), "right": (x - dep, y - hw, dep, 2 * hw, 1)}[
        node["side"]]


def draw_sheet(ctx, theme, game, sheet):
    board, r = sheet["board"], sheet["node_radius_mm"]
    bx, by, bw, bh = board["x_mm"], board["y_mm"], board["width_mm"], board["height_mm"]
    nodes = sheet["nodes"]
    ctx.set_source_rgb(0.55, 0.55, 0.55)
    ctx.set_line_width(0.5 / PT)
    ctx.rectangle(bx, by, bw, bh)
    ctx.stroke()
    # edges: one path, one stroke
    ctx.set_source_rgb(0.1, 0.1, 0.1)
    ctx.set_line_width(1.6 / PT)
    ctx.set_line_cap(cairo.LINE_CAP_ROUND)
    for a, b in sheet["edges"]:
        ctx.move_to(nodes[a]["x_mm"], nodes[a]["y_mm"])
        ctx.line_to(nodes[b]["x_mm"], nodes[b]["y_mm"])
    ctx.stroke()
    ctx.set_line_cap(cairo.LINE_CAP_BUTT)
    # power dots, before the nodes so a node's outline covers the touch point
    dot_r = max(0.35 * r, 1.5)
    for n in nodes:
        for x, y in n.get("dots", []):
            disk(ctx, x, y, dot_r, (0.88, 0.88, 0.88), (0.1, 0.1, 0.1), 0.5)
    for n in nodes:
        x, y = n["x_mm"], n["y_mm"]
        if n["kind"] == "center":
            c, img = theme.center
            disk(ctx, x, y, r, tint(c), c, 2.4)
            ctx.arc(x, y, 0.78 * r, 0, 2 * math.pi)
            ctx.set_line_width(0.8 / PT)
            ctx.stroke()
            icon(ctx, img, x, y, 1.1 * r)
        elif n["kind"] == "start":
            c, img = theme.types[n["mission"]]
            rx, ry, rw, rh, quarters = start_rect(n, r)
            ctx.rectangle(rx, ry, rw, rh)
            ctx.set_source_rgb(*tint(c))
            ctx.fill_preserve()
            ctx.set_source_rgb(*c)
            ctx.set_line_width(1.4 / PT)
            ctx.stroke()
            icon(ctx, img, rx + rw / 2, ry + rh / 2, 1.25 * r, quarters)
        else:
            c, img = theme.types[n["type"]]
            disk(ctx, x, y, r, tint(c), c, 1.0)
            # on the trim line the icon goes into the half that stays
            ix = 1 if x <= bx else -1 if x >= bx + bw else 0
            iy = 1 if y <= by else -1 if y >= by + bh else 0
            side = (0.65 if ix and iy else 0.85 if ix or iy else 1.25) * r
            off = 0.05 * r + side / 2
            icon(ctx, img, x + ix * off, y + iy * off, side)
    who = (f"shared board for {game['players']} players" if game.get("shared")
           else f"player {sheet['player']} of {game['players']}")
    ctx.select_font_face("DejaVu Sans")
    ctx.set_font_size(7 / PT)
    ctx.set_source_rgb(0.55, 0.55, 0.55)
    ctx.move_to(bx, sheet["page"]["height_mm"] - 6)
    ctx.show_text(f"cutboard \u00b7 {who} \u00b7 seed \"{game['seed']}\" \u00b7 "
                  f"sheet {sheet['seed']}")


def main():
    theme_dir, out, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    theme = Theme(theme_dir)
    surface = cairo.PDFSurface(out, 595, 842)
    ctx = cairo.Context(surface)
    for path in files:
        with open(path) as f:
            game = json.load(f)
        for sheet in game["sheets"]:
            page = sheet["page"]
            surface.set_size(page["width_mm"] * PT, page["height_mm"] * PT)
            ctx.save()
            ctx.scale(PT, PT)  # millimetres, y down, as in the file
            draw_sheet(ctx, theme, game, sheet)
            ctx.restore()
            ctx.show_page()
    surface.finish()


if __name__ == "__main__":
    main()
