#!/usr/bin/env python3
"""Checks every code block of a document (README.md, the spec READMEs, TRACES.md, docs/*.md), so
that the documents cannot rot.

Each fenced block must be preceded (on the line before its fence) by one tag:

  <!-- snippet: PATH#REGION -->   the block equals the lines between the markers
                                 `// [REGION]` and `// [REGION-end]` (or `# [...]`
                                 in CMake files) of PATH, a file the build compiles
                                 or configures; the region is dedented, and marker
                                 lines of other regions inside it are dropped.
  <!-- snippet: PATH -->          the block equals the whole file.
  <!-- run: DIR -->               a console transcript: each `$ command` line is run
  <!-- run -->                    by bash, in order, in a scratch copy of DIR (one
                                 copy shared by every block naming DIR, `.` the
                                 repository, build folders and .git left out; an
                                 empty folder without DIR), with the built binaries first
                                 on PATH; the output (stdout and stderr) must equal
                                 the lines that follow the command.
  <!-- checked-by: FILE "text" --> a block another test or script checks: FILE must
                                 exist and contain each quoted text.
  <!-- not-checked: REASON -->   a block nothing can run or compare (an illustration,
                                 a sketch of a format): REASON says why, in words.
                                 Keep these rare; every one is counted in the summary.

Rules for console output: a line `...` matches any number of lines; numbers
followed by a unit that varies from run to run (` s`, `s`, ` MiB`, ` GiB`,
` threads`, ` distinct states/s`, ` bytes/state`) are not compared; runs of
spaces inside a line count as one. Indented (4-space) code blocks are refused.

With --update-traces, a console block whose output differs only inside the
counterexample traces it shows (the lines from `  0: initial state` to the last
step's fields, with no `...` among them) gets those traces rewritten from what
the commands print now: the tool for a change to the trace format. Review the
diff, and run the check again.

Usage: check_readme.py --root DIR --readme README.md [--readme OTHER.md ...] --bin NAME=PATH ...
                       [--home DIR] [--cxx COMPILER] [--env NAME=VALUE ...] [--update-traces]

Console blocks never see the caller's CMAKE_PREFIX_PATH: a document that builds
against an installed statecheck says where it is (the README installs into
"$HOME/.local"; --home points HOME at a scratch folder that later documents share).
       check_readme.py --self-test --root DIR --bin statecheck=PATH
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

TAG = re.compile(r"^<!--\s*(snippet|run|checked-by|not-checked)\s*:?\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(```+|~~~+)\s*([\w+-]*)\s*$")
VARYING = re.compile(
    r"\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?(?=\s?(?:s\b|MiB|GiB|KiB|threads?\b|distinct states/s|bytes/state))")


class Failure(Exception):
    pass


def parse_blocks(lines, readme):
    """Yields (tag, argument, language, first content line number, content lines)."""
    blocks, problems = [], []
    i = 0
    in_list_gap = False
    while i < len(lines):
        line = lines[i]
        fence = FENCE.match(line)
        if fence:
            start = i
            close = fence.group(1)
            i += 1
            body = []
            while i < len(lines) and lines[i].rstrip() != close:
                body.append(lines[i])
                i += 1
            if i == len(lines):
                problems.append(f"{readme}:{start + 1}: code block never closed")
                break
            tag = TAG.match(lines[start - 1].strip()) if start > 0 else None
            if not tag:
                problems.append(f"{readme}:{start + 1}: code block without a tag; precede it with "
                                "<!-- snippet: FILE#REGION -->, <!-- run: DIR -->, <!-- checked-by: FILE --> "
                                "or <!-- not-checked: REASON -->")
            else:
                blocks.append((tag.group(1), tag.group(2), fence.group(2), start + 2, body))
        elif (line.startswith("    ") or line.startswith("\t")) and i > 0 and lines[i - 1].strip() == "" \
                and not in_list_gap:
            problems.append(f"{readme}:{i + 1}: indented code block; use a fenced block with a tag")
        if line.strip():
            in_list_gap = bool(re.match(r"^\s*([-*]|\d+\.)\s", line)) or (in_list_gap and line.startswith("  "))
        i += 1
    return blocks, problems


def region(root, spec):
    path, _, name = spec.partition("#")
    full = os.path.join(root, path)
    if not os.path.isfile(full):
        raise Failure(f"snippet source {path} does not exist")
    with open(full, encoding="utf-8") as f:
        text = f.read().splitlines()
    if not name:
        return text
    marker = re.compile(r"^\s*(//|#)\s*\[([\w-]+)\]\s*$")
    begin = [k for k, l in enumerate(text) if (m := marker.match(l)) and m.group(2) == name]
    end = [k for k, l in enumerate(text) if (m := marker.match(l)) and m.group(2) == name + "-end"]
    if len(begin) != 1 or len(end) != 1 or end[0] < begin[0]:
        raise Failure(f"{path} needs exactly one '// [{name}]' line followed by one '// [{name}-end]' line")
    body = [l for l in text[begin[0] + 1:end[0]] if not marker.match(l)]
    indent = min((len(l) - len(l.lstrip()) for l in body if l.strip()), default=0)
    return [l[indent:] for l in body]


def check_snippet(root, spec, body, first_line, readme):
    want = region(root, spec)
    for k in range(max(len(want), len(body))):
        have = body[k] if k < len(body) else "<end of block>"
        source = want[k] if k < len(want) else "<end of region>"
        if have.rstrip() != source.rstrip():
            raise Failure(f"{readme}:{first_line + k}: block differs from {spec}: README has\n    {have}\n"
                          f"  the source has\n    {source}\n  copy the region into the README (or fix the source)")


def normalize(line):
    line = VARYING.sub("#", line.rstrip())
    indent = len(line) - len(line.lstrip())
    return line[:indent] + re.sub(r"\s+", " ", line[indent:])


def match_transcript(expected, actual):
    """None when `actual` matches `expected`, else (expected index, actual index) of the mismatch."""
    exp = [normalize(l) for l in expected]
    act = [normalize(l) for l in actual]
    seen, pending, furthest = set(), [(0, 0)], (0, 0)
    while pending:
        i, j = pending.pop()
        if (i, j) in seen:
            continue
        seen.add((i, j))
        if (i, -j) > (furthest[0], -furthest[1]):
            furthest = (i, j)
        if i == len(exp):
            if j == len(act):
                return None
            continue
        if exp[i].strip() == "...":
            pending.append((i + 1, j))
            if j < len(act):
                pending.append((i, j + 1))
        elif j < len(act) and exp[i] == act[j]:
            pending.append((i + 1, j + 1))
    return furthest


TRACE_LINE = re.compile(r"^  \d+: |^       \S|^\.\.\.$")
STEP_LINE = re.compile(r"^  \d+: ")


def trace_regions(lines):
    """[begin, end) of each shown trace: from `  0: initial state` through its steps' lines."""
    regions, k = [], 0
    while k < len(lines):
        if lines[k].rstrip() == "  0: initial state":
            end = k + 1
            while end < len(lines) and TRACE_LINE.match(lines[end]):
                end += 1
            regions.append((k, end))
            k = end
        else:
            k += 1
    return regions


