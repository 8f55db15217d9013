#!/usr/bin/env python3
"""Fails when a file of the repository refers to a file outside it.

The project once pointed at a sibling folder of the checkout (bug reports, briefs,
the design, the peer models) that a clone does not have. Everything a reader or a
script needs now lives in the repository; this check keeps it so.

Usage: check_self_contained.py ROOT      (exit 1 and one line per reference found)
"""
import os
import re
import sys

# Spelled in two pieces so that this file does not match itself (nor `grep -rn` for it).
OUTSIDE = re.compile(r"\.\./" + "shared" + r"|/work/" + "shared")
SKIP_DIRS = {".git"}


def build_dir(path):
    return os.path.isfile(os.path.join(path, "CMakeCache.txt"))


def references(root):
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not build_dir(os.path.join(folder, d)))
        for name in sorted(files):
            path = os.path.join(folder, name)
            try:
                with open(path, encoding="utf-8") as f:
                    lines = f.read().splitlines()
            except (UnicodeDecodeError, OSError):
                continue  # binary files: nothing to follow
            for number, line in enumerate(lines, 1):
                if OUTSIDE.search(line):
                    yield f"{os.path.relpath(path, root)}:{number}: refers outside the repository: {line.strip()}"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_self_contained.py ROOT")
    found = list(references(sys.argv[1]))
    for line in found:
        print(line)
    print(f"{len(found)} references to files outside the repository")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
