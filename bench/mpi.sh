#!/usr/bin/env bash
# The search across MPI processes on one host (issue 18 part 2): states/s and
# bytes exchanged per state for K = 1, 2, 4 processes of one thread each, and
# the per-level synchronisation cost (a model of many tiny levels).
#
# Usage: bench/mpi.sh [REPEATS]   (default 3; the runs alternate K, medians are printed)
# Env: STATECHECK (a statecheck built with STATECHECK_MPI, default build/checker/statecheck),
#      RMS (two-phase N, default 8: 1,745,408 states), DISKS (hanoi, default 9: 511 levels).
# Results of a run on the 2-core development machine: bench/mpi.txt.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=${STATECHECK:-$HERE/../build/checker/statecheck}
RMS=${RMS:-8}
DISKS=${DISKS:-9}
REPEATS=${1:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# run NAME K ARGS...: one row "name k distinct seconds user_cpu bytes"
run() {
  local name=$1 k=$2; shift 2
  /usr/bin/time -f "%U %S" -o "$OUT/time" mpirun --oversubscribe -np "$k" "$BIN" check "$@" --threads 1 --format json \
    > "$OUT/json" 2> "$OUT/err" || true
  local bytes
  bytes=$(sed -n 's/.*sent each other \([0-9]*\) bytes.*/\1/p' "$OUT/err")
  python3 - "$name" "$k" "${bytes:-0}" "$OUT/json" "$OUT/time" <<'PY'
import json, sys
name, k, sent, doc, cpu = sys.argv[1:]
d = json.load(open(doc))
user, system = map(float, open(cpu).read().split()[-2:])
print(name, k, d["stats"]["distinct"], d["stats"]["depth"], d["stats"]["seconds"], user + system, sent)
PY
}

for r in $(seq "$REPEATS"); do
  for k in 1 2 4; do
    run "two-phase-N$RMS" "$k" two-phase --set "rms=$RMS"
    run "hanoi-D$DISKS" "$k" hanoi --set "disks=$DISKS" --no-deadlock 2>/dev/null || true
  done
done > "$OUT/rows"

python3 - "$OUT/rows" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, k, distinct, depth, seconds, cpu, sent = line.split()
    rows.setdefault((name, int(k)), []).append((int(distinct), int(depth), float(seconds), float(cpu), int(sent)))
print(f"{'model':16} {'K':>2} {'distinct':>10} {'levels':>6} {'search s':>9} {'states/s':>10} {'CPU s':>7} {'bytes/state':>11} {'runs':>4}")
for (name, k), runs in sorted(rows.items()):
    distinct, depth = runs[0][0], runs[0][1]
    assert all(r[0] == distinct for r in runs), f"{name} K={k}: the distinct count varies"
    s = statistics.median(r[2] for r in runs)
    cpu = statistics.median(r[3] for r in runs)
    sent = statistics.median(r[4] for r in runs)
    print(f"{name:16} {k:>2} {distinct:>10} {depth:>6} {s:>9.3f} {distinct / s:>10.0f} {cpu:>7.2f} {sent / distinct:>11.1f} {len(runs):>4}")
PY
