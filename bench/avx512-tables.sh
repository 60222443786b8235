#!/usr/bin/env bash
# The AVX-512 backend's three tables (kernel/dispatch.c: the 512-bit copy, the 256-bit copy,
# and the Zen 5 table that mixes them) on this CPU, each query and store kind, alternated
# ROUNDS times; prints the range over the rounds of each table's fastest loop, ns a pair
# (a ray for raycast). On a shared host, compare tables within one run.
# sepax-bench checks each query against the reference before timing it.
#   bash bench/avx512-tables.sh [build-dir] [rounds] [extra sepax-bench args...]
set -euo pipefail
build=${1:-build-release}
rounds=${2:-3}
shift $(($# < 2 ? $# : 2))
ninja -C "$build" bench/sepax-bench >/dev/null
tables=(avx512-512 avx512-256 avx512-zen5)
kinds=(polygons mixed circles)
queries=(overlap collide manifold sweep raycast)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for ((r = 0; r < rounds; r++)); do
  for k in "${kinds[@]}"; do
    for q in "${queries[@]}"; do
      for t in "${tables[@]}"; do
        ns=$(SEPAX_BACKEND=$t "$build/bench/sepax-bench" --only "$q" --loops 11 --shuffle \
               --kinds "$k" "$@" | sed -n 's/^fastest loop: \([0-9.]*\) ns.*/\1/p')
        [ -n "$ns" ] || { echo "no time for $t $k $q" >&2; exit 1; }
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
