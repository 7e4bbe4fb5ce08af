#!/usr/bin/env python3
"""The README's bad-input and hostile-file tables, checked: every row whose example is a
command is run (bash with pipefail, in a scratch folder, the binary under
test first on PATH) and must exit with the row's code and print the row's
line on standard error ("..." or "…" in the line matches any text). Rows
without a command name the test that covers them and are listed as such.
Usage: badinput_table.py CUTBOARD [README]"""
import os
import re
import subprocess
import sys
import tempfile

CB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "cutboard")
README = sys.argv[2] if len(sys.argv) > 2 else "README.md"
MARKS = ("<!-- bad-input table:", "<!-- hostile-file table:")


def rows(text):
    lines = text.split("\n")
    starts = [i for i, l in enumerate(lines) if l.startswith(MARKS)]
    for start in starts:
        yield from table(lines, start)


def table(lines, start):
    for line in lines[start + 3:]:
        if not line.startswith("|"):
            break
        # cells split on | but not on \| (a pipe inside a command)
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        yield cells


def code_span(cell):
    m = re.fullmatch(r"`(.*)`", cell)
    return m.group(1) if m else None


def matches(pattern, line):
    parts = re.split(r"…|\.\.\.", pattern)
    return re.fullmatch(".*".join(re.escape(p) for p in parts), line) is not None


def main():
    passed = failed = skipped = 0
    bindir = tempfile.mkdtemp()
    os.symlink(CB, os.path.join(bindir, "cutboard"))
    env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"], LC_ALL="C.UTF-8")
    for what, example, shown, code in rows(open(README, encoding="utf-8").read()):
        # (every output in the table is a PDF: none may be left)
        cmd, line = code_span(example), code_span(shown)
        if cmd is None:
            skipped += 1
            print(f"skip {what}: {example}")
            continue
        with tempfile.TemporaryDirectory() as work:
            r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=work, env=env,
                               capture_output=True, text=True, timeout=120)
            err = r.stderr.rstrip("\n").split("\n")
            ok = r.returncode == int(code) and len(err) == 1 and matches(line, err[0])
            left = sorted(f for f in os.listdir(work) if f.endswith((".pdf", ".svg")))
            ok = ok and not left  # nothing written
        passed += ok
        failed += not ok
        print(("ok   " if ok else "FAIL ") + f"{what}: {cmd}" +
              ("" if ok else f"\n  exit {r.returncode} (table: {code})\n  stderr: {r.stderr!r}"
               f"\n  table:  {line!r}\n  files left: {left}"))
    print(f"{passed} passed, {failed} failed, {skipped} rows covered elsewhere")
    sys.exit(1 if failed or passed == 0 else 0)


main()
