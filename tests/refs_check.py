#!/usr/bin/env python3
"""Every file a comment or a document names exists. Scans the comments of
the C sources and headers (src/, include/, tests/), of the Python and shell
scripts and of the Makefile, and the whole text of README.md and doc/ (the
manual, the lab notebook, INTERNALS.md, the man page sources), for
  - paths from the tree's top folders (src/io/json.c, tests/test_cut.c,
    doc/manual.md, icons/default/theme.json), a trailing "/" for a folder;
  - paths inside src/ as the includes write them (planar/halfedge.h);
  - capitalised documents (README.md, a theme's CREDITS.md), anywhere in
    the tree;
and fails, naming file and line, on any that is not in the tree. A path
with a wildcard or a placeholder (tests/fuzz/TARGET/, tests/test_<module>.c,
samples/a4.*) is a pattern, not a file; build/ and the other folders make creates are not in
the tree by design and are not checked. Usage: refs_check.py (from the
tree's top)."""
import glob
import os
import re
import sys

TOP = ["src", "include", "tests", "doc", "icons", "fonts", "samples", "debian", "completion"]
SRC = ["base", "planar", "board", "io", "game", "print", "net", "serve", "cli"]
PATH = re.compile(r"(?<![\w./-])((?:%s)/[\w./+-]*[\w/])" % "|".join(TOP))
IN_SRC = re.compile(r"(?<![\w./-])((?:%s)/\w+\.[ch])\b" % "|".join(SRC))
DOC = re.compile(r"(?<![\w./-])([A-Z][A-Z_-]+\.md)\b")


def comments_c(text):
    """(line, text) of each comment of C source TEXT; strings skipped."""
    out, i, line, n = [], 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            line += text.count("\n", i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j
            out.append((line, text[i:j]))
            line += text.count("\n", i, j)
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append((line, text[i:j]))
            i = j - 1
        i += 1
    return out


def comments_hash(text, docstrings):
    """(line, text) of the '#' comments (and, for Python, the triple-quoted
    strings) of TEXT."""
    out = []
    if docstrings:
        for m in re.finditer(r'"""(.*?)"""', text, re.S):
            out.append((text.count("\n", 0, m.start()) + 1, m.group(1)))
    for no, ln in enumerate(text.split("\n"), 1):
        k = ln.find("#")
        if k >= 0 and not ln.lstrip().startswith("#!"):
            out.append((no, ln[k:]))
    return out


def is_pattern(path):
    # placeholders in capitals (TARGET, NAME, K), wildcards, make variables
    return (re.search(r"[*?$%<>{}]|\.\.\.", path) or
            re.search(r"(^|[/_.-])[A-Z][A-Z0-9]*([/_.-]|$)", path.split("/", 1)[-1]))


def names_in_tree():
    names = set()
    for top in TOP + ["."]:
        for root, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if not d.startswith(".") and not d.startswith("build")]
            names.update(files)
            if top == ".":
                break
    return names


NAMES = None


def exists(path):
    return os.path.exists(path.rstrip("/.")) or os.path.exists(path)


def check(name, chunks, bad):
    for line, text in chunks:
        for sub_line, t in enumerate(text.split("\n")):
            where = f"{name}:{line + sub_line}"
            for m in PATH.finditer(t):
                p = m.group(1).rstrip(".")
                after = t[m.end():m.end() + 2]
                if after[:1] in ("*", "<", "{") or after == ".*" or is_pattern(p):
                    continue
                if not exists(p):
                    bad.append(f"{where}: {p} does not exist")
            for m in IN_SRC.finditer(t):
                p = m.group(1)
                if t[max(0, m.start() - 4):m.start()] == "src/":
                    continue
                if not exists("src/" + p) and not exists(p):
                    bad.append(f"{where}: {p} (src/{p}) does not exist")
            for m in DOC.finditer(t):
                p = m.group(1)
                if p not in NAMES:
                    bad.append(f"{where}: {p} does not exist")


def main():
    global NAMES
    NAMES = names_in_tree()
    bad = []
    c_files = sorted(glob.glob("src/*/*.[ch]") + glob.glob("include/*.h") +
                     glob.glob("tests/*.[ch]") + glob.glob("tests/*/*.[ch]"))
    for f in c_files:
        check(f, comments_c(open(f, encoding="utf-8").read()), bad)
    scripts = sorted(glob.glob("tests/*.py") + glob.glob("tests/*/*.py") +
                     glob.glob("tests/*.sh") + glob.glob("tests/*/*.sh")) + ["Makefile"]
    for f in scripts:
        check(f, comments_hash(open(f, encoding="utf-8").read(), f.endswith(".py")), bad)
    docs = ["README.md"] + sorted(glob.glob("doc/*.md") + glob.glob("doc/*.scd"))
    for f in docs:
        check(f, [(1, open(f, encoding="utf-8").read())], bad)
    for b in bad:
        print(b)
    n = len(c_files) + len(scripts) + len(docs)
    print(f"refs_check: {n} files, {len(bad)} references to files that do not exist")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
