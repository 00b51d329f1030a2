#!/bin/sh
# tko capture: the RUN skeleton, the environment given to the command, the
# tee to log/model.log, exit status passthrough, tko-run.json; and, with a
# fake Inductor on PYTHONPATH, the Python hook writing events and a kernel dir.
# Test bodies are single-quoted for eval, as lib.sh wants; variables set
# here are read inside them.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

TKO_PYTHON=/no/such/python
unset TORCH_LOGS TRITON_PRINT_AUTOTUNING TORCHINDUCTOR_BENCHMARK_KERNEL PYTHONUNBUFFERED
export TKO_PYTHON

test_expect_success 'setup a fake model' '
	cat >model.sh <<-\EOF &&
	#!/bin/sh
	echo "out one"
	echo "err one" >&2
	echo "args: $*"
	for v in TKO_CAPTURE_DIR TORCHINDUCTOR_CACHE_DIR TRITON_CACHE_DIR TORCH_LOGS TKO_CAPTURE_KERNELS; do
		eval "echo $v=\${$v-unset}"
	done
	echo "PYTHONPATH=$PYTHONPATH"
	echo made >"$TORCHINDUCTOR_CACHE_DIR/by-model"
	exit ${MODEL_EXIT:-0}
	EOF
	chmod +x model.sh
'

test_expect_success 'the RUN skeleton, the environment, the log and exit status 3' '
	MODEL_EXIT=3 test_expect_code 3 tko capture --out run1 -- ./model.sh "a b" c >out 2>err &&
	for d in log capture/kernels cache/inductor cache/triton; do test -d "run1/$d" || exit 1; done &&
	test -f run1/env.json && test -f run1/cache/inductor/by-model &&
	run=$(cd run1 && pwd) &&
	test_grep "^TKO_CAPTURE_DIR=$run/capture$" out &&
	test_grep "^TORCHINDUCTOR_CACHE_DIR=$run/cache/inductor$" out &&
	test_grep "^TRITON_CACHE_DIR=$run/cache/triton$" out &&
	test_grep "^TORCH_LOGS=\+inductor$" out &&
	test_grep "^PYTHONPATH=$SRC_ROOT/python/tko/_hook:$SRC_ROOT/python" out &&
	test_grep "^args: a b c$" out &&
	test_grep "^err one$" err &&
	test_grep "^out one$" run1/log/model.log && test_grep "^err one$" run1/log/model.log &&
	test_grep "^args: a b c$" run1/log/model.log
'

test_expect_success 'tko-run.json records the command, times and status' '
	json_q run1/tko-run.json ".schema_version == 1 and .tool == \"tko capture\"" &&
	json_q run1/tko-run.json ".argv == [\"./model.sh\", \"a b\", \"c\"]" &&
	json_q run1/tko-run.json ".exit_status == 3 and .signal == null and .command_found" &&
	json_q run1/tko-run.json ".end_unix >= .start_unix and (.start_time | test(\"^[0-9-]+T[0-9:]+Z$\"))" &&
	json_q run1/tko-run.json ".env_set.TORCH_LOGS == \"+inductor\" and .log == \"log/model.log\"" &&
	json_q run1/tko-run.json ".capture.events == 0 and .capture.kernel_dirs == 0"
'

test_expect_success 'the user s own TORCH_LOGS is kept; --kernels is passed on' '
	TORCH_LOGS=output_code tko capture --out run2 --kernels "^triton_red" -- ./model.sh >out 2>/dev/null &&
	test_grep "^TORCH_LOGS=output_code$" out &&
	test_grep "^TKO_CAPTURE_KERNELS=\^triton_red$" out &&
	json_q run2/tko-run.json ".env_kept.TORCH_LOGS == \"output_code\" and .kernels_regex == \"^triton_red\""
'

test_expect_success 'a command killed by a signal: 128+N, and the signal recorded' '
	printf "#!/bin/sh\nkill -TERM \$\$\n" >die.sh && chmod +x die.sh &&
	test_expect_code 143 tko capture --out run3 -- ./die.sh 2>/dev/null &&
	json_q run3/tko-run.json ".exit_status == 143 and .signal == 15"
'

test_expect_success 'a command that cannot be run: 127, one error line, recorded' '
	test_expect_code 127 tko -q capture --out run4 -- ./no-such-model 2>err &&
	test_one_line_error err && test_grep "no-such-model" err &&
	json_q run4/tko-run.json ".command_found == false and .exit_status == 127"
'

test_expect_success 'an existing non-empty RUN is refused, untouched' '
	mkdir run5 && echo keep >run5/file &&
	test_expect_code 1 tko capture --out run5 -- ./model.sh 2>err >/dev/null &&
	test_one_line_error err && test_grep "run5.* not empty" err &&
	test "$(ls run5)" = file &&
	mkdir run6 && tko capture --out run6 -- ./model.sh >/dev/null 2>&1
'

test_expect_success 'no command, or arguments before --, are usage errors' '
	test_expect_code 2 tko capture --out run7 2>err && test_grep "after .--." err &&
	test_expect_code 2 tko capture --out run7 -- 2>err &&
	test_expect_code 2 tko capture stray -- ./model.sh 2>err && test_grep "stray" err &&
	test ! -e run7
'

test_expect_success 'without the Python package: exit 3 and a one-line reason' '
	TKO_PYTHONPATH=$TRASH/nowhere test_expect_code 3 tko capture --out run8 -- ./model.sh 2>err &&
	test_one_line_error err && test_grep "TKO_PYTHONPATH" err
'

test_expect_success_if python3 'with a fake Inductor, the hook captures a kernel' '
	cat >model.py <<-\EOF &&
	from torch._inductor.runtime.triton_heuristics import CachingAutotuner
	k = CachingAutotuner()
	print("result", k.run(7, 9, 2048, stream=0), k.run(7, 9, 2048, stream=0))
	EOF
	printf "# the kernel module\ndef triton_poi_fused_fake_0(in_ptr0, out_ptr0, xnumel, XBLOCK):\n    pass\n" \
		>kernel_module.py &&
	PYTHONPATH=$SRC_ROOT/tests/python/fakes FAKE_KERNEL_FILE=$TRASH/kernel_module.py \
		tko capture --out run9 -- python3 model.py >out 2>err &&
	test_grep "^result 2064 2064$" out &&
	ev=run9/capture/events.jsonl &&
	n=$(grep -c . "$ev") &&
	json_q run9/tko-run.json ".capture.events" >got && echo "$n" >expect && test_cmp expect got &&
	test "$(grep -c "\"event\": \"autotune\"" "$ev")" = 1 &&
	test "$(grep -c "\"event\": \"error\"" "$ev")" = 0 &&
	h=$(python3 -c "import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],\"rb\").read()).hexdigest()[:8])" kernel_module.py) &&
	test -f "run9/capture/kernels/triton_poi_fused_fake_0-$h/capture.json" &&
	json_q run9/tko-run.json ".capture.kernel_dirs == 1" &&
	test_grep "triton_poi_fused_fake_0: chosen by benchmark" run9/capture/autotune.log
'

test_done
