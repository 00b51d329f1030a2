#!/bin/sh
# Replays every fuzz target's seeds and saved crashers through its plain
# driver (tests/fuzz/driver.c), for make check:
#
#	tests/fuzz/replay.sh BUILD_DIR NAME...
#
# With FUZZ_VALGRIND=1 each driver runs under valgrind (memcheck, leaks
# are errors). Any crash, hang, sanitizer report or leak fails the run.
set -eu
dir=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:${ASAN_OPTIONS:-}"
UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-}"
export ASAN_OPTIONS UBSAN_OPTIONS
list=$(mktemp "${TMPDIR:-/tmp}/tko-seeds.XXXXXX")
trap 'rm -f "$list"' EXIT

failed=0
for name in "$@"; do
	"$here/seeds.sh" "${name#fuzz-}" >"$list"
	set -- "$dir/$name"
	if [ "${FUZZ_VALGRIND:-0}" = 1 ]; then
		set -- valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect "$@" -t 600
	fi
	if "$@" - <"$list" 2>"$list.err"; then
		echo "ok $name: $(tail -n 1 "$list.err")"
	else
		echo "FAILED $name:"
		tail -n 40 "$list.err"
		failed=$((failed + 1))
	fi
	rm -f "$list.err"
done
[ "$failed" -eq 0 ]
