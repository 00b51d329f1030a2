#!/bin/sh
# tko investigate --tune-top N: after the decisions, the N hottest kernels
# marked "tune" are tuned with the tune library, each into its capture
# directory's tune/tune.json (where tko tune KERNEL_DIR writes, and where
# the report and tko apply read), and the report is written again with the
# results. The RUN is the repository's example (examples/h200-run, a real
# H200 capture); the GPU is tko tune's stand-in worker (tests/cli/tune-fake),
# which times a kernel without XBLOCK (the template) by its num_warps from
# $TKO_FAKE_WARPS: num_warps 8 at half the time of the base's 4 is the
# winner, 2.00x, by construction.
# The kernels the example's decisions mark tune, by share, as its report
# lists them: triton_tem_fused_mm_relu_0 (22.5%),
# triton_red_fused_embedding_native_layer_norm_0 (5.4%),
# triton_per_fused__softmax_exp_prepare_softmax_online_sub_view_2 (5.1%).
# Exit statuses from docs/exit-codes.md: 3 when the worker has no GPU,
# 1 when a kernel cannot be tuned; the report is written either way.
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-tune.sh"

use_fake_gpu
# shellcheck disable=SC2089,SC2090 # JSON for the fake worker: its quotes are meant literally
{
	TKO_FAKE_WARPS='{"4": 1.0, "8": 0.5}'
	export TKO_FAKE_WARPS
}
TEM=capture/kernels/triton_tem_fused_mm_relu_0-3f61ad14
RED=capture/kernels/triton_red_fused_embedding_native_layer_norm_0-e8ab9538
PER=capture/kernels/triton_per_fused__softmax_exp_prepare_softmax_online_sub_view_2-7692c56a
export TEM RED PER

fresh_run() {
	rm -rf "$1" && cp -r "$SRC_ROOT/examples/h200-run" "$1"
}

