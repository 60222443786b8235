#!/usr/bin/env bash
# Quick start, part 1: install what is missing, build (release), run the
# benchmark on the default workload. Extra arguments go to sepax-bench.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh
[ -d build-release ] || meson setup build-release -Dbuildtype=release >/dev/null
ninja -C build-release bench/sepax-bench >/dev/null
exec build-release/bench/sepax-bench "$@"
