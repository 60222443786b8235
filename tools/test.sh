#!/usr/bin/env bash
# Quick start, part 2 (and what CI runs): install what is missing, then
#  1. gcc build with --werror: Criterion suites, drivers, example
#  2. clang build with --werror: the same tests, without the emulated kernel copies
#  3. ASan + UBSan build (clang): the same tests (random rounds of 20k pairs a store), any
#     report fails (leak checks: see below)
#  4. aarch64 cross build: the NEON kernel against the reference under
#     qemu-user, 200k random pairs per shape mix at three margins (the plain
#     driver: Criterion's runner hangs
#     under qemu-aarch64), the stack driver (SEPAX_STACK_BYTES) and the scenes test
#     (pose hashes and frames)
#  5. checks: exported symbols, no fused multiply-add in the library,
#     clang-format, install + pkg-config consumer, meson subproject consumer
#  6. valgrind memcheck: the Criterion suites and the plain drivers (one
#     random round of 20k pairs per store), zero reports, definite leaks
#     included; helgrind on the many-threads test (no data race)
#  7. libFuzzer (the stage 3 build): each target FUZZ_SECONDS (60) from
#     its committed seed corpus; any finding fails
# Build folders are build-test-*; set KEEP=1 to reuse them between runs. Without it, the
# clang and aarch64 folders are removed once no later stage reads them (the gcc and
# sanitizer ones stay, for a look after the run), and every temporary file is made under one
# folder (TMPDIR) removed on exit: the run needs about 5 GB free at its peak (the sanitizer
# build, 4 GB of it), and CI's machines have run out of disk before.
#
# CI stops a run at 90 minutes, and its machines have 2 cores and differ by up to 3x in
# speed, so every stage says how long the run has taken. What keeps the run well inside:
#  - the equivalence tests run 1 random round (1M pairs a store mix, SEPAX_TEST_ROUNDS=1)
#    rather than the 3 of a plain `meson test`;
#  - the equivalence driver's meson test (suite equiv-driver) repeats test_equivalence's
#    checks without Criterion, so the native stages leave it out; stage 4 runs the driver
#    (leaks in the checks they share are valgrind's to find, in test_equivalence);
#  - the emulated kernel copies (SIMDe, test-only) are compiled and run by gcc (stages 1
#    and 6), not again by clang;
#  - stage 6 leaves avx2_portable and avx512_256_emulated (and its Zen 5 table) out of the
#    equivalence tests
#    (SEPAX_TEST_SKIP_KERNELS; other copies run their lanes there);
#  - stages 3 and 7 share one sanitizer build; in it the kernel copies build at -O0
#    (kernel/meson.build: at -O2 UBSan made each take minutes) and carry no libFuzzer
#    coverage instrumentation (meson.build).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bash tools/deps.sh

