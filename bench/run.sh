#!/usr/bin/env bash
# Throughput benchmark: statecheck against SPIN and Rumur on the peer models of
# bench/peers (the same transition systems, so state counts must agree; docs/peers.md).
#
# Usage: bench/run.sh [suite ...]
#   small : two-phase N=8 (1,745,408 states), filter N=6 (1,827,936)        [default]
#   big   : two-phase N=9 (10,340,352 states), filter N=7 (41,512,352)
#   hdds  : the HDDS specs' benchmark configurations (bench/hdds.txt); lines marked `long`
#           (minutes to hours on 2 cores) run only with LONG=1
#   tiny  : two-phase N=3 (288 states), filter N=3 (288): seconds; checks that every tool runs
# Env: LONG=1 (also the `long` lines of bench/hdds.txt), THREADS ("1 2", statecheck), RUMUR_THREADS ("2"), PEERS (folder of the peer models, default bench/peers), NO_PEERS=1 (statecheck only),
#      WD (work dir, default /tmp/statecheck-bench), STATECHECK (a statecheck binary to use
#      instead of building one in build-bench/), REPS (rounds, default 1: see below), PAIR=0 (no
#      two 1-thread runs at once: see below).
# Prints one row per tool and configuration: distinct states/s, transitions/s and peak RSS
# bytes per distinct state, then the ratio of statecheck (2 threads) to each peer, and the
# speedup of statecheck's 2 threads over 1. With REPS=k, a model's runs go in k rounds (each
# round: statecheck at every thread count, SPIN, Rumur), so that a machine's drift hits every
# tool alike. A row then shows the median wall and peak RSS of its k runs, every wall is listed,
# and the 2-over-1-thread speedup is the median of the k rounds' ratios (each the ratio of two
# runs made one after the other). With 1 and 2 threads (unless PAIR=0), each round also runs
# two 1-thread checks at once (config `pair`): the 2-thread run's efficiency is its speed over
# theirs together, what the two cores give two independent jobs.
# Exits 1 when two rows of one model and N disagree on the distinct-state count.
# Needs: cmake build deps (.ci/deps), GNU time (/usr/bin/time), and for the
# peers `apt-get install spin rumur` (rows are skipped when missing). TLC is not
# packaged by Debian, so it is not run here; its counts in docs/peers.md come from
# bench/peers/run-peers.sh with TLC 1.8.0's tla2tools.jar (TLA2TOOLS=path).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
PEERS=${PEERS:-$HERE/peers}
WD=${WD:-/tmp/statecheck-bench}
THREADS=${THREADS:-"1 2"}
RUMUR_THREADS=${RUMUR_THREADS:-"2"}
SUITES=${*:-small}
mkdir -p "$WD"
ROWS=$WD/rows.tsv
: > "$ROWS"

if [ -n "${STATECHECK:-}" ]; then
  SC=$STATECHECK
else
  bash "$ROOT/.ci/deps" >&2
  cmake -S "$ROOT" -B "$ROOT/build-bench" -DCMAKE_BUILD_TYPE=Release -DSTATECHECK_BUILD_TESTS=OFF >/dev/null
  cmake --build "$ROOT/build-bench" --target statecheck_bin -j"$(nproc)" >&2 || exit 1
  SC=$ROOT/build-bench/checker/statecheck
fi

REPS=${REPS:-1}
ROUND=1  # the round being run (REPS)
# row MODEL N TOOL CONFIG THREADS STATES TRANSITIONS WALL RSS_KB: one run, of round ROUND
row() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" "$ROUND" >> "$ROWS"; }
# GNU time writes "Command exited with non-zero status N" first when a check fails (an unreached goal): the figures are the last line.
timed() { /usr/bin/time -f "%e %M" -o "$WD/time" "$@" > "$WD/out" 2>&1; read -r WALL RSS < <(tail -n 1 "$WD/time"); }

# stats FILE: the distinct states and transitions of a statecheck JSON report
stats() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["stats"]; print(d["distinct"], d["generated"]-1)' "$1"; }

run_statecheck() {  # spec constant N label
  local spec=$1 constant=$2 n=$3 label=$4 t states gen
  for t in $THREADS; do
    timed "$SC" check "$spec" --set "$constant=$n" --threads "$t" --format json --progress 0
    read -r states gen < <(stats "$WD/out")
    row "$label" "$n" statecheck bfs "$t" "$states" "$gen" "$WALL" "$RSS"
  done
  if [[ " $THREADS " == *" 1 "* && " $THREADS " == *" 2 "* && "${PAIR:-1}" == 1 ]]; then run_pair "$@"; fi
}

