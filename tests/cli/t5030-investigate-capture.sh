#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko investigate -- CMD: the command is captured into a new RUN with
# tko capture, the kernels it saved are replayed with tko run, then the RUN
# is analysed; its exit status is reported (exit 5), the report is written
# either way. The model is a shell script: no GPU (and no Python, so the
# replay's failure is the warning a machine without torch gets).
. "$(dirname "$0")/lib.sh"

TKO_PYTHON=/no/such/python
unset TORCH_LOGS TRITON_PRINT_AUTOTUNING TORCHINDUCTOR_BENCHMARK_KERNEL PYTHONUNBUFFERED
export TKO_PYTHON

test_expect_success 'setup a fake model that prints an Inductor log line' '
	cat >model.sh <<-\EOF &&
	#!/bin/sh
	echo "Best config for triton_poi_fused_zeros_0: XBLOCK: 512, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None: 0.011456, nreg 6, nspill 0, #shared-mem 0"
	if test -n "$SAVE_KERNEL"; then
		mkdir -p "$TKO_CAPTURE_DIR/kernels/triton_poi_fused_zeros_0-0123abcd" "$TKO_CAPTURE_DIR/kernels/.tmp-x-1-0"
	fi
	exit ${MODEL_EXIT:-0}
	EOF
	chmod +x model.sh
'

test_expect_success 'capture, then analyse and report' '
	tko investigate --out run1 -- ./model.sh >out 2>err &&
	test -f run1/tko-run.json && test -f run1/log/model.log &&
	test -s run1/report/report.md && test -s run1/analysis/kernels.json &&
	json_q run1/report/report.json ".command == \"./model.sh\"" &&
	json_q run1/report/report.json ".kernels[] | select(.name == \"triton_poi_fused_zeros_0\") | .time_ms == 0.011456" &&
	test_grep "^1 kernel the model ran" out &&
	test_grep "nothing to replay" err
'

test_expect_success 'the kernels the capture saved are replayed before the report' '
	SAVE_KERNEL=1 tko investigate --out run4 -- ./model.sh >out 2>err &&
	test_grep "replaying the 1 captured kernel directory" err &&
	test_grep "the replay exited with status" err &&
	test -s run4/report/report.md
'

test_expect_success '--no-replay leaves them alone' '
	SAVE_KERNEL=1 tko investigate --no-replay --out run5 -- ./model.sh >out 2>err &&
	! grep -q replay err &&
	test -s run5/report/report.md
'

test_expect_success 'a failing command: exit 5, the report is still written' '
	MODEL_EXIT=3 test_expect_code 5 tko investigate --out run2 -- ./model.sh >out 2>err &&
	test_grep "exited with status 3" err &&
	test -s run2/report/report.html
'

test_expect_success 'a command that cannot be started' '
	test_expect_code 5 tko investigate --out run3 -- ./no-such-model >out 2>err &&
	json_q run3/tko-run.json ".command_found == false"
'

# When tko-run.json says the command launched no Triton kernel, the hints
# say what happened (from its exit status, command_found, and env.json's
# versions), not "no capture ... capture again" with a list of moot gaps.
test_expect_success 'no kernel launched: the one gap says what the command did' '
	json_q run3/report/report.json "[.gaps[].what] == [\"no capture: the command could not be started (exit status 127: not found or not executable)\"]" &&
	test_grep "^gap: no capture: the command could not be started" out &&
	test "$(grep -c "^gap:" out)" = 1 &&
	printf "#!/bin/sh\necho model: no such file >&2\nexit 2\n" >fails.sh &&
	printf "#!/bin/sh\necho done\n" >idle.sh &&
	chmod +x fails.sh idle.sh &&
	test_expect_code 5 tko investigate --out run6 -- ./fails.sh >out 2>err &&
	json_q run6/tko-run.json ".exit_status == 2 and .capture.events == 0" &&
	grep -Fx "gap: no capture: the command failed (exit status 2; its own output says why) before it launched any Triton kernel: tko investigate --out RUN2 -- ./fails.sh" out &&
	test "$(grep -c "^gap:" out)" = 1 &&
	tko investigate --out run7 -- ./idle.sh >out 2>err &&
	json_q run7/tko-run.json ".exit_status == 0 and .versions.torch == null" &&
	grep -Fx "gap: no capture: the command ran (exit status 0) and launched no Triton kernel: torch is not importable here (RUN/env.json), and the kernels come from torch.compile: tko env" out &&
	json_q run7/report/report.json ".gaps | length == 1 and .[0].command == \"tko env\""
