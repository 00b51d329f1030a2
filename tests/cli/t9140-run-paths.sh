#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# Paths a RUN's files name, and parts of a RUN that are links (issue 22):
# they resolve inside the RUN or are refused and reported. A kernel_dir of
# ../outside/kd in events.jsonl, a log naming a module outside the RUN,
# and RUN/cache or RUN/capture/kernels linked elsewhere are not read by
# summarize, investigate or collect; each says what it left out.
. "$(dirname "$0")/lib.sh"

EXAMPLE=$SRC_ROOT/examples/h200-run
NAME=triton_poi_fused_index_add_zeros_1

test_expect_success 'setup: a RUN whose events name a kernel folder outside it' '
	mkdir -p run/capture/kernels outside/kd/tune/t &&
	printf "{\"schema_version\": 1, \"event\": \"kernel\", \"kernel\": \"k\", \"source_hash\": \"aa\", \"kernel_dir\": \"../outside/kd\", \"heuristic_type\": \"pointwise\"}\n" \
		>run/capture/events.jsonl &&
	echo "{\"schema_version\": 1, \"args\": [{\"name\": \"SECRET_ARG\", \"kind\": \"tensor\", \"shape\": [4], \"stride\": [1], \"storage_offset\": 0, \"element_size\": 4, \"storage\": 0, \"dtype\": \"float32\"}]}" \
		>outside/kd/capture.json &&
	printf "@triton.jit\ndef k(SECRET_PARAM):\n    pass\n" >outside/kd/kernel.py &&
	echo "{\"schema_version\": 1, \"tool\": \"tko tune\", \"mode\": \"SECRET_MODE\", \"kernels\": [{\"kernel\": \"k\", \"source\": \"outside/kd/kernel.py\", \"winner\": {\"label\": \"SECRET_WIN\", \"time_ms\": 0.001}}]}" \
		>outside/kd/tune/t/tune.json
'

test_expect_success 'kernel_dir ../outside/kd: not read, and said in summarize and the report' '
	tko summarize run --json s.json >/dev/null &&
	json_q s.json ".kernels[0].kernel_dir == null" >/dev/null &&
	json_q s.json ".kernels[0].errors[0].text | test(\"kernel_dir .../outside/kd. is not capture/kernels/<name> inside the RUN; not read\")" >/dev/null &&
	tko -q investigate run >/dev/null &&
	test_grep -v SECRET run/report/report.md &&
	test_grep -v SECRET run/analysis/kernels.json &&
	test_grep "kernel_dir .\.\./outside/kd. is not capture/kernels/<name> inside the RUN" run/report/report.md
'

test_expect_success 'an absolute kernel_dir and a kernel folder that is a link out: the same' '
	rm -rf run/analysis run/report &&
	sed "s|\.\./outside/kd|$TRASH/outside/kd|" run/capture/events.jsonl >ev && mv ev run/capture/events.jsonl &&
	tko -q investigate run >/dev/null &&
	test_grep -v SECRET run/report/report.md &&
	rm -rf run/analysis run/report &&
	ln -s "$TRASH/outside/kd" run/capture/kernels/k-aaaaaaaa &&
	sed "s|$TRASH/outside/kd|capture/kernels/k-aaaaaaaa|" run/capture/events.jsonl >ev && mv ev run/capture/events.jsonl &&
	tko -q investigate run >/dev/null &&
	test_grep -v SECRET run/report/report.md &&
	test_grep "capture/kernels/k-aaaaaaaa/capture.json. leads out of the RUN" run/report/report.md
'

# LeakSanitizer cannot run under ptrace: leaks are checked by the other tests.
test_expect_success_if strace 'a log in a RUN naming a module outside it: that file is never opened' '
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" && export ASAN_OPTIONS &&
	mkdir -p logrun/log logrun/cache/inductor elsewhere/zz &&
	echo "# kernel path: $TRASH/elsewhere/zz/kernel.py" >elsewhere/zz/czz.py &&
	cp "$EXAMPLE/log/model.log" logrun/log/model.log &&
	printf "V1202 15:29:32.676000 475 torch/_inductor/graph.py:2522] [0/0] Output code written to: %s\n" \
		"$TRASH/elsewhere/zz/czz.py" >>logrun/log/model.log &&
	strace -f -e trace=open,openat -o trace "$TKO" summarize logrun --json l.json >/dev/null &&
	test_grep "logrun/log/model.log" trace &&
	test_grep -v "elsewhere/zz" trace &&
	strace -f -e trace=open,openat -o trace "$TKO" -q investigate logrun >/dev/null &&
	test_grep -v "elsewhere/zz" trace &&
	cp logrun/log/model.log loose.log &&
	strace -f -e trace=open,openat -o trace "$TKO" summarize loose.log --json l.json >/dev/null &&
	test_grep "elsewhere/zz/czz.py" trace
'

test_expect_success 'RUN/cache a link out of the RUN: collect, summarize and investigate leave it' '
	cp -R "$EXAMPLE" crun && mv crun/cache ccache && ln -s ../ccache crun/cache &&
	tko collect crun --kernel $NAME --out c >/dev/null 2>err &&
	json_q c/collect.json "[.skipped[] | select(.why == \"leads out of the RUN (a symbolic link)\")] | length == 2" >/dev/null &&
	json_q c/collect.json ".inductor_module == null and (.triton_cache_entries | length == 0)" >/dev/null &&
	test ! -d c/inductor && test ! -d c/triton &&
	tko summarize crun --json s.json >/dev/null &&
	json_q s.json "[.inputs[] | select(.note != null and (.note | test(\"leads out of the RUN\")))] | length == 1" >/dev/null &&
	json_q s.json "[.inputs[] | select(.format == \"best_config\")] | length == 0" >/dev/null &&
	tko -q investigate crun >/dev/null &&
	json_q crun/analysis/kernels.json "[.notes[] | select(test(\"crun/cache/inductor. leads out of the RUN\"))] | length == 1" >/dev/null &&
	json_q crun/analysis/kernels.json ".isa_files == 0" >/dev/null
'

test_expect_success 'RUN/capture/kernels a link out of the RUN: collect lists it as skipped' '
	cp -R "$EXAMPLE" krun && mv krun/capture/kernels kk && ln -s ../../kk krun/capture/kernels &&
	tko collect krun --kernel $NAME --out c2 >/dev/null 2>err &&
	json_q c2/collect.json "[.skipped[] | select(.why == \"leads out of the RUN (a symbolic link)\")] | length == 1" >/dev/null &&
	json_q c2/collect.json ".capture_dir == null" >/dev/null &&
	test ! -d c2/capture
'

test_done