test_expect_success 'setup: the example marks three captured kernels tune, none tuned' '
	fresh_run run &&
	tko investigate --out-dir plain run >out 2>err &&
	test "$(json_q plain/analysis/kernels.json "[.kernels[] | select(.decision == \"tune\") |
		.kernel_dir] | join(\" \")")" = "$TEM $RED $PER" &&
	test "$(json_q plain/analysis/kernels.json .tunes)" = 0
'

test_expect_success '--tune-top 2 tunes the two hottest into their tune/tune.json' '
	tko investigate --tune-top 2 --tune-budget 5 run >out 2>err &&
	test -s run/$TEM/tune/tune.json &&
	test -s run/$RED/tune/tune.json &&
	! test -e run/$PER/tune &&
	test "$(json_q run/$TEM/tune/tune.json .mode)" = gpu &&
	test "$(json_q run/$TEM/tune/tune.json ".kernels[0].kernel")" = triton_tem_fused_mm_relu_0
'

test_expect_success 'progress on stderr, a line as each kernel starts and ends' '
	test_grep "^tko tune: note: \[1/2\] triton_tem_fused_mm_relu_0 \(22\.5% of the GPU time\)$" err &&
	test_grep "^tko tune: note: \[1/2\] triton_tem_fused_mm_relu_0: winner num_warps=8 after" err &&
	test_grep "^tko tune: note: \[2/2\] triton_red_fused_embedding_native_layer_norm_0 \(5\.4%" err &&
	test "$(grep -c "\[2/2\]" err)" -eq 2 &&
	! grep -q "\[3/" err
'

test_expect_success 'the template'"'"'s winner is the fake'"'"'s: num_warps=8, 2x' '
	test "$(json_q run/$TEM/tune/tune.json ".kernels[0].winner.label")" = num_warps=8 &&
	test "$(json_q run/$TEM/tune/tune.json ".kernels[0].winner.speedup")" = 2
'

test_expect_success 'the report written again names the tuned kernel and its result' '
	test "$(json_q run/analysis/kernels.json .tunes)" = 2 &&
	test "$(json_q run/report/report.json ".kernels[] | select(.name == \"triton_tem_fused_mm_relu_0\") |
		.tune.file")" = "$TEM/tune/tune.json" &&
	json_q run/report/report.json ".kernels[] | select(.name == \"triton_tem_fused_mm_relu_0\") |
		.rules | map(.rule) | index(\"tuned\") != null" &&
	test_grep "^\*\*tko tune\*\* \(gpu, sm_90\): winner num_warps=8, 2\.00x .*\`$TEM/tune/tune\.json\`" \
		run/report/report.md
'

test_expect_success 'tko apply finds them where investigate put them' '
	tko apply run >out 2>err &&
	test "$(json_q run/apply/plan.json "[.kernels[].kernel] | join(\" \")")" = triton_tem_fused_mm_relu_0 &&
	test "$(json_q run/apply/plan.json ".kernels[0].predicted.speedup")" = 2
'

test_expect_success 'run again: the tuned kernels are not tuned again' '
	cp fake.log fake.before &&
	tko investigate --tune-top 2 run >out 2>err &&
	test_cmp fake.before fake.log &&
	test "$(grep -c "has a tune result already" err)" -eq 2 &&
	! grep -q "\[1/" err
'

test_expect_success 'with --json -, stdout holds one report: the one after tuning' '
	fresh_run run2 &&
	tko investigate --tune-top 1 --json - run2 >report.json 2>err &&
	test "$(json_q report.json .tunes)" = 1 &&
	test -s run2/$TEM/tune/tune.json
'

test_expect_success 'usage: --tune-budget without --tune-top, a negative count' '
	test_expect_code 2 tko investigate --tune-budget 5 run 2>err &&
	test_one_line_error err &&
	test_expect_code 2 tko investigate --tune-top -1 run 2>err &&
	test_one_line_error err
'

test_expect_success 'no GPU for the worker: exit 3, the report is still written' '
	fresh_run run3 &&
	TKO_PYTHON_DIR="$SRC_ROOT/python" &&
	export TKO_PYTHON_DIR &&
	test_expect_code 3 tko investigate --tune-top 2 run3 >out 2>err &&
	test_grep "^tko tune: no GPU is visible to the tune worker.*use tko tune --compile-only --target ARCH$" err &&
	test_grep -v "^tko investigate: no GPU" err &&
	test_grep "1 kernel not tried" err &&
	! test -e run3/$TEM/tune/tune.json &&
	test -s run3/report/report.md &&
	test "$(json_q run3/analysis/kernels.json .tunes)" = 0
'

test_expect_success 'a kernel that cannot be tuned: exit 1, the others are' '
	fresh_run run4 &&
	ln -s /nonexistent run4/$TEM/tune &&
	test_expect_code 1 tko investigate --tune-top 2 run4 >out 2>err &&
	test_grep "is a symbolic link" err &&
	test -s run4/$RED/tune/tune.json &&
	test "$(json_q run4/analysis/kernels.json .tunes)" = 1 &&
	test -s run4/report/report.md
'

# With -- CMD: the model is a script that plays the example back (its log
# on stdout, its capture and caches where tko capture points it), so the
# capture step has a RUN to give; tko capture takes its Python package from
# $TKO_PYTHON_DIR too, so that folder is the real package with the fake
# worker in it. LINK_TUNE=1 makes every kernel's tune/ a link, which tko
# tune refuses (exit 1); MODEL_EXIT=3 makes the command fail (exit 5).
test_expect_success 'setup: a model that plays the example back' '
	mkdir py &&
	cp -r "$SRC_ROOT/python/tko" py/ &&
	cp "$TESTS_DIR/tune-fake/tko/tune_worker.py" py/tko/ &&
	cat >model.sh <<-\EOF &&
	#!/bin/sh
	EX=$SRC_ROOT/examples/h200-run
	cat "$EX/log/model.log" &&
	cp -r "$EX/capture/." "$TKO_CAPTURE_DIR/" &&
	cp -r "$EX/cache/inductor/." "$TORCHINDUCTOR_CACHE_DIR/" &&
	cp -r "$EX/cache/triton/." "$TRITON_CACHE_DIR/" || exit 99
	if test -n "$LINK_TUNE"; then
		for d in "$TKO_CAPTURE_DIR"/kernels/*/; do ln -s /nonexistent "$d/tune"; done
	fi
	exit ${MODEL_EXIT:-0}
	EOF
	chmod +x model.sh
'

test_expect_success 'with -- CMD: capture, decide, tune one kernel, report again' '
	TKO_PYTHON_DIR=$TRASH/py &&
	export TKO_PYTHON_DIR &&
	tko investigate --no-replay --tune-top 1 --out crun -- ./model.sh >out 2>err &&
	test "$(ls crun/capture/kernels/*/tune/tune.json | wc -l)" -eq 1 &&
	test "$(json_q crun/analysis/kernels.json .tunes)" = 1 &&
	test_grep "^tko tune: note: \[1/1\] " err
'

test_expect_success 'with -- CMD: a kernel that cannot be tuned is exit 1' '
	TKO_PYTHON_DIR=$TRASH/py &&
	export TKO_PYTHON_DIR &&
	LINK_TUNE=1 test_expect_code 1 tko investigate --no-replay --tune-top 1 --out crun2 -- \
		./model.sh >out 2>err &&
	test_grep "is a symbolic link" err &&
	test -s crun2/report/report.md
'

test_expect_success 'with -- CMD: the command'"'"'s failure (5) comes before the tuning'"'"'s (1)' '
	TKO_PYTHON_DIR=$TRASH/py &&
	export TKO_PYTHON_DIR &&
	MODEL_EXIT=3 LINK_TUNE=1 test_expect_code 5 tko investigate --no-replay --tune-top 1 \
		--out crun3 -- ./model.sh >out 2>err &&
	test_grep "is a symbolic link" err &&
	test_grep "the command exited with status 3" err &&
	test -s crun3/report/report.md
'

# The hottest kernel marked tune without a capture directory (its folder and
# events removed from a copy of the example): tko capture made this RUN
# (tko-run.json), so the note points at its events instead of saying
# "capture the model with tko capture"; without tko-run.json it still does.
test_expect_success 'a tune kernel the RUN'"'"'s capture saved no inputs for: the note says so' '
	fresh_run run6 &&
	rm -r run6/$TEM &&
	grep -v 3f61ad14 run6/capture/events.jsonl >events &&
	mv events run6/capture/events.jsonl &&
	tko investigate --tune-top 1 run6 >out 2>err &&
	grep -Fx "tko tune: note: triton_tem_fused_mm_relu_0 is marked tune but has no captured inputs to tune with (the RUN'"'"'s tko capture saved none for it: RUN/capture/events.jsonl says whether it was launched, selected by --kernels, or failed to snapshot)" err &&
	rm run6/tko-run.json &&
	tko investigate --tune-top 1 run6 >out 2>err &&
	grep -Fx "tko tune: note: triton_tem_fused_mm_relu_0 is marked tune but has no captured inputs to tune with (capture the model with tko capture)" err
'

test_done
