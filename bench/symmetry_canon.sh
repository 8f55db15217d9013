#!/usr/bin/env bash
# Builds and runs bench/symmetry_canon.cpp (header-only: no library needed).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${WD:-/tmp/statecheck-bench}
mkdir -p "$OUT"
g++ -std=c++20 -O3 -DNDEBUG -I "$ROOT/lib/include" "$ROOT/bench/symmetry_canon.cpp" -o "$OUT/symmetry_canon"
"$OUT/symmetry_canon"
