#!/usr/bin/env python3
"""Pins what bench/summary.py prints from known runs (ctest: "bench: summary ...")."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def summary(rows):
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
        f.write("".join("\t".join(map(str, r)) + "\n" for r in rows))
    try:
        p = subprocess.run([sys.executable, os.path.join(HERE, "summary.py"), f.name], capture_output=True, text=True)
        return p.returncode, p.stdout
    finally:
        os.unlink(f.name)


def expect(condition, what, out):
    if not condition:
        sys.exit(f"summary.py: {what}\n{out}")


# Three rounds: statecheck 1 and 2 threads, two 1-thread runs at once, then a peer. 1,000,000 states.
rows = []
rounds = [(8.0, 4.0, (8.0, 8.0), 40.0), (9.0, 4.5, (9.0, 12.0), 30.0), (7.0, 4.0, (7.0, 10.0), 50.0)]
for rnd, (one, two, pair, peer) in enumerate(rounds, start=1):
    rows.append(["m", 9, "statecheck", "bfs", 1, 1000000, 5000000, one, 20000, rnd])
    rows.append(["m", 9, "statecheck", "bfs", 2, 1000000, 5000000, two, 19000 + rnd, rnd])
    rows += [["m", 9, "statecheck", "pair", 1, 1000000, 5000000, w, 20000, rnd] for w in pair]
    rows.append(["m", 9, "spin", "bfs_par", 2, 1000000, "5.000001e+06", peer, 100000, rnd])  # as SPIN prints it
code, out = summary(rows)
expect(code == 0, "agreeing counts must exit 0", out)
lines = out.splitlines()
row2 = next(line for line in lines if line.startswith("m ") and " statecheck " in line and line.split()[4] == "2")
# Median wall 4.00 s (of 4.0, 4.5, 4.0): 250,000 states/s; median RSS 19,002 KiB over 1e6 states: 19.5 B.
expect(row2.split()[7:] == ["4.00", "250000", "1250000", "19.5", "3"], "the 2-thread row is the median run", out)
expect("walls: m N=9 statecheck bfs 2t: 4.00, 4.50, 4.00" in out, "every wall is listed", out)
# Peer median 40 s: 25,000 states/s; statecheck 250,000: 10x.
expect("= 10.00x (distinct states/s)" in out, "the peer ratio uses both medians", out)
# Rounds' ratios 2.00, 2.00, 1.75: median 2.00.
expect("speedup: statecheck 2t over 1t, m N=9 = 2.00x (median of the rounds' ratios: 2.00, 2.00, 1.75)" in out,
       "the speedup is the median of the rounds' ratios", out)
# 2 threads against the pair's speeds together: 4.0 s against 8 and 8 s is 100%; 4.5 against 9
# and 12 is 114%; 4.0 against 7 and 10 is 103%, the median; twice that on equal cores.
expect("efficiency: statecheck 2t against two 1-thread runs at once, m N=9 = 103% (rounds: 100%, 114%, 103%); "
       "on two equal cores: 2.06x" in out, "the efficiency is the median of the rounds' shares", out)
expect("walls: m N=9 statecheck bfs 1t: 8.00, 9.00, 7.00" in out and
       "walls: m N=9 statecheck pair 1t: 8.00, 8.00, 9.00, 12.00, 7.00, 10.00" in out, "pair runs are rows of their own", out)

# One run that found another number of states fails the whole summary.
next(r for r in rows if r[3] == "bfs" and r[4] == 2 and r[9] == 2)[5] = 999999
code, out = summary(rows)
expect(code == 1 and "count mismatch: m N=9 statecheck 2t finds 999999 distinct states, statecheck 1t found 1000000" in out,
       "a count mismatch must exit 1 and name the run", out)
print("bench/summary.py: medians, walls, ratios, speedup and the count check as expected")
