#!/bin/sh
# tko apply --ab stopped by a signal (src/cmd/apply.c, run_ab; util/cleanup.h,
# cleanup_hold_signals): the run in progress is stopped and not counted,
# apply.json is written from the runs before it with ab.stopped saying so,
# and tko then dies of the signal (143 for SIGTERM); a command that ignores
# SIGTERM is killed two seconds later; a second signal within those two
# seconds is the same stop (a wrapper's stop often comes twice), one after
# them ends tko at once, with no apply.json. (SIGINT is held alike, but a
# shell starts background jobs with SIGINT ignored, and tko keeps it so:
# util/cleanup.h.) The command is the fake one (tests/cli/apply-fake/cmd.py):
# FAKE_HANG makes one run create ./hang and sleep.
# Expected figures, by hand: arms default, applied, 3 rounds, no warm-up:
# runs 1 default, 2 applied (round 0), 3 applied, 4 default (round 1),
# 5 default (round 2, the third default run: it hangs). Default 10 ms;
# applied 9 then 9.5: ratios .90 and .95, median .925, interval [.90, .95],
# level 1 - 2/2^2 = .5.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-apply.sh"

# stop SIG [SIG2 DELAY]: tko apply --ab 3 in the background, SIG once the
# third default run hangs (SIG2 DELAY seconds after it, when given); its
# exit status in ./rc
# shellcheck disable=SC2086  # $FAKE is a command line, split on purpose
stop() {
	rm -f hang rc arms.log && fresh_run &&
	{ FAKE_LOG=$PWD/arms.log FAKE_HANG=default:3 FAKE_HANG_FILE=$PWD/hang \
		FAKE_MS="default=10;applied=9,9.5" \
		"$TKO" apply --ab 3 --warmup 0 run -- $FAKE >out.txt 2>err.txt & } &&
	pid=$! && i=0 &&
	while ! test -e hang && test "$i" -lt 300; do sleep 0.1; i=$((i + 1)); done &&
	test -e hang &&
	kill -"$1" "$pid" &&
	if test -n "${2:-}"; then sleep "$3" && kill -"$2" "$pid"; fi &&
	{ wait "$pid"; echo $? >rc; }
}

test_expect_success 'SIGTERM in run 5: apply.json from the four runs before it, then 143' '
	stop TERM &&
	test "$(cat rc)" = 143 &&
	doc=run/apply/apply.json &&
	json_q $doc ".ab.stopped == {\"signal\": \"SIGTERM\", \"run\": 5, \"complete_rounds\": 2}" &&
	json_q $doc "[.runs[] | [.n, .arm, .round]] == [[1, \"default\", 0], [2, \"applied\", 0], [3, \"applied\", 1], [4, \"default\", 1]]" &&
	test -d run/apply/runs/5-default &&
	json_q $doc ".ab.rounds == 3 and (.ab.arms[] | select(.arm == \"applied\") | .ms_per_step == [9, 9.5, null])" &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"applied\") | .vs_default.median" $doc)" 0.925 1e-9 &&
	json_q $doc ".ab.arms[] | select(.arm == \"applied\") | .vs_default.rounds == 2 and .vs_default.ci95 == [0.9, 0.95] and .vs_default.level == 0.5" &&
	test_grep "^stopped by SIGTERM in run 5 \\(not counted\\): 2 of 3 measured rounds complete" out.txt &&
	test_grep "SIGTERM stopped the A/B in run 5; apply.json gets the 4 runs before it" err.txt &&
	test "$(grep -c "^default$" arms.log)" = 3
'

test_expect_success 'a command that ignores SIGTERM is killed 2 s later; the same apply.json' '
	FAKE_HANG_IGNORE_TERM=1 && export FAKE_HANG_IGNORE_TERM &&
	start=$(date +%s) && stop TERM && end=$(date +%s) &&
	unset FAKE_HANG_IGNORE_TERM &&
	test "$(cat rc)" = 143 &&
	test $((end - start)) -lt 30 &&
	json_q run/apply/apply.json ".ab.stopped.run == 5 and (.runs | length) == 4"
'

test_expect_success 'a second SIGTERM 0.2 s after the first is the same stop: apply.json all the same' '
	FAKE_HANG_IGNORE_TERM=1 && export FAKE_HANG_IGNORE_TERM &&
	stop TERM TERM 0.2 &&
	unset FAKE_HANG_IGNORE_TERM &&
	test "$(cat rc)" = 143 &&
	json_q run/apply/apply.json ".ab.stopped.run == 5 and (.runs | length) == 4"
'

# the run killed, its escaped grandchild keeps the output open: tko still
# waits on it 3 s on, when the second signal comes
test_expect_success 'a second SIGTERM 3 s after the first: at once, no apply.json' '
	FAKE_HANG_ESCAPE=1 && export FAKE_HANG_ESCAPE &&
	start=$(date +%s) && stop TERM TERM 3 && end=$(date +%s) &&
	unset FAKE_HANG_ESCAPE &&
	kill "$(cat hang.escaped)" &&
	test "$(cat rc)" = 143 &&
	test $((end - start)) -lt 30 &&
	test ! -e run/apply/apply.json
'

test_expect_success 'one complete round: the runs are kept, no ratio from a single round' '
	rm -f hang rc && fresh_run &&
	{ FAKE_LOG=$PWD/arms2.log FAKE_HANG=applied:2 FAKE_HANG_FILE=$PWD/hang FAKE_MS="default=10;applied=9" \
		"$TKO" apply --ab 3 --warmup 0 run -- $FAKE >out.txt 2>err.txt & } &&
	pid=$! && i=0 &&
	while ! test -e hang && test "$i" -lt 300; do sleep 0.1; i=$((i + 1)); done &&
	kill -TERM "$pid" && { wait "$pid"; echo $? >rc; } &&
	test "$(cat rc)" = 143 &&
	doc=run/apply/apply.json &&
	json_q $doc ".ab.stopped == {\"signal\": \"SIGTERM\", \"run\": 3, \"complete_rounds\": 1}" &&
	json_q $doc "(.runs | length) == 2 and (.ab.arms[] | select(.arm == \"applied\") | .vs_default == null and .ms_per_step[0] == 9)" &&
	json_q $doc ".ab.applied_vs[0].ratio == null and .ab.applied_vs[0].slower_beyond_noise == null"
'

test_expect_success 'without a signal, ab.stopped is null' '
	fresh_run &&
	tko apply --ab 2 --warmup 0 run -- $FAKE >out.txt 2>err.txt &&
	json_q run/apply/apply.json ".ab.stopped == null" &&
	! test_grep "^stopped by" out.txt
'

test_done
