#!/usr/bin/env bash
# The self-checks' share of a run (issue 43 item 1), on the SCM safe-mode spec
# of tests/hostile/fixtures/safe_mode.cpp (interchangeable datanodes, 3
# containers): each size with --self-check 0 and with the default, REPEAT
# times; of each, the run with the best wall time. "share" is the default run's
# own self_check_seconds over its seconds (both from its JSON report), so it
# does not depend on two noisy runs being compared.
# Usage: bench/self_check.sh [BUILD_DIR] (default build); SIZES="6 7", REPEAT=3.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
BIN=$BUILD/tests/hostile/hostile-safe_mode
REPEAT=${REPEAT:-3}
[ -x "$BIN" ] || { echo "bench/self_check.sh: $BIN is missing; build it: cmake --build $BUILD --target hostile-safe_mode" >&2; exit 2; }
best() {  # of REPEAT runs of `check ARGS`: "seconds self_check_seconds self_checked distinct" of the fastest
  for _ in $(seq "$REPEAT"); do
    "$BIN" check --progress 0 --format json "$@" |
      python3 -c 'import json,sys; s=json.load(sys.stdin)["stats"]; print(s["seconds"], s["self_check_seconds"], s["self_checked"], s["distinct"])'
  done | sort -g | head -1
}
printf "%-10s %12s %10s %12s %14s %8s %s\n" datanodes states "off (s)" "default (s)" "self-check (s)" share "self-checked"
for n in ${SIZES:-6 7}; do
  read -r off _ _ states < <(best --set datanodes="$n" --self-check 0)
  read -r on checking checked _ < <(best --set datanodes="$n")
  share=$(awk "BEGIN{printf \"%.1f%%\", 100 * $checking / $on}")
  printf "%-10s %12s %10.2f %12.2f %14.2f %8s %s\n" "$n" "$states" "$off" "$on" "$checking" "$share" "$checked"
done
