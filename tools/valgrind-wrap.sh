#!/usr/bin/env bash
# meson test --wrap for memcheck. Criterion runs each test in a child
# process and exits 0 even when valgrind reported an error in that child, so
# every process (children included) logs to its own file, and any non-empty
# log fails the test. Leaks count when definite: a test that Criterion
# skips exits with its runtime's (nanomsg's) buffers still held, which
# memcheck calls "possibly lost".
set -u
logs=$(mktemp -d)
valgrind -q --trace-children=yes --leak-check=full --show-leak-kinds=definite \
  --errors-for-leak-kinds=definite --error-exitcode=1 \
  --log-file="$logs/vg.%p.log" "$@"
rc=$?
bad=0
for f in "$logs"/vg.*.log; do
  [ -s "$f" ] && { cat "$f" >&2; bad=1; }
done
rm -rf "$logs"
[ "$bad" = 0 ] || { echo "valgrind reported errors" >&2; exit 1; }
exit "$rc"
