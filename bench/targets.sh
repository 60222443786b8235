#!/usr/bin/env bash
# The issues' speed targets on this machine, in one command: each target's benchmark,
# ROUNDS times in turn, through the backend sepax picks here; prints the range over the
# rounds of each figure and in how many rounds it met its target. These machines are
# shared, so a range (not one run) is the figure to quote, with the host's own scaling
# and clock (sepax-host-scaling) beside it. The pair benchmarks run on core 1 (taskset,
# where there is one); the frames take both cores for their two-thread runs.
#   bash bench/targets.sh [build-dir] [rounds]
set -euo pipefail
build=${1:-build-release}
rounds=${2:-3}
case $rounds in '' | *[!0-9]* | 0) echo "rounds: a whole number above 0, not '$rounds'" >&2; exit 2 ;; esac
progs=(bench/sepax-bench bench/sepax-bench-frame bench/sepax-host-scaling
       bench/peers/sepax-bench-peers bench/peers/sepax-bench-frame-peers)
ninja -C "$build" "${progs[@]}" >/dev/null || { ninja -C "$build" "${progs[@]}"; exit 1; }
pin=()
[ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null && pin=(taskset -c 1)
out=$(mktemp)
log=$(mktemp)
trap 'rm -f "$out" "$log"' EXIT
run() { # command... -> its output in $log; a failing run stops the script with its output
  "$@" >"$log" 2>&1 || { cat "$log" >&2; echo "failed: $*" >&2; exit 1; }
}
put() { # name value: one figure of this round
  [ -n "$2" ] || { cat "$log" >&2; echo "no figure for $1" >&2; exit 1; }
  echo "$1 $2" >>"$out"
}
cell() { # "| a | b | c |" field (1-based, after the leading bar), from $log's line matching $1
  awk -F'|' -v re="$1" -v f="$2" '$0 ~ re { v = $(f + 1); gsub(/[ x]/, "", v); print v; exit }' "$log"
}
frame_ms() { # threads -> the one-call frame's ms in sepax-bench-frame's first table ($log)
  awk -F'|' -v t="$1" '!col { for (i = 1; i <= NF; i++) if ($i ~ /frame \(one call\)/) col = i; next }
                       $3 ~ "^ *" t " *$" { v = $col; gsub(/ /, "", v); print v; exit }' "$log"
}
backend=""
for ((r = 1; r <= rounds; r++)); do
  run "$build/bench/sepax-host-scaling" --mb 128 --reps 5
  put clock "$(sed -n 's/^core clock: \([0-9.]*\) GHz.*/\1/p' "$log")"
  put copy2 "$(cell '^[|] memory' 4)"
  for scene in bullet-hell particles; do
    extra=()
    [ $scene = particles ] && extra=(--reorder 30)
    run "$build/bench/sepax-bench-frame" --scene $scene --n 100000 --frames 30 --threads 1,2 "${extra[@]}"
    # the first table: | backend | threads | ... | frame (one call) | ..., the column found
    # by its heading
    one=$(frame_ms 1)
    two=$(frame_ms 2)
    backend=$(awk -F'|' '$3 ~ /^ *1 *$/ { gsub(/ /, "", $2); print $2; exit }' "$log")
    put "$scene-1t" "$one"
    put "$scene-2x" "$(awk -v a="$one" -v b="$two" 'BEGIN { if (b > 0) printf "%.2f", a / b }')"
  done
  for kinds in circles mixed; do
    run "${pin[@]}" "$build/bench/sepax-bench" --backend "$backend" --shuffle --reps 5 --kinds $kinds
    put "$kinds-ns" "$(cell "^[|] $backend +[|] overlap " 3)"
    put "$kinds-x" "$(cell "^[|] $backend +[|] overlap " 5)"
  done
  run "${pin[@]}" "$build/bench/peers/sepax-bench-peers" --shuffle
  # the manifold table comes first, then the sweep's: each has one "sepax <backend>" row
  put manifold-ns "$(awk -F'|' -v re="^[|] sepax $backend " '$0 ~ re { gsub(/ /, "", $3); print $3; exit }' "$log")"
  put manifold-x "$(awk -F'|' -v re="^[|] sepax $backend " '$0 ~ re { gsub(/[ x]/, "", $5); print $5; exit }' "$log")"
  put sweep-ns "$(awk -F'|' -v re="^[|] sepax $backend " '$0 ~ re && ++n == 2 { gsub(/ /, "", $3); print $3; exit }' "$log")"
  for n in 10000 100000; do
    run "${pin[@]}" "$build/bench/peers/sepax-bench-frame-peers" --scene bullet-hell --n $n --frames 10 --warmup 3
    # the fastest peer: the least "x sepax" over the peers' rows (each against its like)
    put "peer-$n" "$(awk -F'|' '/^[|] (box2d|chipmunk)/ { v = $7; gsub(/ /, "", v);
                         if (n++ == 0 || v + 0 < lo) lo = v + 0 } END { if (n) print lo }' "$log")"
  done
done
report() { # name, target text, test on v ("v <= 2"), unit
  awk -v k="$1" -v what="$2" -v test="$3" -v unit="$4" -v rounds="$rounds" '
    $1 == k { v = $2 + 0; if (n == 0 || v < lo) lo = v; if (n == 0 || v > hi) hi = v; n++
              split(test, t, " "); lim = t[3] + 0
              if ((t[2] == "<=" && v <= lim) || (t[2] == ">=" && v >= lim)) met++ }
    END { printf "| %s | %s%s to %s%s | %d of %d |\n", what, lo, unit, hi, unit, met, rounds }' "$out"
}
echo "backend: $backend; $rounds rounds; host: clock $(awk '$1 == "clock" { printf "%s ", $2 }' "$out")GHz," \
     "a 128 MB copy on two threads $(awk '$1 == "copy2" { printf "%sx ", $2 }' "$out")"
echo
echo "| target (issue) | measured, lowest to highest | rounds met |"
echo "|---|---|---|"
report circles-ns "circle-circle overlap <= 2 ns a pair (3)" "v <= 2" " ns"
report circles-x "circle-circle overlap >= 8x the reference (3)" "v >= 8" "x"
report mixed-ns "mixed kinds overlap <= 10 ns a pair (3)" "v <= 10" " ns"
report manifold-ns "manifold <= 20 ns a pair (4)" "v <= 20" " ns"
report manifold-x "manifold >= 6x Box2D b2CollidePolygons (4)" "v >= 6" "x"
report sweep-ns "sweep <= 15 ns a pair (4)" "v <= 15" " ns"
report bullet-hell-1t "bullet-hell 100k frame <= 5 ms, one thread (5)" "v <= 5" " ms"
report particles-1t "particles 100k frame <= 10 ms, one thread (5)" "v <= 10" " ms"
report peer-10000 "bullet-hell 10k >= 10x the fastest peer (5)" "v >= 10" "x"
report peer-100000 "bullet-hell 100k >= 10x the fastest peer (5)" "v >= 10" "x"
report bullet-hell-2x "bullet-hell 100k >= 1.7x on two threads (5)" "v >= 1.7" "x"
report particles-2x "particles 100k >= 1.7x on two threads (5)" "v >= 1.7" "x"
echo
echo "commands: sepax-bench --backend $backend --shuffle --reps 5 --kinds circles|mixed;" \
     "sepax-bench-peers --shuffle; sepax-bench-frame --scene S --n 100000 --frames 30" \
     "--threads 1,2 (particles: --reorder 30); sepax-bench-frame-peers --scene bullet-hell" \
     "--n N --frames 10 --warmup 3; the pair runs ${pin[*]:-unpinned}"
