#!/usr/bin/env bash
# Instructions per whole frame under callgrind (sepax_find_contacts_posed, or
# sepax_shapes_set_poses + sepax_find_contacts, with the update, one thread):
# repeatable where wall time is not, on a shared machine. Counts only inside
# those calls, over F and 2F frames of the one-call frame alone; the difference
# over F frames is one frame's cost (the first frames' buffer growth cancels
# out). For where they go, run the same valgrind command with --dump-instr=no
# and read callgrind_annotate.
#
#   bench/callgrind-frame.sh [BUILD_DIR] [SCENE] [N] [F] [BACKEND] [UPDATE] [POSES]
#   (defaults: build-release particles 10000 2 avx2 frame frame; valgrind has no AVX-512;
#   UPDATE: frame, all or lazy, the frame's sepax_frame_update; POSES: frame, the poses
#   given to the frame, or set, through sepax_shapes_set_poses first)
set -euo pipefail
build=${1:-build-release}
scene=${2:-particles}
n=${3:-10000}
frames=${4:-2}
backend=${5:-avx2}
update=${6:-frame}
poses=${7:-frame}
bench="$build/bench/sepax-bench-frame"
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() { # frames -> instructions inside the two calls
  if ! valgrind --tool=callgrind --callgrind-out-file="$tmp/out$1" \
    --toggle-collect=sepax_find_contacts --toggle-collect=sepax_shapes_set_poses \
    --toggle-collect=sepax_find_contacts_posed \
    "$bench" --scene "$scene" --n "$n" --frames "$1" --warmup 0 --threads 1 \
    --backend "$backend" --update "$update" --poses "$poses" --only-frame 1 >/dev/null 2>"$tmp/err$1"; then
    cat "$tmp/err$1" >&2
    exit 1
  fi
  awk '/^(summary|totals):/ {print $2; exit}' "$tmp/out$1"
}
one=$(count "$frames")
two=$(count $((2 * frames)))
echo "# $scene, $n shapes, $backend, update $update, poses $poses, one thread: instructions per frame"
echo "$(((two - one) / frames))"