'

test_expect_success 'a failed command whose log names a kernel: the gap says it failed, and the cost' '
	json_q run2/report/report.json ".gaps[0].what | startswith(\"no capture: the command failed (exit status 3; its own output says why); the arguments\")" &&
	json_q run2/report/report.json "[.gaps[].what | select(startswith(\"no measured peak\"))] | length == 1"
'

# A RUN tko capture made whose kernels were launched (tko-run.json's capture
# counts 3 launch events, written here by hand) but whose log has no Inductor
# line and whose cache/triton is empty: the gaps say tko set TORCH_LOGS and
# TRITON_CACHE_DIR (env_set) and what still kept them out, not "set it".
test_expect_success 'launched kernels, no log, no Triton cache: the gaps say what tko set' '
	SAVE_KERNEL=1 tko investigate --no-replay --out run8 -- ./model.sh >out 2>err &&
	jq ".capture.by_type = {\"launch\": 3}" run8/tko-run.json >m.json &&
	mv m.json run8/tko-run.json &&
	echo "model: done" >run8/log/model.log &&
	tko investigate run8 >out 2>err &&
	! grep -F "(tko capture sets it)" out &&
	grep -F "gap: no TORCH_LOGS=+inductor log: no autotune times and no user source lines; tko capture set TORCH_LOGS=+inductor (tko-run.json'"'"'s env_set), yet the RUN'"'"'s logs have no Inductor line." out &&
	json_q run8/report/report.json "[.gaps[] | select(.what | startswith(\"no TORCH_LOGS\"))][0].command == null" &&
	json_q run8/report/report.json "[.gaps[] | select(.what | startswith(\"no Triton cache\"))][0] | (.what | contains(\"tko capture set TRITON_CACHE_DIR=RUN/cache/triton (tko-run.json'"'"'s env_set), yet no kernel was compiled there though tko'"'"'s hook recorded 3 launches.\")) and .command == null" &&
	json_q run8/report/report.json "[.gaps[] | select(.what | startswith(\"no whole-step profile\"))][0].what | contains(\"watched the command'"'"'s 3 Triton launches for a steady state\")"
'

test_expect_success 'the user'"'"'s own TORCH_LOGS, which tko kept: theirs with +inductor added' '
	jq "del(.env_set.TORCH_LOGS) | .env_kept.TORCH_LOGS = \"dynamo\"" run8/tko-run.json >m.json &&
	mv m.json run8/tko-run.json &&
	tko investigate run8 >out 2>err &&
	grep -F "gap: no TORCH_LOGS=+inductor log: no autotune times and no user source lines (the command ran with your own TORCH_LOGS='"'"'dynamo'"'"', which tko capture leaves as it is (tko-run.json'"'"'s env_kept); add +inductor to it): TORCH_LOGS=dynamo,+inductor tko investigate --out RUN2 -- ./model.sh" out
'

test_expect_success 'a RUN assembled by hand (no tko-run.json) keeps the advice to set them' '
	rm run8/tko-run.json &&
	tko investigate run8 >out 2>err &&
	grep -Fx "gap: no TORCH_LOGS=+inductor log: no autotune times and no user source lines: TORCH_LOGS=+inductor (tko capture sets it)" out &&
	grep -Fx "gap: no Triton cache in the RUN (cache/triton): no ISA: TRITON_CACHE_DIR=RUN/cache/triton (tko capture sets it)" out
'

# --measure ran and measured nothing (no Python here): the peak gap quotes
# env.json's bandwidth_error instead of only saying "measure".
test_expect_success 'a failed --measure: the peak gap says why' '
	tko investigate --measure --no-replay --out run9 -- ./model.sh >out 2>err &&
	why=$(jq -r .bandwidth_error run9/env.json) && test -n "$why" && test "$why" != null &&
	grep -F "gap: no measured peak bandwidth: footprint rates are not compared with anything (--measure measured nothing: $why (RUN/env.json'"'"'s bandwidth_error); run this where torch sees the GPU, or pass --peak-gbps): tko env --measure --json run9/env.json" out
'

test_done