def steps_of(lines):
    """A trace region split into its steps: each a header line and the lines under it."""
    steps = []
    for line in lines:
        if STEP_LINE.match(line) or not steps:
            steps.append([line])
        else:
            steps[-1].append(line)
    return steps


def updated_traces(body, actual):
    """`body` with its traces replaced by those of `actual` when they are all that differs, else None.
    A step whose fields the document elides (`...` alone under its header) stays elided."""
    mine, theirs = trace_regions(body), trace_regions(actual)
    if len(mine) != len(theirs):
        return None
    new, at = [], 0
    for (b, e), (ab, ae) in zip(mine, theirs):
        kept, fresh = steps_of(body[b:e]), steps_of(actual[ab:ae])
        if len(kept) != len(fresh):
            return None
        region = []
        for old_step, new_step in zip(kept, fresh):
            elided = old_step[1:] == ["..."]
            if not elided and any(l.strip() == "..." for l in old_step):
                return None
            region += new_step[:1] + (["..."] if elided else new_step[1:])
        new += body[at:b] + region
        at = e
    new += body[at:]
    return new if match_transcript(new, actual) is None else None


def check_transcript(body, first_line, workdir, env, readme, updates=None):
    commands = [(k, l[2:]) for k, l in enumerate(body) if l.startswith("$ ")]
    if not commands or commands[0][0] != 0:
        raise Failure(f"{readme}:{first_line}: a console block starts with a '$ command' line")
    # Each command sees the previous one's status in $?, as at a prompt.
    script = ["status_of_previous() { return $1; }", "previous=0"]
    for _, command in commands:
        script.append("printf '%s\\n' " + shlex_quote("$ " + command))
        script.append("status_of_previous $previous")
        script.append(command)
        script.append("previous=$?")
    result = subprocess.run(["bash", "-c", "\n".join(script)], cwd=workdir, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, errors="replace")
    actual = result.stdout.splitlines()
    mismatch = match_transcript(body, actual)
    if mismatch is None:
        return
    if updates is not None and (new := updated_traces(body, actual)) is not None:
        updates.append((first_line, len(body), new))
        return
    i, j = mismatch
    wanted = body[i] if i < len(body) else "<end of block>"
    got = actual[j] if j < len(actual) else "<end of output>"
    context = "\n".join("    | " + l for l in actual[max(0, j - 3):j + 4])
    raise Failure(f"{readme}:{first_line + i}: console output differs: README has\n    {wanted}\n"
                  f"  the command printed\n    {got}\n  output around it:\n{context}\n"
                  f"  (in {workdir}; update the README or the code)")


