#!/bin/sh
# tko capture keeps the terminal readable: the logging tko itself switches
# on (TORCH_LOGS=+inductor records below WARNING, TRITON_PRINT_AUTOTUNING's
# prints) goes to RUN/log/model.log only, the command's own output and
# torch's warnings still show, `tko -v` shows everything, what the user
# switched on stays visible, and a progress line counts captured kernels.
# The model runs on the fake torch of tests/python/fakes (torch._logging as
# torch sets it up) and a fake triton.runtime.autotuner written here.
# Test bodies are single-quoted for eval, as lib.sh wants.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"

unset TORCH_LOGS TRITON_PRINT_AUTOTUNING TORCHINDUCTOR_BENCHMARK_KERNEL PYTHONUNBUFFERED
PYTHONPATH=$SRC_ROOT/tests/python/fakes:$TRASH/fake
export PYTHONPATH

# The model's lines, by hand: 2 inductor records below WARNING before
# set_logs and 1 after, 1 warning; Triton prints "Autotuning kernel ..."
# (1 line) and "Triton autotuning for function ..." (4 lines); the user
# prints 1 line to stdout and 1 to stderr. Hidden without -v: 3 + 5 = 8.
test_expect_success_if python3 'setup a model with torch logging and Triton prints' '
	mkdir -p fake/triton/runtime &&
	: >fake/triton/__init__.py && : >fake/triton/runtime/__init__.py &&
	cat >fake/triton/runtime/autotuner.py <<-\EOF &&
	class Autotuner:  # what tko.triton_hooks patches; prints as Triton 3.6 does
	    def run(self, name):
	        print(f"Autotuning kernel {name} with config BLOCK: 1024")
	        print(f"Triton autotuning for function {name},\nwith key as (16,),\n"
	              f"finished after 0.01s,\nbest config selected: BLOCK: 1024;")
	    def _bench(self):
	        pass
	EOF
	cat >model.py <<-\EOF
	import logging, sys
	import torch
	from triton.runtime.autotuner import Autotuner
	log = logging.getLogger("torch._inductor.codegen.simd")
	log.debug("Generating kernel code with kernel_name: triton_poi_fake_0")
	log.info("Output code written to: /tmp/fake.py")
	log.warning("a torch warning the user would see anyway")
	print("user line on stdout")
	print("user line on stderr", file=sys.stderr)
	Autotuner().run("scale_add_kernel")
	torch._logging.set_logs(inductor=logging.DEBUG)
	log.debug("after set_logs: still routed")
	EOF
'

test_expect_success_if python3 'the logging tko switched on is in the log only' '
	tko capture --out r1 -- python3 model.py >out 2>err &&
	test_grep "^user line on stdout$" out &&
	test_grep "^user line on stderr$" err &&
	test_grep "a torch warning the user would see anyway$" err &&
	test_grep -v "Generating kernel code|Output code written|after set_logs" err &&
	test_grep -v "Autotuning kernel|Triton autotuning|best config" out &&
	L=r1/log/model.log &&
	for s in "Generating kernel code" "Output code written" "after set_logs" \
		"a torch warning" "^user line on stdout$" "^user line on stderr$" \
		"^Autotuning kernel scale_add_kernel" "^Triton autotuning for function scale_add_kernel,$" \
		"^best config selected: BLOCK: 1024;$"; do
		test "$(grep -c -E "$s" "$L")" = 1 || { echo "not once in the log: $s"; cat "$L"; exit 1; }
	done &&
	json_q r1/tko-run.json ".env_set.TKO_LOG_ROUTE == \"torch,triton\"" &&
	json_q r1/tko-run.json ".env_set.TKO_LOG_FILE == \"$(cd r1 && pwd)/log/model.log\"" &&
	json_q r1/tko-run.json ".log_lines_not_shown == 8" &&
	test_grep "^8 lines of Inductor/Triton logging are in .*/r1/log/model.log only" err
'

test_expect_success_if python3 'tko -v shows them on the terminal too' '
	tko -v capture --out r2 -- python3 model.py >out 2>err &&
	test_grep "Generating kernel code" err && test_grep "after set_logs" err &&
	test_grep "^Triton autotuning for function scale_add_kernel,$" out &&
	test_grep "Generating kernel code" r2/log/model.log &&
	json_q r2/tko-run.json ".log_lines_not_shown == null and .env_set.TKO_LOG_ROUTE == null" &&
	test_grep -v "lines of Inductor/Triton logging" err
'

test_expect_success_if python3 'what the user switched on stays on the terminal' '
	TORCH_LOGS=+inductor tko capture --out r3 -- python3 model.py >out 2>err &&
	test_grep "Generating kernel code" err &&
	test_grep -v "Triton autotuning" out &&
	json_q r3/tko-run.json ".env_set.TKO_LOG_ROUTE == \"triton\" and .log_lines_not_shown == 5" &&
	TORCH_LOGS=+inductor TRITON_PRINT_AUTOTUNING=1 tko capture --out r4 -- python3 model.py >out 2>err &&
	test_grep "^Triton autotuning for function" out &&
	json_q r4/tko-run.json ".env_set.TKO_LOG_FILE == null and .log_lines_not_shown == null"
'

test_expect_success_if python3 'tko investigate -- CMD keeps the terminal as readable' '
	tko investigate --no-replay --out r5 -- python3 model.py >out 2>err &&
	test_grep "^user line on stdout$" out &&
	test_grep -v "Generating kernel code|after set_logs|Triton autotuning" out &&
	test_grep -v "Generating kernel code|after set_logs|Triton autotuning" err &&
	test_grep "Generating kernel code" r5/log/model.log &&
	test -f r5/report/report.md
'

test_expect_success 'progress: how long the command has run and the kernels captured' '
	cat >slow.sh <<-\EOF &&
	#!/bin/sh
	mkdir "$TKO_CAPTURE_DIR/kernels/triton_poi_a-01234567" "$TKO_CAPTURE_DIR/kernels/.tmp-b-1"
	sleep 2
	echo done
	EOF
	chmod +x slow.sh &&
	TKO_PROGRESS=1 tko capture --out r6 -- ./slow.sh >out 2>err &&
	test_grep "^tko capture: running slow.sh: [0-9]+ s, 1 kernel captured$" err &&
	test_grep "^done$" out
'

test_done