free_gb() { df -Pk . | awk 'NR == 2 { printf "%.1f", $4 / 1048576 }'; }
step() { printf '\n=== %s  [%d s into the run, %s GB free]\n' "$*" "$SECONDS" "$(free_gb)"; }
fresh() { [ "${KEEP:-0}" = 1 ] || rm -rf "$1"; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export TMPDIR="$scratch" # valgrind-wrap.sh's logs and the tools' own files too
# a full disk shows up minutes later as a linker's "No space left on device": say it first
awk -v f="$(free_gb)" 'BEGIN { exit !(f < 6) }' &&
  echo "warning: $(free_gb) GB free here; this run needs about 5 GB at its peak"

step "1/7 gcc, warnings as errors"
fresh build-test-gcc
[ -d build-test-gcc ] || CC=gcc meson setup build-test-gcc --werror -Dbuildtype=release -Drequire_test_deps=true >/dev/null
ninja -C build-test-gcc
SEPAX_TEST_ROUNDS=1 meson test -C build-test-gcc --print-errorlogs --no-suite equiv-driver

step "2/7 clang, warnings as errors"
fresh build-test-clang
[ -d build-test-clang ] || CC=clang meson setup build-test-clang --werror -Dbuildtype=release -Dbench=false -Drequire_test_deps=true \
  -Demulated_kernels=false >/dev/null
ninja -C build-test-clang
SEPAX_TEST_ROUNDS=1 meson test -C build-test-clang --print-errorlogs --no-suite equiv-driver
fresh build-test-clang

step "3/7 AddressSanitizer + UndefinedBehaviorSanitizer"
fresh build-test-asan
# clang: gcc takes tens of minutes to instrument the unrolled lane kernels. The emulated
# kernel copies are checked in stages 1 and 6; here they would only add build time. The
# libFuzzer targets (stage 7) come from this build too.
[ -d build-test-asan ] || CC=clang CXX=clang++ meson setup build-test-asan --werror \
  -Dbuildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false \
  -Dc_args=-fno-sanitize-recover=all -Dcpp_args=-fno-sanitize-recover=all \
  -Demulated_kernels=false -Dbench=false -Dfuzz=true -Drequire_test_deps=true >/dev/null
ninja -C build-test-asan
# LeakSanitizer for the plain programs; not for the Criterion binaries, whose runner process
# (libcriterion 2.4) now and then leaks 48 bytes of its own. Leaks of ours inside Criterion
# tests are caught by the valgrind stage, which checks every process for definite leaks.
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 \
  meson test -C build-test-asan --print-errorlogs --timeout-multiplier 4 --suite driver
# the random rounds at 20k pairs a store, as under valgrind: the kernel copies run at -O0
# here (about 4 minutes a copy at 1M pairs); stages 1 and 2 compare the 1M
SEPAX_TEST_ROUNDS=1 SEPAX_TEST_PAIRS=20000 ASAN_OPTIONS=abort_on_error=1:detect_leaks=0 \
  meson test -C build-test-asan --print-errorlogs --timeout-multiplier 4 --suite criterion
unset UBSAN_OPTIONS

step "4/7 aarch64 NEON under qemu-user"
fresh build-test-neon
# SIMDe alone: /usr/include whole would bring the host libc's headers. The folder's path is
# recorded by the setup, so it lives as long as the build (a KEEP=1 run regenerates from it),
# outside the source tree (meson refuses an absolute include path inside it), in the system's
# temporary folder, not the run's
inc="$(dirname "$scratch")/sepax-simde-only-$(id -u)"
mkdir -p "$inc"
ln -sfn /usr/include/simde "$inc/simde"
# its output kept and shown on failure (meson prints its errors to stdout)
[ -d build-test-neon ] || meson setup build-test-neon --werror --cross-file cross/aarch64-linux-gnu.ini \
  -Dsimde_include="$inc" -Dbench=false >"$scratch/neon-setup.log" ||
  { cat "$scratch/neon-setup.log"; exit 1; }
ninja -C build-test-neon
# 200k random pairs a store mix (and every fixed workload): emulated, the 1M of the native
# stages took about four minutes a kernel copy
qemu-aarch64 -L /usr/aarch64-linux-gnu build-test-neon/tests/sepax-equiv --rounds 1 --pairs 200000 \
  --require neon
qemu-aarch64 -L /usr/aarch64-linux-gnu build-test-neon/tests/sepax-example
qemu-aarch64 -L /usr/aarch64-linux-gnu build-test-neon/tests/sepax-stack
# the scenes' pose hashes (the same bits on aarch64) and their frames against brute force
qemu-aarch64 -L /usr/aarch64-linux-gnu build-test-neon/tests/sepax-test-scenes

step "5/7 symbols, arithmetic, format, packaging"
# nm on its own line, so a missing or unreadable library fails the stage (an `|| true` after
# the pipe would have hidden it), and an empty list fails too
syms=$(nm -D --defined-only build-test-gcc/kernel/libsepax.so | awk '{print $3}')
[ -n "$syms" ] || { echo "no exported symbols read from libsepax.so"; exit 1; }
bad=$(grep -v '^sepax_' <<<"$syms" || true)
[ -z "$bad" ] || { echo "exported without the sepax_ prefix: $bad"; exit 1; }
echo "exported symbols: $(wc -l <<<"$syms"), all sepax_"
# Each listing goes to a file first: `objdump | grep -q` under pipefail fails whenever grep
# stops at a match before objdump has written everything (SIGPIPE), which hid every match
# but one in the last pipe buffer. Each also counts the plain multiplies it must contain, so
# an empty or unreadable listing fails instead of passing.
fma_check() { # objdump, library, multiply pattern, fused pattern, name
  local dis n_mul n_fma
  dis=$scratch/listing
  "$1" -d "$2" > "$dis"
  n_mul=$(grep -ciE "$3" "$dis" || true)
  n_fma=$(grep -ciE "$4" "$dis" || true)
  rm -f "$dis"
  [ "$n_mul" -gt 0 ] || { echo "$5: no multiplies in the listing of $2: the FMA check sees nothing"; exit 1; }
  [ "$n_fma" -eq 0 ] || { echo "$5: $n_fma fused multiply-adds in $2: results would differ by backend"; exit 1; }
  echo "$5: $n_mul multiplies, no fused multiply-add"
}
fma_check objdump build-test-gcc/kernel/libsepax.so '\svmulps' '\svfn?m(add|sub)' x86-64
fma_check aarch64-linux-gnu-objdump build-test-neon/kernel/libsepax.so '\sfmul\s' '\sf(n)?m(la|ls|add|sub)\s' aarch64
clang-format --dry-run -Werror kernel/*.c kernel/*.h include/*.h tests/*.c tests/*.h \
  tests/consumer/*.c tests/consumer/*.cc tests/fuzz/*.c tests/fuzz/*.h bench/*.c bench/*.h tests/peers/*.cc bench/peers/*.c \
  bench/peers/*.cc bench/peers/*.h
echo "clang-format: clean"
dest=$scratch/installed
mkdir -p "$dest"
DESTDIR="$dest" meson install -C build-test-gcc --no-rebuild >/dev/null
prefix=$(meson introspect build-test-gcc --buildoptions | python3 -c \
  'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"))')
pcdir=$(dirname "$(find "$dest" -name sepax.pc)")
cflags=$(PKG_CONFIG_SYSROOT_DIR="$dest" PKG_CONFIG_PATH="$pcdir" pkg-config --cflags sepax)
libs=$(PKG_CONFIG_SYSROOT_DIR="$dest" PKG_CONFIG_PATH="$pcdir" pkg-config --libs sepax)
cc $cflags tests/consumer/example.c $libs -o "$dest/example"
installed_lib=$(dirname "$(find "$dest" -name 'libsepax.so' | head -1)")
LD_LIBRARY_PATH="$installed_lib" "$dest/example"
# fails when program $1 needs libsepax.so (a static link was asked for); $2 says whose
static_only() {
  local needs
  needs=$(ldd "$1")
  case "$needs" in *libsepax*) echo "$2: a static link needs libsepax.so"; exit 1 ;; esac
}
# static, as pkg-config --static gives it: no libsepax.so needed at run time
static_libs=$(PKG_CONFIG_SYSROOT_DIR="$dest" PKG_CONFIG_PATH="$pcdir" pkg-config --static --libs sepax)
cc $cflags tests/consumer/example.c ${static_libs/-lsepax/-l:libsepax.a} -o "$dest/example-static"
"$dest/example-static" >/dev/null
static_only "$dest/example-static" "pkg-config --static"
# the headers as C99 and from C++ at the warnings engines build with
printf '#include <sepax.h>\n#include <sepax_ref.h>\nunsigned f(void) { return SEPAX_FEATURE_ID(1, 2, 0, 1); }\n' \
  >"$dest/c99.c"
for c in gcc clang; do
  $c -std=c99 -pedantic-errors -Wall -Wextra -Werror -Wc++-compat $cflags -c "$dest/c99.c" -o "$dest/c99.o"
done
for cxx in g++ clang++; do
  extra=""
  [ $cxx = g++ ] && extra="-Wuseless-cast" # g++ only
  for std in c++11 c++17; do
    $cxx -std=$std -pedantic-errors -Wall -Wextra -Werror -Wold-style-cast $extra \
      -Wzero-as-null-pointer-constant -Wconversion -Wsign-conversion $cflags \
      tests/consumer/header_check.cc $libs -o "$dest/header_check"
    LD_LIBRARY_PATH="$installed_lib" "$dest/header_check" >/dev/null
  done
done
echo "pkg-config consumer (installed under $dest$prefix; shared, static, C99, C++11 and C++17): ok"
cmk=$scratch/cmake-consumer
mkdir -p "$cmk"
cp tests/consumer/example.c tests/consumer/CMakeLists.txt "$cmk/"
# Makefiles whatever CMAKE_GENERATOR says: the moved-tree check reads their link.txt
cmake -G "Unix Makefiles" -S "$cmk" -B "$cmk/build" -DCMAKE_PREFIX_PATH="$dest$prefix" >/dev/null
cmake --build "$cmk/build" >/dev/null
LD_LIBRARY_PATH="$installed_lib" "$cmk/build/example"
# the same build dir once the tree has moved: the library must come from the new place
cfgdir=$(dirname "$(find "$dest" -name sepaxConfig.cmake)")
mv "$dest" "$dest.moved"
cmake -S "$cmk" -B "$cmk/build" -Dsepax_DIR="$dest.moved${cfgdir#"$dest"}" >/dev/null
cmake --build "$cmk/build" >/dev/null
grep -q -F "$dest.moved/" "$cmk/build/CMakeFiles/example.dir/link.txt" ||
  { echo "CMake: the moved tree's consumer still links the old place"; exit 1; }
mv "$dest.moved" "$dest"
# found through a symlink to the config's dir (as merged /usr's /lib -> usr/lib): the
# prefix comes from the real place, not from going up the link's side
ln -s "$cfgdir" "$cmk/alias"
rm -rf "$cmk/build"
cmake -G "Unix Makefiles" -S "$cmk" -B "$cmk/build" -Dsepax_DIR="$cmk/alias" >/dev/null
cmake --build "$cmk/build" >/dev/null
# the static library when asked for
rm -rf "$cmk/build"
cmake -G "Unix Makefiles" -S "$cmk" -B "$cmk/build" -DCMAKE_PREFIX_PATH="$dest$prefix" \
  -DSEPAX_USE_STATIC_LIBS=ON >/dev/null
cmake --build "$cmk/build" >/dev/null
"$cmk/build/example" >/dev/null
static_only "$cmk/build/example" "CMake"
echo "CMake find_package consumer (installed, moved, through a symlink; static): ok"
sub=$scratch/meson-consumer
mkdir -p "$sub"
mkdir -p "$sub/subprojects"
ln -s "$root" "$sub/subprojects/sepax"
cp tests/consumer/example.c "$sub/"
cat >"$sub/meson.build" <<'MESON'
project('consumer', 'c', default_options: ['c_std=c11'])
executable('example', 'example.c', dependencies: dependency('sepax'), install: true)
MESON
# forced to the subproject: dependency('sepax') would take an installed sepax first
meson setup --force-fallback-for=sepax --prefix "$sub/prefix" "$sub/build" "$sub" >/dev/null
ninja -C "$sub/build" >/dev/null
"$sub/build/example"
# a subproject builds the static library alone: a shared one would be unused build time
if find "$sub/build" -name 'libsepax.so*' | grep .; then
  echo "the subproject built a shared sepax it does not use"; exit 1
fi
# installed, it runs where no sepax library was installed: sepax is linked in
meson install -C "$sub/build" >/dev/null
if ldd "$sub/prefix/bin/example" | grep -F libsepax; then
  echo "the subproject consumer needs a shared sepax the subproject does not install"; exit 1
fi
"$sub/prefix/bin/example"
echo "meson subproject consumer (built, and installed): ok"
rm -rf "$dest" "$cmk" "$sub"
fresh build-test-neon
fresh "$inc"

step "6/7 valgrind memcheck, helgrind"
# Three emulated tables are left out here: avx2_portable runs AVX2's lanes (as the native AVX2
# copy does), avx512_256_emulated AVX2's lane count with AVX-512's operations (as the 512-bit
# emulated copy's operations do), and its Zen 5 table those two copies' code; the 512-bit and
# NEON emulated copies stay, as the only memcheck of their lanes on a CPU without AVX-512 and
# on x86.
SEPAX_TEST_ROUNDS=1 SEPAX_TEST_PAIRS=20000 \
  SEPAX_TEST_SKIP_KERNELS=avx2_portable,avx512_256_emulated,avx512_256_emulated_zen5 \
  meson test -C build-test-gcc --print-errorlogs \
  --timeout-multiplier 4 --no-suite equiv-driver --wrap="$root/tools/valgrind-wrap.sh"
# data races: many threads querying one store (a ThreadSanitizer build would instrument every
# kernel copy again, tens of minutes of compiling; helgrind needs none)
valgrind --tool=helgrind --error-exitcode=1 -q build-test-gcc/tests/sepax-threads \
  --threads 3 --pairs 3000 --rounds 1

step "7/7 libFuzzer"
for t in polygon queries poses scene; do
  # (a KEEP=1 folder from before the fuzz targets were part of it would lack them)
  [ -x build-test-asan/tests/fuzz_$t ] || { echo "fuzz_$t was not built"; exit 1; }
  work=$scratch/fuzz-$t
  mkdir -p "$work"
  cp tests/fuzz/corpus/$t/* "$work/"
  rc=0
  build-test-asan/tests/fuzz_$t -max_total_time="${FUZZ_SECONDS:-60}" -print_final_stats=1 \
    -artifact_prefix="$work/" "$work" >"$work.log" 2>&1 || rc=$?
  grep -E 'stat::number_of_executed_units|Done' "$work.log" || true
  # A finding is a non-zero exit or a crash-/leak-/timeout-/oom- file (libFuzzer writes one
  # for each). Until 2026-11-28 this was one `ls` of all four patterns, true only when
  # every kind was there, and the exit status went into a pipe: no finding could fail it.
  found=$(find "$work" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
    -o -name 'oom-*' \) -print)
  if [ "$rc" -ne 0 ] || [ -n "$found" ]; then
    echo "fuzz_$t found a failing input (exit $rc): ${found:-no artifact written}"
    tail -n 40 "$work.log"
    exit 1
  fi
  echo "fuzz_$t: no finding"
done

echo
echo "all test stages passed"
echo "stages: 7 passed, 0 failed ($SECONDS s)"
