#!/usr/bin/env bash
# The AVX-512 backend's three tables (kernel/dispatch.c: the 512-bit copy, the 256-bit copy,
# and the Zen 5 table that mixes them) on this CPU, each query and store kind, alternated
# ROUNDS times; prints the range over the rounds of each table's fastest loop, ns a pair
# (a ray for raycast). On a shared host, compare tables within one run; prefix `taskset -c 1`
# to pin it. The timed loops are not checked here: the tables' answers are the reference's
# bits by the equivalence tests (equivalence::avx512, avx512_256, avx512_256_zen5).
#   bash bench/avx512-tables.sh [build-dir] [rounds] [extra sepax-bench args, not --backend]
set -euo pipefail
build=${1:-build-release}
rounds=${2:-3}
shift $(($# < 2 ? $# : 2))
case $rounds in '' | *[!0-9]* | 0) echo "rounds: a whole number above 0, not '$rounds'" >&2; exit 2 ;; esac
for a in "$@"; do
  case $a in --backend*) echo "--backend would override the table" >&2; exit 2 ;; esac
done
ninja -C "$build" bench/sepax-bench >/dev/null || { ninja -C "$build" bench/sepax-bench; exit 1; }
tables=(avx512-512 avx512-256 avx512-zen5)
kinds=(polygons mixed circles)
queries=(overlap collide manifold sweep raycast)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for ((r = 0; r < rounds; r++)); do
  for k in "${kinds[@]}"; do
    for q in "${queries[@]}"; do
      for t in "${tables[@]}"; do
        log=$(SEPAX_BACKEND=$t "$build/bench/sepax-bench" --only "$q" --loops 11 --shuffle \
                --kinds "$k" "$@" 2>&1) || { echo "$t $k $q: $log" >&2; exit 1; }
        ns=$(sed -n 's/^fastest loop: \([0-9.]*\) ns.*/\1/p' <<<"$log")
        [ -n "$ns" ] || { echo "no time for $t $k $q: $log" >&2; exit 1; }
        echo "$k $q $t $ns" >>"$out"
      done
    done
  done
done
head="| store | query |"
for t in "${tables[@]}"; do head+=" $t, ns |"; done
echo "$head"
echo "|---|---|---:|---:|---:|"
for k in "${kinds[@]}"; do
  for q in "${queries[@]}"; do
    row="| $k | $q |"
    for t in "${tables[@]}"; do
      row+=$(awk -v k="$k" -v q="$q" -v t="$t" '$1 == k && $2 == q && $3 == t {
               if (n == 0 || $4 < lo) lo = $4; if (n == 0 || $4 > hi) hi = $4; n++ }
             END { printf " %.2f-%.2f |", lo, hi }' "$out")
    done
    echo "$row"
  done
done
