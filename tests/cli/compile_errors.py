#!/usr/bin/env python3
"""Issue 43 item 8: a spec with a newcomer's mistake stops the compiler with an
error that names the mistake AND where it is, in little output.

Usage: compile_errors.py CXX INCLUDE SOURCE MAX_BYTES CASE...

Each CASE is the block `#elif defined(CASE_name)` of SOURCE. Its one line
marked `// expect: TEXT` is where the mistake is (the action(...), init(...),
invariant(...) or spec<State>(...) call at fault, or the user's own
expression). The case passes when SOURCE compiled with -DCASE_name fails,
the first line holding "error:" is at SOURCE:LINE: and contains TEXT, and the
whole output (stdout and stderr) holds at most MAX_BYTES bytes (16 KB: issue
43 found one mistake printing 64 to 384 KB)."""
import os
import re
import subprocess
import sys

MARK = re.compile(r"//\s*expect:\s*(.+?)\s*$")


def expectation(source_lines, case):
    """(line number, TEXT) of the case's `// expect:` mark; one mark per case."""
    start = None
    for number, line in enumerate(source_lines, 1):
        if re.match(rf"#(el)?if defined\(CASE_{re.escape(case)}\)\s*$", line):
            start = number
        elif start is not None and re.match(r"#(elif|endif)", line):
            break
        elif start is not None and MARK.search(line):
            return number, MARK.search(line).group(1)
    raise SystemExit(f"{case}: no `#elif defined(CASE_{case})` block with a `// expect: TEXT` line in the source")


def check(cxx, include, source, limit, case, source_lines):
    """The case's problem, or None when its error is as pinned."""
    line, text = expectation(source_lines, case)
    run = subprocess.run([cxx, "-std=c++20", "-fsyntax-only", "-fno-diagnostics-color", f"-DCASE_{case}",
                          f"-I{include}", source],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, errors="replace")
    output = run.stdout
    errors = [l for l in output.splitlines() if "error:" in l]
    if run.returncode == 0 or not errors:
        return "compiled, expected an error"
    first = errors[0]
    where = f"{os.path.basename(source)}:{line}:"
    if where not in first:
        return f"the first error is not at {where} (the mistake's line): {first[:300]}"
    if text not in first:
        return f"the first error does not say `{text}`: {first[:300]}"
    size = len(output.encode())
    if size > limit:
        return f"{size} bytes of compiler output, more than {limit}"
    print(f"{case}: {size} bytes, {len(errors)} error line(s), first: {first[:200]}")
    return None


def main():
    cxx, include, source, limit, cases = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
    with open(source, encoding="utf-8") as f:
        source_lines = f.read().splitlines()
    failures = [(case, problem) for case in cases
                if (problem := check(cxx, include, source, limit, case, source_lines)) is not None]
    for case, problem in failures:
        print(f"FAIL {case} ({os.path.basename(cxx)}): {problem}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
