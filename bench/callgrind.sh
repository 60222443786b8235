#!/usr/bin/env bash
# Instructions per pair under callgrind: repeatable where wall time is not.
# Runs each backend once with one query loop and once with none over the
# same workload; the difference divided by the pair count is the query's
# cost. (valgrind has no AVX-512: that backend is left out.)
#
#   bench/callgrind.sh [BUILD_DIR] [QUERY] [PAIRS] [sepax-bench options...]
#   (QUERY: overlap collide one update manifold sweep raycast ray-range; e.g. ... overlap 200000 --kinds circles)
set -euo pipefail
build=${1:-build}
query=${2:-overlap}
pairs=${3:-200000}
shift $(($# < 3 ? $# : 3))
extra=("$@")
bench="$build/bench/sepax-bench"
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
count() { # backend loops -> total instructions
  valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$bench" --only "$query" \
    --backend "$1" --loops "$2" --pairs "$pairs" "${extra[@]}" >/dev/null 2>"$tmp/err"
  awk '/^(summary|totals):/ {print $2; exit}' "$tmp/out"
}
n=$pairs
unit=pair
[ "$query" = one ] || [ "$query" = ray-range ] && n=$((256 * 4096))
[ "$query" = update ] && n=4096 && unit=shape
printf '| backend | %s instructions/%s |\n|---|---:|\n' "$query" "$unit"
for b in reference scalar sse2 sse41 avx2 neon; do
  "$bench" --only "$query" --loops 0 --backend "$b" "${extra[@]}" >/dev/null 2>&1 || continue
  base=$(count "$b" 0)
  one=$(count "$b" 1)
  printf '| %s | %d |\n' "$b" $(((one - base) / n))
done
rm -rf "$tmp"
