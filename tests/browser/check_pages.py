#!/usr/bin/env python3
"""Opens the --html pages of bundled counterexamples in headless Chromium and
checks what a person sees there (issue 19): the lanes, one event per step,
the message arrows between lanes, the violated property and the breaking
step highlighted, key stepping, no errors on the console.

The page has a test hook: opened with #selftest it presses the arrow keys
itself and writes what its DOM then shows into <pre id="selftest">, which
`chromium --dump-dom` prints. The expected facts come from the trace document
(the JSON the same check prints), computed here without the page's script.

Usage: check_pages.py --bin STATECHECK --out DIR [--screenshot NAME]
                      CASE...   where CASE is name:spec[:const=value,...]
Exits 77 (a skip for ctest) with a WARN when no chromium is installed.
"""
import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys

FAILURES = []


def fail(case, message):
    FAILURES.append(f"{case}: {message}")


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def browser(exe, *args):
    # A fresh profile per run: no state carried between pages or test runs.
    return [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--user-data-dir=" + ARGS.out + "/profile", "--enable-logging=stderr", "--v=0", *args]


def lane_of(step):
    actor = step.get("actor")
    if actor and actor in step["params"]:
        value = step["params"][actor]
        return value if isinstance(value, str) else f"{actor}={json.dumps(value)}"
    return step["action"]


def target_of(step):
    """The lane a step's message reaches (action(...).sends("p")), or None."""
    target = step.get("sends_to")
    if not target or target not in step["params"]:
        return None
    value = step["params"][target]
    return value if isinstance(value, str) else f"{target}={json.dumps(value)}"


def leaves(value):
    if isinstance(value, (dict, list)) and len(value) > 0:
        items = value.values() if isinstance(value, dict) else value
        return sum(leaves(v) for v in items)
    return 1


def duration_text(ms):
    """As the text output and the page write a time: 6 min 30 s."""
    parts = []
    for size, unit in ((3600000, "h"), (60000, "min"), (1000, "s"), (1, "ms")):
        if ms >= size:
            parts.append(f"{ms // size} {unit}")
        ms %= size
    return " ".join(parts) if parts else "0 s"


def expected_view(doc):
    trace = doc["violation"]["trace"]
    lanes = []
    arrows = []
    for step in trace[1:]:
        for lane in (lane_of(step), target_of(step)):
            if lane is not None and lane not in lanes:
                lanes.append(lane)
        if target_of(step) is not None and target_of(step) != lane_of(step):
            arrows.append(f"{lane_of(step)}->{target_of(step)}")
    steps = len(trace) - 1
    return {
        "lanes": lanes,
        "events": len(trace),  # the initial state and one per step
        "arrows": arrows,  # one per step that sends to another lane, in step order
        "breaking": [steps],
        "violated": [doc["violation"]["property"]],
        "visited": list(range(1, steps + 1)),
        "atEnd": steps,
        "afterUp": max(0, steps - 1),
        "stateRows": leaves(trace[max(0, steps - 1)]["state"]),  # the state shown after stepping back
        # a time step says when it ends: "+2 s  (t = 4 s)"
        "labels": ["initial state"] + [s["label"] + (f"  (t = {duration_text(s['time_ms'])})" if s.get("delay_ms") else "")
                                       for s in trace[1:]],
        "errors": [],
    }


def check_case(exe, case):
    name, spec, *rest = case.split(":")
    sets = [s for s in (rest[0].split(",") if rest else []) if s]
    page = os.path.join(ARGS.out, name + ".html")
    command = [ARGS.bin, "check", spec, "--threads", "2", "--format", "json", "--html", page]
    for s in sets:
        command += ["--set", s]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if run.returncode != 1:
        return fail(name, f"check exited {run.returncode}, not 1 (violation): {run.stderr.strip()}")
    doc = json.loads(run.stdout)
    saved = os.path.join(ARGS.out, name + ".json")
    with open(saved, "w") as f:
        f.write(run.stdout)
    # view draws the same page from the saved trace, without searching again.
    viewed = os.path.join(ARGS.out, name + "-view.html")
    run = subprocess.run([ARGS.bin, "view", saved, "-o", viewed], capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        return fail(name, f"view exited {run.returncode}: {run.stderr.strip()}")
    if open(page, "rb").read() != open(viewed, "rb").read():
        fail(name, "the page of 'view' differs from the page of 'check --html'")

    shown = subprocess.run(browser(exe, "--dump-dom", "file://" + os.path.abspath(page) + "#selftest"),
                           capture_output=True, text=True, timeout=120)
    match = re.search(r'<pre id="selftest">(.*?)</pre>', shown.stdout, re.S)
    if not match:
        return fail(name, "the page wrote no self-test report (its script failed?); chromium said:\n" +
                    "\n".join(shown.stderr.splitlines()[-15:]))
    report = json.loads(html.unescape(match.group(1)))
    want = expected_view(doc)
    for key, value in want.items():
        if report.get(key) != value:
            fail(name, f"{key}: the page shows {report.get(key)!r}, expected {value!r}")
    uncaught = [line for line in shown.stderr.splitlines() if "Uncaught" in line or ":ERROR:CONSOLE" in line]
    if uncaught:
        fail(name, "console errors: " + "; ".join(uncaught[:5]))
    if ARGS.pin_lanes and name in ARGS.pin_lanes:
        pinned = int(ARGS.pin_lanes[name])
        if len(report["lanes"]) != pinned:
            fail(name, f"{len(report['lanes'])} lanes, pinned {pinned}")
    if ARGS.pin_arrows and name in ARGS.pin_arrows:
        pinned = int(ARGS.pin_arrows[name])
        if len(report["arrows"]) != pinned:
            fail(name, f"{len(report['arrows'])} arrows, pinned {pinned}")
    print(f"{name}: {len(report['lanes'])} lanes ({', '.join(report['lanes'])}), "
          f"{len(report['visited'])} steps, {len(report['arrows'])} arrows, {report['violated'][0]} highlighted at step {report['breaking'][0]}")
    if ARGS.screenshot == name:
        png = os.path.join(ARGS.out, name + ".png")
        subprocess.run(browser(exe, "--screenshot=" + png, "--window-size=1400,900", "file://" + os.path.abspath(page)),
                       capture_output=True, timeout=120)
        if not os.path.exists(png) or os.path.getsize(png) < 1000:
            fail(name, "no screenshot written to " + png)
        else:
            print(f"screenshot: {png}")


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--screenshot")
    parser.add_argument("--pin-lanes", action="append", default=[], help="name=N: the lanes a case must show")
    parser.add_argument("cases", nargs="+")
    parser.add_argument("--pin-arrows", action="append", default=[], help="name=N: the message arrows a case must show")
    ARGS = parser.parse_args()
    ARGS.pin_lanes = dict(p.split("=", 1) for p in ARGS.pin_lanes)
    ARGS.pin_arrows = dict(p.split("=", 1) for p in ARGS.pin_arrows)
    exe = chromium()
    if exe is None:
        print("WARN: chromium is not installed: the browser test of the --html pages is skipped "
              "(apt-get install chromium; .ci/deps installs it)")
        return 77
    os.makedirs(ARGS.out, exist_ok=True)
    for case in ARGS.cases:
        check_case(exe, case)
    for f in FAILURES:
        print("FAIL " + f)
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
