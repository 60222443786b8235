#!/usr/bin/env bash
# Whole-process comparison of the backends with hyperfine: each command
# builds the default workload and runs one query LOOPS times on one backend
# (or the scalar reference). "setup" runs no query: subtract it to get the
# query time. Results go to JSON for later comparison.
#
#   bench/hyperfine.sh [BUILD_DIR] [QUERY] [LOOPS]
#   e.g. bench/hyperfine.sh build overlap 20
set -euo pipefail
build=${1:-build}
query=${2:-overlap}
loops=${3:-20}
out=${OUT:-$build/hyperfine-$query.json}
bench="$build/bench/sepax-bench"
[ -x "$bench" ] || { echo "no $bench: build first (meson setup $build && ninja -C $build)" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "hyperfine is not installed (apt-get install hyperfine)" >&2; exit 1; }

cmds=(-n setup "$bench --only $query --loops 0")
cmds+=(-n reference "$bench --only $query --loops $loops --backend reference")
for b in scalar sse2 sse41 avx2 avx512 neon; do
  # a backend this CPU lacks fails at once: leave it out
  if "$bench" --only "$query" --loops 0 --backend "$b" >/dev/null 2>&1; then
    cmds+=(-n "$b" "$bench --only $query --loops $loops --backend $b")
  fi
done
hyperfine --warmup 1 --runs "${RUNS:-10}" --export-json "$out" "${cmds[@]}"
echo "wrote $out"