def not_copied(folder, names):
    """What a scratch copy leaves out: build folders (stale, and large: a copy of the whole
    repository would take every build tree in it) and .git."""
    return [n for n in names if n in ("build", ".git") or os.path.isfile(os.path.join(folder, n, "CMakeCache.txt"))]


def shlex_quote(s):
    return "'" + s.replace("'", "'\"'\"'") + "'"


def check_readme(args, readme_path, scratch=None):
    """(problems, blocks, blocks marked not-checked) of one document; `scratch` defaults to args.scratch."""
    with open(readme_path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    readme = os.path.relpath(readme_path, args.root) if readme_path.startswith(args.root) else readme_path
    blocks, problems = parse_blocks(lines, readme)
    scratch = scratch or args.scratch or tempfile.mkdtemp(prefix="check_readme.")
    shutil.rmtree(scratch, ignore_errors=True)
    bindir = os.path.join(scratch, "bin")
    os.makedirs(bindir)
    for entry in args.bin:
        name, _, path = entry.partition("=")
        os.symlink(os.path.abspath(path), os.path.join(bindir, name))
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""), LC_ALL="C")
    env.pop("CMAKE_PREFIX_PATH", None)  # a document that needs a prefix names it, as a reader would
    if args.home:  # an install to "$HOME/..." goes to a scratch folder, and a later document finds it there
        env["HOME"] = os.path.abspath(args.home)
        os.makedirs(env["HOME"], exist_ok=True)
    if args.cxx:
        env["CXX"] = args.cxx
    for entry in args.env:  # only what changes the speed, never the outcome (a compiler launcher)
        name, _, value = entry.partition("=")
        env[name] = value
    workdirs = {}
    updates = [] if getattr(args, "update_traces", False) else None
    for tag, argument, language, first, body in blocks:
        try:
            if tag == "snippet":
                check_snippet(args.root, argument, body, first, readme)
            elif tag == "not-checked":
                if len(argument.split()) < 2:
                    raise Failure(f"{readme}:{first - 1}: not-checked needs a reason in words, "
                                  "e.g. <!-- not-checked: an illustration of the layout -->")
            elif tag == "run":
                if language != "console":
                    raise Failure(f"{readme}:{first - 1}: <!-- run --> goes with a ```console block")
                if argument not in workdirs:
                    # `run: .` (the repository) gets a folder of its own, beside the copies of its subfolders.
                    name = {"": "empty", ".": "repository"}.get(os.path.normpath(argument) if argument else "",
                                                                argument.strip("/"))
                    workdirs[argument] = os.path.join(scratch, "work", name)
                    if argument:
                        # A build/ left by following the tutorial in place would be stale here.
                        shutil.copytree(os.path.join(args.root, argument), workdirs[argument],
                                        ignore=not_copied)
                    else:
                        os.makedirs(workdirs[argument])
                check_transcript(body, first, workdirs[argument], env, readme, updates)
            else:
                path = argument.split('"')[0].strip()
                full = os.path.join(args.root, path)
                if not path or not os.path.isfile(full):
                    raise Failure(f"{readme}:{first - 1}: checked-by names '{path}', which is not a file")
                with open(full, encoding="utf-8") as f:
                    text = f.read()
                for quoted in re.findall(r'"([^"]+)"', argument):
                    if quoted not in text:
                        raise Failure(f"{readme}:{first - 1}: {path} does not contain \"{quoted}\"")
        except Failure as e:
            problems.append(str(e))
    if updates:
        for first, length, new in reversed(updates):  # from the end, so earlier line numbers stay valid
            lines[first - 1:first - 1 + length] = new
        with open(readme_path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        print(f"{readme}: rewrote the traces of {len(updates)} console blocks")
    return problems, len(blocks), sum(1 for b in blocks if b[0] == "not-checked")


def self_test(args):
    """The checker itself must fail on drift, untagged blocks and wrong output."""
    root = tempfile.mkdtemp(prefix="check_readme_self.")
    args.root = root
    with open(os.path.join(root, "spec.hpp"), "w") as f:
        f.write("int a;\n  // [r]\n  int x = 1;\n  // [r-end]\n")

    def run(text):
        path = os.path.join(root, "README.md")
        with open(path, "w") as f:
            f.write(text)
        args.scratch = os.path.join(root, "scratch")
        return check_readme(args, path)[0]

    good = ("<!-- snippet: spec.hpp#r -->\n```cpp\nint x = 1;\n```\n\n"
            "<!-- run -->\n```console\n$ statecheck check die-hard --quiet --threads 3\nstatecheck: die-hard\n"
            "violation: invariant NotSolved fails after 6 steps\n...\n  6: BigToSmall\n       big: 5 -> 4\n"
            "       small: 2 -> 3\n$ echo $?\n1\n```\n")
    cases = {
        "a matching README passes": (good, None),
        "a drifted snippet fails": (good.replace("int x = 1;", "int x = 2;"), "README.md:3: block differs"),
        "a missing region fails": (good.replace("#r", "#s"), "needs exactly one '// [s]'"),
        "an untagged block fails": ("```cpp\nint x = 1;\n```\n", "README.md:1: code block without a tag"),
        "an indented block fails": ("text\n\n    statecheck list\n", "README.md:3: indented code block"),
        "wrong console output fails": (good.replace("6 steps", "5 steps"), "README.md:10: console output differs"),
        "a wrong exit status fails": (good.replace("\n1\n```", "\n0\n```"), "README.md:16: console output differs"),
        "a not-checked block with a reason passes": ("<!-- not-checked: an illustration only -->\n```\nx\n```\n", None),
        "a not-checked block without a reason fails": ("<!-- not-checked -->\n```\nx\n```\n",
                                                       "README.md:2: not-checked needs a reason"),
    }
    failed = 0
    for name, (text, expect) in cases.items():
        problems = run(text)
        ok = (not problems) if expect is None else (len(problems) == 1 and expect in problems[0])
        print(("ok    " if ok else "FAIL  ") + name + ("" if ok else f": got {problems}"))
        failed += 0 if ok else 1
    shutil.rmtree(root, ignore_errors=True)
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True, help="repository root; tag paths are relative to it")
    parser.add_argument("--readme", action="append", default=[], help="a document to check (repeatable)")
    parser.add_argument("--bin", action="append", default=[], help="NAME=PATH put on PATH for console blocks")
    parser.add_argument("--home", help="HOME for console blocks: where a documented install into $HOME goes")
    parser.add_argument("--env", action="append", default=[],
                        help="NAME=VALUE for console blocks, e.g. CMAKE_CXX_COMPILER_LAUNCHER=ccache (repeatable)")
    parser.add_argument("--cxx", help="C++ compiler for console blocks that configure CMake projects")
    parser.add_argument("--scratch", help="folder for copies and builds (emptied first)")
    parser.add_argument("--self-test", action="store_true", help="check that the checker catches drift")
    parser.add_argument("--update-traces", action="store_true",
                        help="rewrite the traces of console blocks that differ only there")
    args = parser.parse_args()
    args.root = os.path.abspath(args.root)
    if args.self_test:
        return self_test(args)
    if not args.readme:
        parser.error("give --readme FILE (one or more)")
    failed = 0
    for k, path in enumerate(args.readme):
        # Each document gets its own scratch folder: its console blocks start from a clean copy.
        scratch = os.path.join(args.scratch, str(k)) if args.scratch and len(args.readme) > 1 else None
        problems, count, unchecked = check_readme(args, os.path.abspath(path), scratch)
        for p in problems:
            print(p, file=sys.stderr)
        name = os.path.relpath(os.path.abspath(path), args.root)
        print(f"{name}: {count} code blocks, {unchecked} of them marked not-checked, {len(problems)} with problems")
        failed += 1 if problems else 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
