#!/usr/bin/env python3
"""The documentation is true: every shell example of README.md and of the
man pages (doc/*.scd) runs against the samples and shows what it says.

Examples are fenced blocks. In a block, a line "$ COMMAND" is run (lines
ending in a backslash continue it) and the lines after it, up to the next
"$ " line, are its expected output (standard output and standard error
together); "..." stands for any number of lines. In a block without "$ "
lines (```sh in Markdown) every line is a command whose output is not
shown. A command must exit 0 unless its expected output holds an error
line ("cutboard: ..."). A block marked just before its fence with
"<!-- not run ... -->" (Markdown) or "; not run ..." (scdoc) is skipped,
with the reason printed. The C program of the README (```c) is compiled
against the tree's library and run.

The commands of one file share a fresh folder holding a copy of samples/;
"cutboard" is the binary under test. Usage: docs_check.py CUTBOARD LIB ["CC FLAGS"]."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

CB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "cutboard")
LIB = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else "build/libcutboard.a")
CC = (sys.argv[3] if len(sys.argv) > 3 else "cc").split()  # with the library's sanitizer flags
TOP = os.getcwd()
FILES = ["README.md"] + sorted("doc/" + f for f in os.listdir("doc") if f.endswith(".scd"))
passed = failed = skipped = 0


def report(ok, what, detail=""):
    global passed, failed
    passed += ok
    failed += not ok
    print(("ok   " if ok else "FAIL ") + what + ("" if ok or not detail else "\n" + detail))


def blocks(path):
    """(language, first line number, lines, skip reason) of each fenced block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    scdoc = path.endswith(".scd")
    out, i, note = [], 0, None
    while i < len(lines):
        raw = lines[i]
        line = raw[1:] if scdoc and raw.startswith("\t") else raw
        m = re.match(r"^```(\w*)\s*$", line)
        if m:
            lang, start, body = m.group(1), i + 1, []
            i += 1
            while i < len(lines):
                inner = lines[i][1:] if scdoc and lines[i].startswith("\t") else lines[i]
                if inner.startswith("```"):
                    break
                body.append(inner)
                i += 1
            out.append((lang, start + 1, body, note))
            note = None
        elif re.match(r"^(<!-- not run|; not run)", raw):
            note = raw.strip("<!-;> ")
        elif raw.strip():
            note = None
        i += 1
    return out


def sessions(body):
    """[(command, expected lines or None)] of a block."""
    if not any(l.startswith("$ ") for l in body):
        cmds, cur = [], ""
        for l in body:
            if not l.strip() or l.lstrip().startswith("#"):
                continue
            cur += l[:-1] + " " if l.endswith("\\") else l
            if not l.endswith("\\"):
                cmds.append((cur, None))
                cur = ""
        return cmds
    out = []
    for l in body:
        if l.startswith("$ "):
            out.append([l[2:], []])
        elif out and out[-1][0].endswith("\\") and not out[-1][1]:
            out[-1][0] = out[-1][0][:-1] + " " + l.strip()
        elif out:
            out[-1][1].append(l)
    return [(c, e) for c, e in out]


def matches(expected, got):
    """Expected lines against the output; "..." matches any lines."""
    if not expected:
        return True
    if expected[0].strip() == "...":
        return any(matches(expected[1:], got[k:]) for k in range(len(got) + 1))
    return bool(got) and expected[0].rstrip() == got[0].rstrip() and matches(expected[1:], got[1:])


def run_file(path):
    global skipped
    with tempfile.TemporaryDirectory() as work:
        os.mkdir(os.path.join(work, "bin"))
        os.symlink(CB, os.path.join(work, "bin", "cutboard"))
        shutil.copytree(os.path.join(TOP, "samples"), os.path.join(work, "samples"),
                        ignore=shutil.ignore_patterns("*.pdf", "*.png"))
        env = {"PATH": os.path.join(work, "bin") + ":/usr/local/bin:/usr/bin:/bin",
               "LC_ALL": "C.UTF-8", "HOME": work}
        if "CUTBOARD_DATA" in os.environ:  # a binary in a build folder (make check)
            env["CUTBOARD_DATA"] = os.environ["CUTBOARD_DATA"]
        for lang, line, body, note in blocks(path):
            where = f"{path}:{line}"
            if note:
                skipped += 1
                print(f"skip {where}: {note}")
                continue
            if lang == "c":
                run_c(body, work, env, where)
                continue
            if lang not in ("", "sh", "console") or (lang == "" and not any(l.startswith("$ ") for l in body)):
                continue
            for cmd, expected in sessions(body):
                r = subprocess.run(["sh", "-c", cmd], cwd=work, env=env, capture_output=True,
                                   text=True, timeout=300)
                got = (r.stdout + r.stderr).rstrip("\n").split("\n") if (r.stdout + r.stderr) else []
                wants_error = bool(expected) and any(l.startswith("cutboard: ") for l in expected)
                ok = (r.returncode == 0 or wants_error) and (expected is None or matches(expected, got))
                report(ok, f"{where}: {cmd}",
                       f"exit {r.returncode}\n--- shown\n" + "\n".join(expected or []) +
                       "\n--- got\n" + "\n".join(got))


def run_c(body, work, env, where):
    """The README's library example, built against this tree; it finds the
    tree's data through $CUTBOARD_DATA, as an installed one finds its own
    (tests/deb.sh runs it against the installed packages)."""
    open(os.path.join(work, "example.c"), "w").write("\n".join(body))
    cc = subprocess.run(CC + ["-std=c11", "-I" + os.path.join(TOP, "include"), "example.c", LIB,
                         "-lhpdf", "-lpng", "-lcjson", "-ldeflate", "-lz", "-lm", "-lpthread", "-o", "example"],
                        cwd=work, capture_output=True, text=True)
    r = subprocess.run(["./example"], cwd=work, env={**env, "CUTBOARD_DATA": env.get("CUTBOARD_DATA", TOP)},
                       capture_output=True, text=True) \
        if cc.returncode == 0 else None
    pdf = os.path.join(work, "library.pdf")
    ok = r is not None and r.returncode == 0 and os.path.exists(pdf) and \
        open(pdf, "rb").read(5) == b"%PDF-"
    report(ok, f"{where}: the C example builds, runs and writes library.pdf",
           cc.stderr + (r.stderr if r else ""))


for f in FILES:
    run_file(f)
print(f"{passed} passed, {failed} failed, {skipped} blocks not run (marked)")
sys.exit(1 if failed else 0)
