#!/usr/bin/env bash
# Overlap and collide per pair kind, each against the reference in the same
# run (sepax-bench checks every backend against it before timing).
#   bash bench/kinds.sh [build-dir] [backend] [reps]
set -euo pipefail
build=${1:-build-release}
backend=${2:-avx2}
reps=${3:-9}
ninja -C "$build" bench/sepax-bench >/dev/null
echo "| pairs | store | reference overlap ns | $backend overlap ns | x ref | reference collide ns | $backend collide ns | x ref |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
while read -r label args; do
  # shellcheck disable=SC2086
  "$build/bench/sepax-bench" --backend "$backend" --reps "$reps" --json $args | python3 -c '
import json, sys
label, store = sys.argv[1], sys.argv[2]
d = json.load(sys.stdin)
if not d["equivalent"]: sys.exit("not bit-identical to the reference: " + label)
ref, b = d["results"][0], d["results"][1]
print("| %s | %s | %.2f | %.2f | %.2fx | %.2f | %.2f | %.2fx |" % (label, store,
    ref["overlap_ns_per_pair"], b["overlap_ns_per_pair"], b["overlap_speedup"],
    ref["collide_ns_per_pair"], b["collide_ns_per_pair"], b["collide_speedup"]))' "$label" "${args%% *} ${args#* }"
done <<'ROWS'
polygon-polygon --kinds polygons
circle-circle --kinds circles
circle-polygon --kinds mixed --pair-kinds circle-polygon
capsule-polygon --kinds mixed --pair-kinds capsule-polygon
any-any --kinds mixed
ROWS
