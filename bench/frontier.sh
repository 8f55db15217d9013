#!/usr/bin/env bash
# The frontier on disk (issue 18 part 1): peak RSS, disk bytes and time with
# --memory at a fraction of the in-RAM run's peak RSS and a --workdir, against
# the in-RAM run, and the in-RAM run against a "before" binary (no slowdown).
#
# Usage: bench/frontier.sh MODEL ARGS...   e.g. bench/frontier.sh two-phase --set rms=9
# Env: STATECHECK (the binary; default build/checker/statecheck), BEFORE (a
#      binary without the frontier store; rows skipped when unset), ROUNDS (3),
#      FRACTION (0.5: --memory = FRACTION * in-RAM peak RSS), MEMORY (a fixed
#      --memory such as 173M instead, e.g. half of an older peak), THREADS (2),
#      WD (work dir, default /tmp/statecheck-frontier).
# Prints one row per run: which, seconds, user s, peak RSS KiB, outcome,
# distinct, generated, depth, frontier levels spilled, frontier bytes written,
# trace-log bytes spilled. Runs alternate so that load drifts hit all alike.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${STATECHECK:-$ROOT/build/checker/statecheck}
BEFORE=${BEFORE:-}
ROUNDS=${ROUNDS:-3}
FRACTION=${FRACTION:-0.5}
THREADS=${THREADS:-2}
WD=${WD:-/tmp/statecheck-frontier}
mkdir -p "$WD/spill"

row() {  # row NAME BINARY ARGS...
  local name=$1 bin=$2
  shift 2
  /usr/bin/time -f "%e %U %M" -o "$WD/time" "$bin" check "$@" --threads "$THREADS" --progress 0 --format json > "$WD/out.json"
  python3 - "$name" "$WD/time" "$WD/out.json" <<'PY'
import json, sys
name, t, out = sys.argv[1:]
e, u, m = open(t).read().split()[-3:]
d = json.load(open(out)); s = d["stats"]
print("\t".join(map(str, [name, e, u, m, d["outcome"], s["distinct"], s["generated"], s["depth"],
      s.get("frontier_spilled_levels", "-"), s.get("frontier_disk_bytes", "-"), s.get("trace_log_disk_bytes", "-")])), flush=True)
PY
}

echo -e "run\tseconds\tuser_s\tpeak_rss_KiB\toutcome\tdistinct\tgenerated\tdepth\tfrontier_levels\tfrontier_bytes\ttrace_disk_bytes"
echo "# $(date -u) $(uptime)  model: $*  threads: $THREADS"
row ram "$BIN" "$@"
peak=$(cut -d' ' -f3 "$WD/time")
memory=${MEMORY:-$(python3 -c "print(int($peak * $FRACTION) // 1024)")M}
echo "# in-RAM peak RSS ${peak} KiB: --memory $memory --workdir $WD/spill"
for ((i = 0; i < ROUNDS; ++i)); do
  [ -n "$BEFORE" ] && row before "$BEFORE" "$@"
  [ "$i" -gt 0 ] && row ram "$BIN" "$@"
  row "disk($memory)" "$BIN" "$@" --memory "$memory" --workdir "$WD/spill"
done
echo "# spill folder left: $(ls -A "$WD/spill" | wc -l) files"
