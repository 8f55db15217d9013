#!/usr/bin/env python3
"""The table bench/run.sh prints from its runs (rows.tsv, one line per run).

A row per tool and configuration, with the median wall and the median peak RSS of
its runs (REPS rounds); every run's wall when there are several; statecheck's
2-thread speed against each peer's; the speedup of statecheck's 2 threads over 1,
the median of the per-round ratios (the two runs of a round ran one after the
other, so a machine's drift hits both); and, where a round also ran two 1-thread
checks at once (config `pair`), the 2-thread run's efficiency: its speed over
theirs together, what the two cores give two independent jobs (2x that efficiency
is the speedup two equally fast cores would show). Exits 1 when two rows of one
model and size disagree on the distinct-state count: a speed number never comes
from a run that explored something else.
"""
import statistics
import sys


def main(path):
    runs = {}  # (model, n, tool, config, threads) -> [(round, states, transitions, wall, rss_kb)], first seen first
    with open(path) as rows:
        for line in rows:
            model, n, tool, config, threads, states, trans, wall, rss, rnd = line.rstrip("\n").split("\t")
            runs.setdefault((model, n, tool, config, threads), []).append(
                (int(rnd), int(states), int(float(trans)), float(wall), int(rss)))  # SPIN prints 1.235584e+08

    print(f"{'model':<22} {'N':<10} {'tool':<10} {'config':<8} {'th':>3} {'states':>12} {'transitions':>13} "
          f"{'wall_s':>8} {'states/s':>12} {'trans/s':>13} {'RSS_B/state':>11} {'runs':>4}")
    speed = {}  # (model, n, tool, config, threads) -> distinct states/s at the median wall
    states_of = {}
    bad = []
    for (model, n, tool, config, threads), rs in runs.items():
        states, trans = rs[0][1], rs[0][2]
        for r in rs:
            first = states_of.setdefault((model, n), (tool, threads, r[1]))
            if r[1] != first[2]:
                bad.append(f"count mismatch: {model} N={n} {tool} {threads}t finds {r[1]} distinct states, "
                           f"{first[0]} {first[1]}t found {first[2]}")
        wall = statistics.median(r[3] for r in rs)
        rss = statistics.median(r[4] for r in rs)
        sps = states / wall if wall > 0 else 0
        tps = trans / wall if wall > 0 else 0
        bps = rss * 1024 / states if states > 0 else 0
        speed[(model, n, tool, config, threads)] = sps
        print(f"{model:<22} {n:<10} {tool:<10} {config:<8} {threads:>3} {states:>12} {trans:>13} "
              f"{wall:>8.2f} {sps:>12.0f} {tps:>13.0f} {bps:>11.1f} {len(rs):>4}")

    if any(len(rs) > 1 for rs in runs.values()):
        print()
        for (model, n, tool, config, threads), rs in runs.items():
            print(f"walls: {model} N={n} {tool} {config} {threads}t: " + ", ".join(f"{r[3]:.2f}" for r in rs))

    print()
    for (model, n, tool, _, threads), sps in speed.items():
        ours = speed.get((model, n, "statecheck", "bfs", "2"), 0)
        if tool != "statecheck" and ours > 0 and sps > 0:
            print(f"ratio: statecheck 2t / {f'{model} N={n} {tool} {threads}t':<28} = {ours / sps:.2f}x (distinct states/s)")
    for (model, n, tool, config, threads), rs in runs.items():
        if tool != "statecheck" or config != "bfs" or threads != "2":
            continue
        one = {r[0]: r[3] for r in runs.get((model, n, tool, config, "1"), [])}
        ratios = [one[r[0]] / r[3] for r in rs if r[0] in one and r[3] > 0]
        if ratios:
            print(f"speedup: statecheck 2t over 1t, {model} N={n} = {statistics.median(ratios):.2f}x "
                  f"(median of the rounds' ratios: {', '.join(f'{x:.2f}' for x in ratios)})")
        pairs = {}  # round -> the walls of its two 1-thread runs at once
        for r in runs.get((model, n, tool, "pair", "1"), []):
            pairs.setdefault(r[0], []).append(r[3])
        shares = [(1 / r[3]) / sum(1 / w for w in pairs[r[0]]) for r in rs
                  if len(pairs.get(r[0], [])) == 2 and r[3] > 0 and min(pairs[r[0]]) > 0]
        if shares:
            e = statistics.median(shares)
            print(f"efficiency: statecheck 2t against two 1-thread runs at once, {model} N={n} = {100 * e:.0f}% "
                  f"(rounds: {', '.join(f'{100 * x:.0f}%' for x in shares)}); on two equal cores: {2 * e:.2f}x")
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