# Two 1-thread runs at once, one per core: what the machine gives two independent jobs, against
# which the 2-thread run's efficiency is measured (the development VM's two vCPUs are not always
# equally fast, so one thread's time depends on the core it lands on).
run_pair() {  # spec constant N label
  local spec=$1 constant=$2 n=$3 label=$4 k states gen
  for k in a b; do
    /usr/bin/time -f "%e %M" -o "$WD/time.$k" "$SC" check "$spec" --set "$constant=$n" --threads 1 --format json \
      --progress 0 > "$WD/out.$k" 2>&1 &
  done
  wait
  for k in a b; do
    read -r WALL RSS < <(tail -n 1 "$WD/time.$k")
    read -r states gen < <(stats "$WD/out.$k")
    row "$label" "$n" statecheck pair 1 "$states" "$gen" "$WALL" "$RSS"
  done
}

run_spin() {  # model N log2-slots
  command -v spin >/dev/null || return 0
  local m=$1 n=$2 w=$3 d=$WD/spin/$1-$2
  mkdir -p "$d" && cp "$PEERS/$m/$m.pml" "$d/" && cp "$PEERS/unroll.h" "$WD/spin/"
  ( cd "$d" && spin -a -DN="$n" "$m.pml" >/dev/null &&
    gcc -O2 -w -DNOREDUCE -DSAFETY -DMEMLIM=20000 -DBFS_PAR -o pan pan.c ) || return 0
  ( cd "$d" && timed ./pan -E -m1000000 -w"$w" -u2 &&
    states=$(awk '/states, stored/{print $1}' "$WD/out") &&
    trans=$(awk '/transitions \(= /{print $1}' "$WD/out") &&
    row "$m" "$n" spin bfs_par 2 "$states" "$trans" "$WALL" "$RSS" )
}

run_rumur() {  # model N
  command -v rumur >/dev/null || return 0
  local m=$1 n=$2 t d
  for t in $RUMUR_THREADS; do
    d=$WD/rumur/$m-$n-$t && mkdir -p "$d"
    sed "s/^const N: [0-9]*;/const N: $n;/" "$PEERS/$m/$m.m" > "$d/$m.m"
    ( cd "$d" && rumur --quiet --deadlock-detection off --threads "$t" "$m.m" -o checker.c &&
      gcc -O3 -std=gnu11 -march=native -mcx16 -pthread -o checker checker.c ) || continue
    timed "$d/checker"
    read -r states trans < <(awk '/states, [0-9]+ rules fired/{print $1, $3}' "$WD/out")
    row "$m" "$n" rumur bfs "$t" "$states" "$trans" "$WALL" "$RSS"
  done
}

model() {  # peer-model spec constant N spin-w
  for ROUND in $(seq "$REPS"); do
    echo "== $1 N=$4 (round $ROUND of $REPS)" >&2
    run_statecheck "$2" "$3" "$4" "$1"
    [ "${NO_PEERS:-0}" = 1 ] && continue
    run_spin "$1" "$4" "$5"
    run_rumur "$1" "$4"
  done
}

for s in $SUITES; do
  case $s in
    tiny) model twophase two-phase rms 3 18; model filter filter procs 3 18 ;;
    small) model twophase two-phase rms 8 23; model filter filter procs 6 23 ;;
    big) model twophase two-phase rms 9 26; model filter filter procs 7 27 ;;
    hdds) while read -r spec sets; do
            [[ -z "$spec" || "$spec" == \#* ]] && continue
            if [ "$spec" = long ]; then  # `long SPEC SETTINGS`: only with LONG=1
              if [ "${LONG:-0}" != 1 ]; then echo "== skipped (long; LONG=1 runs it): $sets" >&2; continue; fi
              read -r spec sets <<< "$sets"
            fi
            echo "== $spec $sets" >&2
            # NAME=VALUE sets a constant; a token that starts with -- (--invariant=NAME) is passed as is.
            args=(); for kv in $sets; do [[ "$kv" == --* ]] && args+=("$kv") || args+=(--set "$kv"); done
            for ROUND in $(seq "$REPS"); do
              for t in $THREADS; do
                timed "$SC" check "$spec" "${args[@]}" --threads "$t" --format json --progress 0
                read -r states gen < <(stats "$WD/out")
                row "$spec" "${sets// /,}" statecheck bfs "$t" "$states" "$gen" "$WALL" "$RSS"
              done
            done
          done < "$HERE/hdds.txt" ;;
    *) echo "unknown suite $s" >&2; exit 2 ;;
  esac
done

echo
exec python3 "$HERE/summary.py" "$ROWS"
