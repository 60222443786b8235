#!/usr/bin/env bash
# Instructions per pair under callgrind: repeatable where wall time is not.
# Runs each backend with two query loops and with one over the same workload;
# the difference divided by the tests one loop makes (the count sepax-bench
# prints) is the query's cost. Both runs do the same setup and the same
# checksum of the results, so neither is counted. (valgrind has no AVX-512:
# that backend is left out.) Before 2026-11-28 this took one loop less none,
# which counted the checksum too: 12-15 instructions a test more.
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
count() { # backend loops -> total instructions; the tests a loop makes to $tmp/n
  # (called in $(...), where set -e is off: a failed run must say so itself, not leave the
  # last run's files to be read)
  rm -f "$tmp/out" "$tmp/stdout"
  valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$bench" --only "$query" \
    --backend "$1" --loops "$2" --pairs "$pairs" "${extra[@]}" >"$tmp/stdout" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; echo "valgrind failed: $1 x$2" >&2; return 1; }
  awk 'END {print $(NF - 1)}' "$tmp/stdout" >"$tmp/n" # "... x2: H of N overlap"
  awk '/^(summary|totals):/ {print $2; exit}' "$tmp/out"
}
unit=pair
[ "$query" = update ] && unit=shape
printf '| backend | %s instructions/%s |\n|---|---:|\n' "$query" "$unit"
for b in reference scalar sse2 sse41 avx2 neon; do
  "$bench" --only "$query" --loops 0 --backend "$b" "${extra[@]}" >/dev/null 2>&1 || continue
  one=$(count "$b" 1) || exit 1
  two=$(count "$b" 2) || exit 1
  n=$(cat "$tmp/n")
  [ "$n" -gt 0 ] || { echo "sepax-bench reported no tests" >&2; exit 1; }
  printf '| %s | %d |\n' "$b" $(((two - one) / n))
done
rm -rf "$tmp"
