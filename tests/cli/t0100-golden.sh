#!/bin/sh
# shellcheck disable=SC2016 # test bodies are single-quoted, eval'd by lib.sh
# The golden suite (tests/golden/README.md) as TAP: one test per case, each
# comparing what tko printed and wrote with the case's expected/ folder
# (run.sh runs them all at once: inputs are copied once per run).
# Then a self-test: a copy of one case whose expected stdout has one byte
# changed must fail, and the unchanged copy pass, so a difference cannot
# slip through the suite's own machinery.
. "$(dirname "$0")/lib.sh"

G=$SRC_ROOT/tests/golden
RUN=$G/run.sh

# Under valgrind every tko the cases start runs under it too: valgrind by
# its full path (a case may run tko with a PATH that lacks it), and the
# binary the outputs name (tko cluster records /proc/self/exe) given to
# run.sh, since $TKO is then the wrapper.
if [ "${TKO_VALGRIND:-0}" = 1 ]; then
	printf '#!/bin/sh\nexec "%s" -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect "%s" "$@"\n' \
		"$(command -v valgrind)" "$TKO" >"$TRASH/tko-valgrind" && chmod +x "$TRASH/tko-valgrind"
	GOLDEN_TKO_EXE=$(readlink -f "$TKO")
	TKO=$TRASH/tko-valgrind
	export TKO GOLDEN_TKO_EXE
fi

# One run of the suite; each case's line ("ok C", "FAIL C", "skip C (why)")
# becomes a TAP line, the diff lines after a failure its comments.
"$RUN" >"$TRASH/golden.out" 2>&1
while IFS= read -r line; do
	case $line in
	"ok "*)
		test_count=$((test_count + 1))
		echo "ok $test_count - golden ${line#ok }" ;;
	"skip "*)
		test_count=$((test_count + 1))
		echo "ok $test_count # skip golden ${line#skip }" ;;
	"FAIL "*)
		test_count=$((test_count + 1))
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - golden ${line#FAIL }" ;;
	"run.sh: "*" case(s) failed") ;;
	*)
		echo "# $line" ;;
	esac
done <"$TRASH/golden.out"

test_expect_success 'the suite ran every case' '
	ls "$G"/*/*/cmd >cases &&
	test "$(grep -c "^\(ok\|FAIL\|skip\) " "$TRASH/golden.out")" -eq "$(wc -l <cases)"
'

# flip_first_byte FILE: its first byte changed to another.
flip_first_byte() {
	first=$(head -c 1 "$1")
	if [ "$first" = a ]; then new=b; else new=a; fi
	{ printf %s "$new"; tail -c +2 "$1"; } >"$1.flipped" && mv "$1.flipped" "$1"
}

test_expect_success 'self-test: one changed byte in an expected file fails its case' '
	mkdir -p copy/tests/golden/help &&
	cp "$RUN" "$G/normalise.sh" "$G/env.jq" "$G/INPUTS" copy/tests/golden/ &&
	cp -R "$G/help/top" copy/tests/golden/help/ &&
	copy/tests/golden/run.sh help/top >out &&
	test_grep "^ok help/top$" out &&
	flip_first_byte copy/tests/golden/help/top/expected/stdout &&
	! cmp -s "$G/help/top/expected/stdout" copy/tests/golden/help/top/expected/stdout &&
	test_expect_code 1 copy/tests/golden/run.sh help/top >out &&
	test_grep "^FAIL help/top$" out &&
	test_grep "^-[ab]" out
'

test_expect_success 'an unknown case is a failure, not a silent pass' '
	test_expect_code 1 "$RUN" no/such-case >out &&
	test_grep "^FAIL no/such-case" out
'

test_done
