#!/usr/bin/env python3
"""Fails when a relative link of a Markdown document points nowhere.

Every `[text](target)` and `![alt](target)` outside code (fenced blocks and
`inline code`) of every *.md in the repository: the target, relative to the
document, must be an existing file or folder, and a `#anchor` must be the
GitHub slug of one of its headings (a bare `#anchor`: of the document's own).
Links with a scheme (https:, mailto:) are not followed.

Usage: check_links.py ROOT          (exit 1 and one line per broken link)
       check_links.py --self-test
"""
import os
import re
import sys
import tempfile

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```+|~~~+)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
SKIP_DIRS = {".git"}


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*?|__?", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def prose_lines(path):
    """(line number, text, text without inline code) of the lines outside fenced blocks."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    fence = None
    for number, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if m:
            fence = None if fence and m.group(1).startswith(fence) else (fence or m.group(1))
            continue
        if fence is None:
            yield number, line, re.sub(r"`[^`]*`", "", line)


def anchors(path, cache):
    if path not in cache:
        found, counts = set(), {}
        for _, line, _ in prose_lines(path):
            m = HEADING.match(line)
            if m:
                base = slug(m.group(2))
                n = counts.get(base, 0)
                counts[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")  # a repeated heading gets -1, -2, ...
        cache[path] = found
    return cache[path]


def broken_links(root, document, cache):
    here = os.path.dirname(document)
    for number, _, line in prose_lines(document):
        for target in LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(here, path)) if path else document
            where = f"{os.path.relpath(document, root)}:{number}"
            if not os.path.exists(full):
                yield f"{where}: link to {target}: {path} does not exist; fix the path"
            elif anchor and (not full.endswith(".md") or anchor not in anchors(full, cache)):
                yield f"{where}: link to {target}: {os.path.relpath(full, root)} has no heading #{anchor}; " \
                      "link to a heading it has"


def documents(root):
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS
                         and not os.path.isfile(os.path.join(folder, d, "CMakeCache.txt")))
        for name in sorted(files):
            if name.endswith(".md"):
                yield os.path.join(folder, name)


def check(root):
    cache, found, count = {}, [], 0
    for document in documents(root):
        count += 1
        found += broken_links(root, document, cache)
    return found, count


def self_test():
    root = tempfile.mkdtemp(prefix="check_links_self.")
    os.makedirs(os.path.join(root, "docs"))
    with open(os.path.join(root, "docs", "a.md"), "w") as f:
        f.write("# A\n\n## The `check` flags\n\n## Twice\n\n## Twice\n")
    cases = {
        "a good file, heading and repeated heading link pass":
            ("[a](docs/a.md) [b](docs/a.md#the-check-flags) [c](docs/a.md#twice-1) [d](#top)\n# Top\n", 0),
        "a missing file fails": ("[a](docs/b.md)\n", 1),
        "a missing anchor fails": ("[a](docs/a.md#nowhere)\n", 1),
        "links in code are not followed": ("`[a](x.md)`\n```\n[a](x.md)\n```\n", 0),
        "a web link is not followed": ("[a](https://example.com/x.md)\n", 0),
    }
    failed = 0
    for name, (text, want) in cases.items():
        with open(os.path.join(root, "README.md"), "w") as f:
            f.write(text)
        got = len(check(root)[0])
        print(("ok    " if got == want else "FAIL  ") + name + ("" if got == want else f": {got} broken, want {want}"))
        failed += got != want
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        sys.exit("usage: check_links.py ROOT | --self-test")
    found, count = check(os.path.abspath(sys.argv[1]))
    for line in found:
        print(line)
    print(f"{count} documents, {len(found)} broken links")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
