#!/usr/bin/env python3
"""Under MPI the summary's visited-set and memory figures are the run's, not process 0's share.

usage: mpi_run_totals.py STATECHECK MPIEXEC

Runs two-phase --set rms=6 (50,000 states, no violation) as one process and
as 2 and 3 processes, in JSON and as text, and checks, for K processes:
- the visited set's bytes are K times one process's (each holds its own 8 MiB
  set) and its load is the run's: load x capacity is the run's distinct count;
- the omission bound is K times smaller than one process's, within 3%: a state's
  process is chosen by hash bits its fingerprint does not use, so only states on
  one process can be confused and the bound is the sum of the processes' own
  bounds (each of about (N/K)^2 / 2 pairs);
- memory_peak_bytes and peak_rss_bytes sum the processes (at least 0.9 K times
  one process's: each holds about as much, and an MPI process more);
- the text summary prints the same numbers: with 2 processes the visited-set
  line is pinned exactly, and the memory line's bytes a state are the JSON's.
Process 0's share gave 8.0 MiB, load 2.4%, a bound 4 times smaller than one
process's, and its own memory only.
And the forecast lines (two-phase --set rms=8, 1.7 M states, about 5 s as 2
processes): process 0 forecasts its share (as its progress line says), scaled
by the run's totals over its own. A forecast is the states found so far and
those to come: each point's states are at least what the run had found by its
level (within 5%; the share is half of each level within 1%). The share's
forecast itself, compared with the run's distinct count, said -52% at level 15
where one process says -5%: a point at level 14 or later is required.
"""
import json
import re
import subprocess
import sys

from verdict import finish

SPEC = ["check", "two-phase", "--threads", "1"]
VISITED_2 = "  visited set       16.0 MiB, load 2.4%, 72-bit fingerprints, omission probability <= 1.4e-13"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, mpiexec = sys.argv[1:]
    problems = []

    def run(k, *extra, rms="6"):
        command = ([mpiexec, "--oversubscribe", "--allow-run-as-root", "-np", str(k)] if k > 1 else []) + [binary] + SPEC + ["--set", f"rms={rms}"] + list(extra)
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            sys.exit(f"{' '.join(command)}: exit {done.returncode}\n{done.stderr[-1000:]}")
        return done.stdout

    one = json.loads(run(1, "--format", "json"))["stats"]
    for k in (2, 3):
        s = json.loads(run(k, "--format", "json"))["stats"]
        v, v1 = s["visited_set"], one["visited_set"]

        def expect(what, ok, got):
            if not ok:
                problems.append(f"-np {k}: {what}: {got}")

        expect("visited bytes are the sum", v["bytes"] == k * v1["bytes"], f"{v['bytes']} vs one process's {v1['bytes']}")
        expect("load is the run's", round(v["load"] * v["capacity"]) == s["distinct"],
               f"load {v['load']} x capacity {v['capacity']} vs {s['distinct']} states")
        ratio = v1["omission_probability"] / v["omission_probability"] if v["omission_probability"] else 0
        expect("omission bound is the processes' sum", abs(ratio / k - 1) < 0.03,
               f"{v['omission_probability']:.4g} vs one process's {v1['omission_probability']:.4g} (ratio {ratio:.3f})")
        for key in ("memory_peak_bytes", "peak_rss_bytes"):
            expect(f"{key} is the sum", s[key] >= 0.9 * k * one[key], f"{s[key]} vs one process's {one[key]}")
        text = run(k).splitlines()
        memory = [l for l in text if l.startswith("  memory ")]
        per_state = (v["bytes"] + s["trace_log_bytes"]) / s["distinct"]
        expect("memory line's bytes a state", len(memory) == 1 and f", {per_state:.1f} bytes/state with" in memory[0],
               f"{memory} vs {per_state:.1f}")
        if k == 2:
            expect("visited line", VISITED_2 in text, [l for l in text if "visited set" in l])
    forecast = json.loads(run(2, "--format", "json", rms="8"))["stats"]
    points = forecast.get("forecast", [])
    if forecast["distinct"] != 1745408:
        problems.append(f"-np 2 rms=8: {forecast['distinct']} states, not 1,745,408")
    for f in points:
        found = sum(forecast["states_per_level"][:f["level"]])
        if f["states"] < 0.95 * found:
            problems.append(f"-np 2 rms=8: the forecast at level {f['level']} is {f['states']} states, the run had found {found}")
    if not any(f["level"] >= 14 for f in points):
        problems.append(f"-np 2 rms=8: no forecast at level 14 or later (the test does not test): {points}")
    finish("MPI run totals: " + ("the run's" if not problems else "NOT THE RUN'S"), problems)


if __name__ == "__main__":
    main()
