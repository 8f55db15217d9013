#!/usr/bin/env python3
"""Groups a `perf record` profile of `statecheck check` into the phases of a level.

usage: bench/profile_phases.py perf.data path/to/statecheck [cpu_seconds]

perf report could not resolve this binary's symbols on the machine the profile
was taken on, so addresses are mapped with addr2line. Prints each phase's share
of the samples and, given the run's user+sys CPU seconds, its seconds.
"""
import re
import subprocess
import sys
from collections import defaultdict

PHASES = [  # (phase, regex on the function name), first match wins
    ("expand: spec guards/effects, staging", r"Model<.*>::(expand|initial)<|Worker::stage\b"),
    ("fingerprint (XXH3-128)", r"XXH"),
    ("visited lookup + level-table insert (flush)", r"Worker::flush"),
    ("collect level table", r"LevelTable::(collect|compact|take_entries)|take_level_entries|locate_found"),
    ("sort by key", r"quick_sort|introsort|insertion_sort|sort_by_key|bucket_sort|sort_bucket|sort_in_runs|merge_back|"
                    r"sort_run|__unguarded|__adjust_heap"),
    ("level end: visited-set insert, frontier copy",
     r"VisitedSet::(insert|place)|LevelWriter::(store_states|insert_fingerprints)"),
    ("visited-set growth", r"VisitedSet::(migrate|build_segment)|grow_visited"),
    ("level-table clear/grow", r"LevelTable::(clear|reserve|place|allocate|move_to)|grow_table"),
    ("trace log", r"TraceLog|log_level"),
    ("level-end copy loop, other engine", r"statecheck::"),
    ("memcpy (libc)", r"memmove|memcpy"),
]


def main():
    data, binary = sys.argv[1], sys.argv[2]
    cpu = float(sys.argv[3]) if len(sys.argv) > 3 else None
    report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso,symbol"],
                            capture_output=True, text=True).stdout
    rows = []  # (percent, dso, symbol or address)
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.*?)\s*$", line)
        if m:
            rows.append((float(m.group(1)), m.group(2), m.group(3), m.group(4)))
    addrs = [r[3] for r in rows if r[3].startswith("0x")]
    names = subprocess.run(["addr2line", "-f", "-C", "-e", binary] + addrs, capture_output=True, text=True).stdout.splitlines()[0::2]
    resolved = dict(zip(addrs, names))
    shares = defaultdict(float)
    for pct, dso, kind, sym in rows:
        name = resolved.get(sym, sym)
        if kind == "k":
            phase = "kernel (page faults, zeroing pages)"
        else:
            phase = next((p for p, rx in PHASES if re.search(rx, name)), "other (libs, tbb)")
        shares[phase] += pct
    for phase, pct in sorted(shares.items(), key=lambda kv: -kv[1]):
        secs = f"{pct / 100 * cpu:6.2f} s" if cpu else ""
        print(f"{pct:6.1f}%  {secs}  {phase}")


if __name__ == "__main__":
    main()
