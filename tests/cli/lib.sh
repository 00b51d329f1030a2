# Helpers for tko's shell tests, in the manner of git's t/test-lib.sh.
#
# A test script sources this file, then runs test_expect_success blocks and
# ends with test_done; it prints TAP, so `prove` runs the suite. Each script
# runs in a fresh scratch directory ($TRASH) that is removed at the end
# unless TKO_TEST_KEEP=1. $TKO names the binary under test (an absolute
# path); call it through the `tko` function, which adds valgrind when
# TKO_VALGRIND=1. $CORPUS is tests/corpus (tests/corpus/SOURCES.md).
#
# Rules (from git's t/README): chain every step with &&; use test_must_fail
# rather than `! tko`, because it fails on a crash; never pipe tko's
# output, because a pipe hides its exit status.

: "${TKO:?TKO must name the tko binary under test}"
TESTS_DIR=$(cd "$(dirname "$0")" && pwd)
SRC_ROOT=$(cd "$TESTS_DIR/../.." && pwd)
: "${CORPUS:=$SRC_ROOT/tests/corpus}"
export CORPUS TESTS_DIR SRC_ROOT

# Crashes under the sanitizers must abort, so test_must_fail can tell them
# from a controlled error exit.
ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:${ASAN_OPTIONS:-}"
UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-}"
LC_ALL=C.UTF-8
TKO_PROGRESS=0
export ASAN_OPTIONS UBSAN_OPTIONS LC_ALL TKO_PROGRESS

test_count=0
test_failed=0
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/tko-test.XXXXXX")
cd "$TRASH" || exit 1
trap 'cd /; [ "${TKO_TEST_KEEP:-0}" = 1 ] || rm -rf "$TRASH"' EXIT

tko() {
	if [ "${TKO_VALGRIND:-0}" = 1 ]; then
		valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect "$TKO" "$@"
	else
		"$TKO" "$@"
	fi
}

say_comment() {
	sed 's/^/# /'
}

test_expect_success() {
	test_count=$((test_count + 1))
	if (eval "$2") >"$TRASH/.log" 2>&1; then
		echo "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		say_comment <"$TRASH/.log"
	fi
}

# Skips a test whose prerequisite (a command on PATH) is missing.
test_expect_success_if() {
	if command -v "$1" >/dev/null 2>&1; then
		test_expect_success "$2" "$3"
	else
		test_count=$((test_count + 1))
		echo "ok $test_count # skip $2 (no $1)"
	fi
}

test_done() {
	echo "1..$test_count"
	[ "$test_failed" -eq 0 ]
}

# Runs a command that must exit non-zero, but not by a signal, a sanitizer
# abort or "command not found".
test_must_fail() {
	"$@"
	code=$?
	if [ "$code" -eq 0 ]; then
		echo "test_must_fail: command succeeded: $*" >&2
		return 1
	elif [ "$code" -gt 125 ] || [ "$code" -eq 99 ]; then
		echo "test_must_fail: crash or sanitizer error (exit $code): $*" >&2
		return 1
	fi
	return 0
}

# test_expect_code N CMD...: the command must exit with status N.
test_expect_code() {
	want=$1
	shift
	"$@"
	code=$?
	if [ "$code" -ne "$want" ]; then
		echo "test_expect_code: want exit $want, got $code: $*" >&2
		return 1
	fi
	return 0
}

test_cmp() {
	diff -u "$1" "$2"
}

# test_grep [-v] [-c N] PATTERN FILE: extended-regex match with a message.
test_grep() {
	if [ "$1" = "-v" ]; then
		shift
		if grep -E -e "$1" "$2" >/dev/null; then
			echo "test_grep: '$1' unexpectedly found in $2:" >&2
			cat "$2" >&2
			return 1
		fi
		return 0
	fi
	if ! grep -E -e "$1" "$2" >/dev/null; then
		echo "test_grep: '$1' not found in $2:" >&2
		cat "$2" >&2
		return 1
	fi
}

# test_line_count OP N FILE, OP one of -eq (or "=") -lt -le -gt -ge
test_line_count() {
	n=$(wc -l <"$3")
	case $1 in
	=) op=-eq ;;
	*) op=$1 ;;
	esac
	if ! test "$n" "$op" "$2"; then
		echo "test_line_count: $3 has $n lines, want $1 $2" >&2
		return 1
	fi
}

# json_q FILE FILTER: runs jq (an independent JSON parser) with -e.
json_q() {
	jq -e -r "$2" "$1"
}

# test_one_line_error FILE: stderr holds exactly one line starting "tko ".
test_one_line_error() {
	test_line_count -eq 1 "$1" && test_grep '^tko [a-z]+: ' "$1"
}
