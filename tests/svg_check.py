#!/usr/bin/env python3
"""SVG output, end to end: cutboard writes each sheet as a standalone SVG
that parses as XML, holds exactly the board file's nodes and edges (ids and
ends), embeds each icon once as a <symbol>, is sized in mm, and renders
(rsvg-convert) to the same picture as the PDF page (pdftoppm), pixel by
pixel within a small tolerance. Usage: svg_check.py CUTBOARD (from the top
of the tree)."""
import json
import os
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

NS = {"s": "http://www.w3.org/2000/svg"}
XLINK = "{http://www.w3.org/1999/xlink}href"
CB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "cutboard")
passed = failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL " + what + (": " + detail if detail else ""))


def run(*args, stdin=None, cwd=None):
    return subprocess.run([CB, *args], input=stdin, capture_output=True, cwd=cwd)


def png_pixels(path):
    """(width, height, rows of RGB bytes) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, lace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and lace == 0, (path, depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, rows, prev = zlib.decompress(idat), [], bytearray(w * bpp)
    stride = w * bpp
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        if bpp == 4:  # on white: the SVG paints its paper white, alpha is 255
            line = bytearray(v for k, v in enumerate(line) if k % 4 != 3)
        rows.append(line)
    return w, h, rows


def sheet_checks(svg_path, sheet, what):
    """The SVG of one sheet against its board in the board file."""
    root = ET.parse(svg_path).getroot()
    check(root.tag == "{http://www.w3.org/2000/svg}svg", what + ": an <svg> document")
    w, h = sheet["page"]["width_mm"], sheet["page"]["height_mm"]
    check(root.get("width") == f"{w:g}mm" and root.get("height") == f"{h:g}mm",
          what + ": sized in mm", f'{root.get("width")} x {root.get("height")} for {w} x {h}')
    check([float(v) for v in root.get("viewBox").split()] == [0, 0, w, h],
          what + ": viewBox in mm", root.get("viewBox"))
    nodes = [g for g in root.iter("{%s}g" % NS["s"]) if g.get("class") in ("node", "start", "center")]
    ids = sorted(int(g.get("data-id")) for g in nodes)
    check(ids == list(range(len(sheet["nodes"]))), what + ": one element per node, ids 0..n-1",
          f"{len(nodes)} elements for {len(sheet['nodes'])} nodes")
    kinds = {n["id"]: n["kind"] for n in sheet["nodes"]}
    check(all(kinds[int(g.get("data-id"))] == g.get("class") for g in nodes),
          what + ": starts, centre and nodes as the board file says")
    edges = sorted((int(l.get("data-from")), int(l.get("data-to")))
                   for l in root.iter("{%s}line" % NS["s"]) if l.get("class") == "edge")
    check(edges == sorted(tuple(e) for e in sheet["edges"]), what + ": the board's edges",
          f"{len(edges)} lines for {len(sheet['edges'])} edges")
    by_id = {n["id"]: n for n in sheet["nodes"]}
    line = next(l for l in root.iter("{%s}line" % NS["s"]) if l.get("class") == "edge")
    a = by_id[int(line.get("data-from"))]
    check(abs(float(line.get("x1")) - a["x_mm"]) < 0.01 and abs(float(line.get("y1")) - a["y_mm"]) < 0.01,
          what + ": edges end at their nodes (mm, y down)")
    symbols = [s.get("id") for s in root.iter("{%s}symbol" % NS["s"])]
    uses = [u.get(XLINK) for u in root.iter("{%s}use" % NS["s"])]
    check(len(symbols) == len(set(symbols)) and symbols and
          set(u[1:] for u in uses) == set(symbols),
          what + ": each icon embedded once as a <symbol>, every one used",
          f"{len(symbols)} symbols, {len(set(uses))} used")
    images = [i.get(XLINK, "") for i in root.iter("{%s}image" % NS["s"])]
    check(len(images) == len(symbols) and all(i.startswith("data:image/png;base64,") for i in images),
          what + ": icons are the PNG files inside the SVG")
    text = "".join(t.text or "" for t in root.iter("{%s}text" % NS["s"]))
    check(f'sheet {sheet["seed"]}' in text and "cutboard " in text,
          what + ": the label is text with the sheet's seed", text)
    return root


def blocks(path, n=6):
    """The picture as the mean grey of each N x N block: anti-aliasing and
    the two rasterisers' rounding average out, a missing node, icon or
    edge, a moved label or a wrong colour do not."""
    w, h, rows = png_pixels(path)
    out = []
    for by in range(h // n):
        line = []
        for bx in range(w // n):
            line.append(sum(sum(rows[y][3 * bx * n:3 * (bx + 1) * n])
                            for y in range(by * n, by * n + n)) / (3 * n * n))
        out.append(line)
    return w, h, out


def picture_diff(a, b):
    """Mean and largest block difference (0..255) of two pictures."""
    ds = [abs(x - y) for ra, rb in zip(a, b) for x, y in zip(ra, rb)]
    return sum(ds) / len(ds), max(ds)


def compare_pictures(svg_path, pdf_path, page, tmp, what):
    """rsvg-convert and pdftoppm at the same resolution: same size, and the
    same picture block by block; the next page of the PDF (another board)
    must not pass, or the comparison proves nothing."""
    a, b = os.path.join(tmp, "svg.png"), os.path.join(tmp, "pdf")
    r1 = subprocess.run(["rsvg-convert", "-d", "50", "-p", "50", "-o", a, svg_path], capture_output=True)
    r2 = subprocess.run(["pdftoppm", "-png", "-r", "50", "-f", str(page), "-l", str(page + 1),
                         pdf_path, b], capture_output=True)
    check(r1.returncode == 0, what + ": rsvg-convert renders it", r1.stderr.decode()[-300:])
    if r1.returncode or r2.returncode:
        check(False, what + ": pdftoppm", r2.stderr.decode()[-300:])
        return
    pages = sorted(f for f in os.listdir(tmp) if f.startswith("pdf-") and f.endswith(".png"))
    wa, ha, pa = blocks(a)
    wb, hb, pb = blocks(os.path.join(tmp, pages[0]))
    check(abs(wa - wb) <= 1 and abs(ha - hb) <= 1, what + ": the PNG is the PDF page's size",
          f"{wa}x{ha} vs {wb}x{hb}")
    mean, worst = picture_diff(pa, pb)
    check(mean < 5 and worst < 80, what + ": looks like its PDF page (rsvg-convert vs pdftoppm)",
          f"mean block difference {mean:.2f}, largest {worst:.0f}")
    mean, worst = picture_diff(pa, blocks(os.path.join(tmp, pages[1]))[2])
    check(mean > 10, what + ": does not look like the next page (the comparison can fail)",
          f"mean block difference {mean:.2f}")


with tempfile.TemporaryDirectory() as tmp:
    g = os.path.join(tmp, "game.svg")
    r = run("--seed", "svg test", "-o", g, "--json", os.path.join(tmp, "game.json"))
    check(r.returncode == 0, "game -o game.svg", r.stderr.decode())
    names = sorted(f for f in os.listdir(tmp) if f.endswith(".svg"))
    check(names == [f"game-{k}.svg" for k in range(1, 5)], "four sheets: game-1.svg .. game-4.svg",
          str(names))
    board = json.load(open(os.path.join(tmp, "game.json")))
    for k, sheet in enumerate(board["sheets"], 1):
        sheet_checks(os.path.join(tmp, f"game-{k}.svg"), sheet, f"sheet {k}")
    print(f"     {os.path.getsize(os.path.join(tmp, 'game-1.svg'))} bytes for sheet 1")
    r = run("--seed", "svg test", "-o", os.path.join(tmp, "game.pdf"))
    compare_pictures(os.path.join(tmp, "game-2.svg"), os.path.join(tmp, "game.pdf"), 2, tmp, "sheet 2")
    again = os.path.join(tmp, "again.svg")
    run("--seed", "svg test", "-o", again, "--players", "2")
    run("--seed", "svg test", "-o", os.path.join(tmp, "again2.svg"), "--players", "2")
    check(open(os.path.join(tmp, "again-1.svg"), "rb").read() ==
          open(os.path.join(tmp, "again2-1.svg"), "rb").read(), "the same seed gives the same bytes")

    # One sheet: the file itself, --format svg, standard output, render.
    shared = os.path.join(tmp, "shared.json")
    r = run("--seed", "one", "--shared", "--paper", "letter", "--ink-friendly", "--format", "svg",
            "-o", "-", "--json", shared)
    check(r.returncode == 0 and r.stdout.startswith(b"<?xml"), "--format svg -o - on standard output",
          r.stderr.decode())
    out = os.path.join(tmp, "stdout.svg")
    open(out, "wb").write(r.stdout)
    root = sheet_checks(out, json.load(open(shared))["sheets"][0], "shared letter ink-friendly")
    fills = {c.get("fill") for g in root.iter("{%s}g" % NS["s"]) if g.get("class") == "node"
             for c in g.iter("{%s}circle" % NS["s"])}
    check(fills == {"#ffffff"}, "--ink-friendly: white node fills", str(fills))
    r = run("render", "-", "--ink-friendly", "-o", os.path.join(tmp, "r.SVG"),
            stdin=open(shared, "rb").read())
    check(r.returncode == 0, "render - -o r.SVG (the extension in any case)", r.stderr.decode())
    sheet_checks(os.path.join(tmp, "r.SVG"), json.load(open(shared))["sheets"][0], "render -")
    r = run("render", "samples/four-a4.json", "-o", os.path.join(tmp, "four.svg"))
    check(r.returncode == 0 and len([f for f in os.listdir(tmp) if f.startswith("four-")]) == 4,
          "render samples/four-a4.json -o four.svg: four files", r.stderr.decode())
    r = run("--seed", "x", "--bleed", "3mm", "-o", os.path.join(tmp, "bleed.svg"), "--players", "2")
    root = ET.parse(os.path.join(tmp, "bleed-1.svg")).getroot()
    check(r.returncode == 0 and root.get("viewBox") == "-3 -3 303 216",
          "--bleed 3mm: the picture grows by the bleed", root.get("viewBox"))

    # Refused: several SVGs on standard output, PDF-only options, bad --format.
    for args, what in ((["--seed", "x", "--format", "svg", "-o", "-"], "4 sheets of SVG on standard output"),
                       (["--seed", "x", "--cmyk", "-o", os.path.join(tmp, "c.svg")], "--cmyk with SVG"),
                       (["--seed", "x", "--sheet", "a3", "-o", os.path.join(tmp, "c.svg")], "--sheet with SVG"),
                       (["--seed", "x", "--format", "png", "-o", os.path.join(tmp, "c.png")], "--format png")):
        r = run(*args)
        err = r.stderr.decode()
        check(r.returncode == 64 and err.count("\n") == 1 and not r.stdout and
              not any(f.startswith("c") for f in os.listdir(tmp)),
              f"refused: {what} (exit 64, one line, nothing written)", f"{r.returncode} {err}")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
