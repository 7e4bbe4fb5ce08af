#!/usr/bin/env python3
"""The man page and --help agree: every option a command's --help prints is
listed in that command's part of doc/cutboard.1.scd, and every option listed
there is in its --help. A command's part is its section "## cutboard COMMAND"
plus the shared sections named in SHARED. To add an option: add it to the
help text and to the man page; to add a command: add it to COMMANDS.
Usage: man_check.py CUTBOARD [MAN_SOURCE]."""
import re
import subprocess
import sys

COMMANDS = ["game", "render", "check", "cut", "deck", "deck merge", "network", "serve"]
SHARED = {"game": ["BOARD OPTIONS", "PRINT-SHOP OPTIONS"],
          "deck": ["BOARD OPTIONS", "PRINT-SHOP OPTIONS"]}
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z-]*|-[A-Za-z])(?![\w-])")

cutboard = sys.argv[1] if len(sys.argv) > 1 else "./cutboard"
source = open(sys.argv[2] if len(sys.argv) > 2 else "doc/cutboard.1.scd", encoding="utf-8").read()


def help_options(command):
    """Options at the start of a --help line: "  -o, --output FILE" and
    "      --json FILE"."""
    text = subprocess.run([cutboard, *command.split(), "--help"], capture_output=True, text=True,
                          check=True).stdout
    found = set()
    for line in text.splitlines():
        m = re.match(r"^ {2,8}((?:-[A-Za-z], )?--[a-z][a-z-]*)", line)
        if m:
            found.update(OPTION.findall(m.group(1)))
    return found


def sections():
    """Section title ("cutboard game", "BOARD OPTIONS") -> its text."""
    parts, title = {}, None
    for line in source.splitlines():
        m = re.match(r"^#{1,2} (.+)$", line)
        if m:
            title = m.group(1).strip()
            parts[title] = []
        elif title:
            parts[title].append(line)
    return parts


def man_options(parts, command):
    """Options of the definition lines (unindented, starting "*-") of the
    command's section and its shared sections."""
    found = set()
    for title in [f"cutboard {command}"] + SHARED.get(command, []):
        if title not in parts:
            sys.exit(f"doc/cutboard.1.scd has no section \"{title}\"")
        for line in parts[title]:
            if line.startswith("*-"):
                found.update(OPTION.findall(line.replace("*", " ")))
    return found


failed = 0
parts = sections()
for command in COMMANDS:
    in_help, in_man = help_options(command), man_options(parts, command)
    for opt in sorted(in_help - in_man):
        print(f"FAIL {command}: {opt} is in --help but not in the man page")
        failed += 1
    for opt in sorted(in_man - in_help):
        print(f"FAIL {command}: {opt} is in the man page but not in --help")
        failed += 1
    if in_help == in_man:
        print(f"ok   {command}: the man page lists its {len(in_help)} options, as --help does")
    if len(in_help) < 4:
        print(f"FAIL {command}: only {len(in_help)} options read from --help")
        failed += 1
sys.exit(1 if failed else 0)
