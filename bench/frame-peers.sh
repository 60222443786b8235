#!/usr/bin/env bash
# One scene through sepax and its peers, one table:
#   bash bench/frame-peers.sh [BUILD_DIR] [SCENE] [N] [FRAMES] [WARMUP]
# (defaults: build bullet-hell 100000 10 3). Runs
#   1. sepax-bench-frame: sepax alone, per thread count (1 and 2), update / broadphase /
#      narrowphase / one-call frame, bytes per shape;
#   2. sepax-bench-frame-peers --export: the scene's frames to a file for node;
#   3. bench/peers/js/frame.mjs: the frames through detect-collisions (npm, installed here
#      with `npm ci` from package-lock.json when missing; skipped without node);
#   4. sepax-bench-frame-peers --js-pairs: sepax (one thread), Box2D 2.4, Chipmunk 7 and
#      detect-collisions side by side, ms per frame and the contact pair sets compared.
# DC_MODE=checkall makes detect-collisions run its own checkAll loop instead of one
# search per body (see frame.mjs). PEERS=box2d,chipmunk leaves Box2D's m_radius-0 run out.
# UPDATE=lazy runs sepax's frames with SEPAX_UPDATE_LAZY (world records only for the shapes
# in candidate pairs, what a sparse scene such as bullet-hell wants) in both programs.
set -euo pipefail
build=${1:-build}
scene=${2:-bullet-hell}
n=${3:-100000}
frames=${4:-10}
warmup=${5:-3}
here=$(cd "$(dirname "$0")" && pwd)
js=$here/peers/js
args=(--scene "$scene" --n "$n" --frames "$frames" --warmup "$warmup")
if [ -n "${UPDATE:-}" ]; then args+=(--update "$UPDATE"); fi
peers_args=()
if [ -n "${PEERS:-}" ]; then peers_args=(--peers "$PEERS"); fi

echo "## sepax alone: $build/bench/sepax-bench-frame ${args[*]} --threads 1,2"
"$build/bench/sepax-bench-frame" "${args[@]}" --threads 1,2
echo

peers=$build/bench/peers/sepax-bench-frame-peers
if [ ! -x "$peers" ]; then
    echo "no $peers (Box2D / Chipmunk not installed?): peers skipped" >&2
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
js_args=()
if command -v node > /dev/null; then
    if [ ! -d "$js/node_modules/detect-collisions" ]; then
        (cd "$js" && npm ci --no-audit --no-fund > /dev/null)
    fi
    "$peers" "${args[@]}" --export "$tmp/scene.spxf"
    node "$js/frame.mjs" "$tmp/scene.spxf" "$tmp/pairs.spxp" --mode "${DC_MODE:-pairs}"
    js_args=(--js-pairs "$tmp/pairs.spxp")
else
    echo "node not found: detect-collisions skipped" >&2
fi
echo
echo "## side by side: $peers ${args[*]} ${peers_args[*]} ${js_args[*]}"
"$peers" "${args[@]}" "${peers_args[@]}" "${js_args[@]}"
