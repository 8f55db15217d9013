#!/usr/bin/env python3
"""Fails when an include in the library points up the pipeline.

The library's folders are layers, lowest first (docs/design.md, "Folders"):

  include/statecheck         the installed headers: the DSL and API, and in detail/
                             what a spec's translation unit needs of the engine (one
                             layer: the public headers and their detail include each other)
  src/model                  the type-erased model: registry, model view, labels, replay, self-checks
  src/store                  visited and exact sets, trace log, frontier and checkpoint files
  src/liveness               the reachable graph with fairness instances, fair cycles, lassos
  src/search                 the breadth-first search and its parts
  src/report                 text, JSON, HTML, DOT, coverage
  src/tools                  replay, simulate, emitted tests
  src/cli                    the command line

A file may include its own layer and those below it. Anything else is an
upward edge: it prints one line per edge (file, line, the include, both
layers) and exits 1. `--print` lists the folder-to-folder edges and counts.

Every spec's translation unit compiles the installed headers, so they name
the Boost.Hana headers of what they use, never all of Hana (<boost/hana.hpp>
doubles what the preprocessor reads of Hana in each one): such an include
fails too.
"""
import argparse
import collections
import pathlib
import re
import sys

LAYERS = [
    "include/statecheck",
    "src/model",
    "src/store",
    "src/liveness",
    "src/search",
    "src/report",
    "src/tools",
    "src/cli",
]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
WHOLE_HANA = re.compile(r'^\s*#\s*include\s+<boost/hana\.hpp>')


def layer_of_file(lib: pathlib.Path, path: pathlib.Path):
    rel = path.relative_to(lib).as_posix()
    for name in sorted(LAYERS, key=len, reverse=True):
        if rel.startswith(name + "/"):
            return name
    return None


def layer_of_include(target: str):
    """The layer an include names: "statecheck/detail/x.hpp", "statecheck/x.hpp", "model/x.hpp"."""
    if target.startswith("statecheck/"):
        return "include/statecheck"
    folder = target.split("/", 1)[0]
    return "src/" + folder if "src/" + folder in LAYERS else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lib", type=pathlib.Path, nargs="?", help="the library folder (lib/)")
    parser.add_argument("--self-test", action="store_true", help="check that an upward include fails")
    parser.add_argument("--print", action="store_true", help="list the folder edges")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if args.lib is None:
        parser.error("give the library folder (lib/)")
    return check(args.lib.resolve(), args.print)


def self_test() -> int:
    """A model file that includes a report header must fail; the same tree without it must pass."""
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        lib = pathlib.Path(tmp)
        (lib / "src/model").mkdir(parents=True)
        (lib / "src/report").mkdir(parents=True)
        (lib / "src/report/text.hpp").write_text('#include "model/view.hpp"\n')
        (lib / "src/model/view.hpp").write_text('#include "statecheck/result.hpp"\n')
        (lib / "include/statecheck").mkdir(parents=True)
        (lib / "include/statecheck/spec.hpp").write_text('#include <boost/hana/for_each.hpp>\n')
        clean = subprocess.run([sys.executable, __file__, str(lib)], capture_output=True, text=True)
        (lib / "src/model/view.cpp").write_text('#include "model/view.hpp"\n\n#include "report/text.hpp"\n')
        (lib / "include/statecheck/spec.hpp").write_text('#include <boost/hana.hpp>\n')
        dirty = subprocess.run([sys.executable, __file__, str(lib)], capture_output=True, text=True)
    expected = 'src/model/view.cpp:3: #include "report/text.hpp" points up, from src/model to src/report'
    whole = "lib/include/statecheck/spec.hpp:1: #include <boost/hana.hpp> pulls all of Hana"
    if clean.returncode != 0 or dirty.returncode != 1 or expected not in dirty.stdout or whole not in dirty.stdout:
        print("check_layers --self-test: an upward include was not caught as expected:\n" + clean.stdout + dirty.stdout)
        return 1
    print("check_layers --self-test: an upward include fails, a clean tree passes")
    return 0


def check(lib: pathlib.Path, print_edges: bool) -> int:
    upward, edges, unplaced = [], collections.Counter(), []
    files = sorted(p for p in lib.rglob("*") if p.suffix in (".hpp", ".cpp", ".in") and p.is_file())
    for path in files:
        source = layer_of_file(lib, path)
        if source is None:
            unplaced.append(path.relative_to(lib).as_posix())
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if source == "include/statecheck" and WHOLE_HANA.match(line):
                upward.append(f"lib/{path.relative_to(lib).as_posix()}:{number}: #include <boost/hana.hpp> pulls all of "
                              "Hana into every spec; include the headers of what it uses (boost/hana/for_each.hpp, ...)")
                continue
            match = INCLUDE.match(line)
            if not match:
                continue
            target = layer_of_include(match.group(1))
            if target is None:
                unplaced.append(f"{path.relative_to(lib).as_posix()}:{number}: #include \"{match.group(1)}\"")
                continue
            if target != source:
                edges[(source, target)] += 1
            if LAYERS.index(target) > LAYERS.index(source):
                upward.append(f"lib/{path.relative_to(lib).as_posix()}:{number}: #include \"{match.group(1)}\" "
                              f"points up, from {source} to {target}")
    if print_edges:
        for (source, target), count in sorted(edges.items(), key=lambda e: (LAYERS.index(e[0][0]), LAYERS.index(e[0][1]))):
            print(f"{source:28} -> {target:28} {count:3}")
    for line in unplaced:
        print(f"check_layers: not in a known layer (add its folder to LAYERS in {__file__}): {line}")
    for line in upward:
        print(line)
    if upward or unplaced:
        print(f"check_layers: {len(upward)} include(s) to fix, {len(unplaced)} unplaced; the layers are in docs/design.md")
        return 1
    print(f"check_layers: {len(files)} files, {sum(edges.values())} includes across layers, none upward")
    return 0


if __name__ == "__main__":
    sys.exit(main())
