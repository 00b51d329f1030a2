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

test_done
