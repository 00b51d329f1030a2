#!/bin/sh
# tko run: checking kernel directories, driving the replay child (a fake
# tko.replay here, steered by FAKE_REPLAY), the time limit (exit 124), the
# exit statuses, and the bytes moved / GB/s / fraction-of-copy arithmetic,
# whose expected values are computed here with awk or by hand.
# Test bodies are single-quoted for eval, as lib.sh wants; variables set
# here are read inside them.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

export TKO_PYTHONPATH="$TRASH/pkg"
export TKO_PYTHON="${TKO_TEST_PYTHON:-python3}"

test_expect_success_if python3 'setup a RUN with one kernel dir and a fake replay' '
	mkdir -p pkg/tko run/capture/kernels/k-0123abcd run/cache/triton &&
	: >pkg/tko/__init__.py &&
	cat >pkg/tko/replay.py <<-\EOF &&
	import json, os, sys, time
	mode = os.environ.get("FAKE_REPLAY", "ok")
	argv = sys.argv[1:]
	out = argv[argv.index("--json") + 1]
	dirs = argv[:argv.index("--json")]
	with open(os.path.join(os.environ["TKO_TEST_TRASH"], "child-env"), "w") as f:
	    f.write("TRITON_CACHE_DIR=%s\nargv=%s\n" % (os.environ.get("TRITON_CACHE_DIR"), " ".join(argv)))
	if mode == "sleep":
	    time.sleep(60)
	if mode == "progress":
	    open(argv[argv.index("--progress") + 1], "w").write("1 3 k-0123abcd\n")
	    time.sleep(2.5)
	if mode == "notorch":
	    print("tko run: no torch: No module named torch", file=sys.stderr)
	    sys.exit(3)
	if mode == "notorch-doc":
	    json.dump({"schema_version": 1, "tool": "tko.replay", "error": "no torch: No module named torch",
	               "kernels": []}, open(out, "w"))
	    sys.exit(3)
	if mode == "crash":
	    sys.exit(1)
	cfg = lambda i, ms, ok: {"index": i, "captured": i == 0, "config": {"kwargs": {"XBLOCK": 1024 >> i}},
	    "recorded_time_ms": 0.02, "time_ms": ms, "min_ms": ms, "autotuner_method_ms": 0.021,
	    "outputs_match": ok, "outputs_exact": ok, "error": None}
	def copied(c):
	    c.update(autotuner_method_no_cpu_copy_ms=0.0125, autotuner_method_cpu_copy_args=[
	        {"name": "out_ptr0", "bytes": 67108864}])
	    return c
	doc = {"schema_version": 1, "tool": "tko.replay", "versions": {"device": "fake"}, "error": None,
	    "kernels": [{"kernel_dir": d, "kernel": "k", "error": None,
	                 "configs": [cfg(0, 0.01, True), copied(cfg(1, 0.04, mode != "mismatch"))]}
	                for d in dirs]}
	json.dump(doc, open(out, "w"))
	EOF
	cat >run/capture/kernels/k-0123abcd/capture.json <<-\EOF &&
	{"schema_version": 1, "kernel": "k", "args": [
	  {"name": "in_ptr0", "kind": "tensor", "shape": [1024, 256], "stride": [256, 1],
	   "storage_offset": 0, "element_size": 4, "storage": 0},
	  {"name": "out_ptr0", "kind": "tensor", "shape": [1024, 256], "stride": [256, 1],
	   "storage_offset": 0, "element_size": 4, "storage": 1},
	  {"name": "xnumel", "kind": "scalar", "value": 262144}],
	 "inductor_num_bytes": 2097152, "configs": [{}, {}]}
	EOF
	echo "def k(in_ptr0, out_ptr0, xnumel): pass" >run/capture/kernels/k-0123abcd/kernel.py &&
	printf "{\"bandwidth\": {\"copy_gbps\": 4000.0}}\n" >run/env.json
'
export TKO_TEST_TRASH="$TRASH"
KD=run/capture/kernels/k-0123abcd

test_expect_success_if python3 'times, bytes moved, GB/s and fraction of the measured copy rate' '
	tko run $KD --json out.json >table &&
	bytes=$((1024 * 256 * 4 * 2)) &&
	json_q out.json ".kernels[0].footprint_bytes == $bytes and .kernels[0].bytes == $bytes" &&
	json_q out.json ".kernels[0].bytes_estimate == false" &&
	want=$(awk "BEGIN { printf \"%.6f\", $bytes / 0.01e-3 / 1e9 }") &&
	json_q out.json ".kernels[0].configs[0].gbps * 1000000 | round / 1000000" >got &&
	awk "BEGIN { exit !(($(cat got) - $want)^2 < 1e-6) }" &&
	json_q out.json ".kernels[0].configs[1].copy_fraction" >got &&
	awk "BEGIN { exit !(($(cat got) - $bytes / 0.04e-3 / 1e9 / 4000)^2 < 1e-9) }" &&
	json_q out.json "[.kernels[0].configs[].rate_doubt] == [null, null]" &&
	json_q out.json ".peak.copy_gbps == 4000 and (.peak.source | endswith(\"env.json\"))" &&
	json_q out.json ".summary.kernels == 1 and .summary.failed == 0 and .summary.configs == 2" &&
	json_q out.json ".kernels[0].configs[0].autotuner_method_vs_recorded * 1000 | round == 1050" &&
	test_grep "^k +0\* +0.0100 +0.0210 +0.0200 +2.1 +210 +5% +identical" table &&
	test_grep "peak: 4000 GB/s" table
'

# 2,097,152 bytes in 0.01 ms is 209.7 GB/s: over 105% of a 100 GB/s copy.
test_expect_success_if python3 'a rate over 105% of the copy rate is flagged with its cause, not printed as a fact' '
	tko run $KD --peak-gbps 100 --json out.json >table &&
	json_q out.json ".kernels[0].configs[0].rate_doubt | startswith(\"L2-resident reuse: 2.1 MB\")" &&
	json_q out.json ".kernels[0].configs[1].rate_doubt == null" &&
	test_grep "^k +0\* +0.0100 +0.0210 +0.0200 +2.1 +[(]210[)] +over copy +identical" table &&
	test_grep "^k cfg 0: 210 GB/s is over 105% of the copy rate, not a fact: L2-resident reuse" table &&
	test_grep -v "^k .* 210%" table
'

test_expect_success_if python3 'the child gets the package, the RUN s Triton cache and the dirs' '
	run=$(cd run && pwd) &&
	test_grep "^TRITON_CACHE_DIR=$run/cache/triton$" child-env &&
	test_grep "^argv=$KD --json .* --reps 0 --progress .*\.progress$" child-env &&
	TRITON_CACHE_DIR=/elsewhere tko run $KD --reps 7 >/dev/null &&
	test_grep "^TRITON_CACHE_DIR=/elsewhere$" child-env && test_grep "reps 7 --progress" child-env
'

test_expect_success_if python3 '--peak-gbps overrides env.json' '
	tko run $KD --peak-gbps 2000 --json out.json >/dev/null &&
	json_q out.json ".peak.copy_gbps == 2000 and .peak.source == \"--peak-gbps\""
'

# docs/json.md: a tko env --measure that measured nothing leaves bandwidth null and says why.
test_expect_success_if python3 'no peak: env.json s bandwidth_error is the reason given, not --measure again' '
	cp run/env.json env-measured.json &&
	printf "{\"schema_version\": 1, \"tool\": \"tko env\", \"bandwidth\": null,\
 \"bandwidth_error\": \"no GPU (torch sees none)\"}\n" >run/env.json &&
	tko run $KD --json out.json >table &&
	json_q out.json ".peak == null" &&
	test_grep "^peak: not measured: no GPU [(]torch sees none[)] [(]RUN/env.json.s bandwidth_error[)]; --peak-gbps gives one$" table &&
	test_grep -v "tko env --measure" table &&
	printf "{\"schema_version\": 1, \"tool\": \"tko env\", \"bandwidth\": null}\n" >run/env.json &&
	tko run $KD >table &&
	test_grep "^peak: not measured [(]run .tko env --measure --json RUN/env.json.[)]$" table &&
	printf "{\"bandwidth\": null, \"bandwidth_error\": \"no torch\"}\n" >given.json &&
	tko run $KD --env given.json >table &&
	test_grep "^peak: not measured: no torch [(]given.json.s bandwidth_error[)]; --peak-gbps gives one$" table &&
	mv env-measured.json run/env.json
'

test_expect_success_if python3 'outputs that disagree: exit 1 with the JSON still written' '
	FAKE_REPLAY=mismatch test_expect_code 1 tko run $KD --json out.json >table 2>err &&
	json_q out.json ".summary.mismatched == 1" &&
	test_grep "DIFFER" table && test_grep "disagree" err
'

test_expect_success_if python3 'a replay past --timeout is stopped: exit 124, quickly' '
	rm -f out.json && start=$(date +%s) &&
	FAKE_REPLAY=sleep test_expect_code 124 tko run $KD --timeout 1 --json out.json 2>err &&
	test $(($(date +%s) - start)) -lt 20 &&
	test_one_line_error err && test_grep "ran past 1 s" err && test ! -e out.json
'

test_expect_success_if python3 'no torch or GPU: exit 3; a dead replay: exit 5' '
	FAKE_REPLAY=notorch test_expect_code 3 tko run $KD 2>err &&
	test_grep "no torch" err &&
	FAKE_REPLAY=notorch-doc test_expect_code 3 tko run $KD 2>err &&
	test_one_line_error err &&
	test_grep "^tko run: the replay needs torch and a GPU: no torch: No module named torch$" err &&
	FAKE_REPLAY=crash test_expect_code 5 tko run $KD 2>err &&
	test_one_line_error err && test_grep "wrote no result" err
'

test_expect_success 'no python at all: exit 3' '
	TKO_PYTHON=/no/such/python test_expect_code 3 tko run $KD 2>err &&
	test_grep "python" err
'

test_expect_success 'bad kernel dirs are refused before any child starts' '
	rm -f child-env &&
	test_expect_code 1 tko run no-such-dir 2>err && test_one_line_error err &&
	mkdir empty && test_expect_code 1 tko run empty 2>err &&
	test_one_line_error err && test_grep "empty/capture.json" err &&
	mkdir bad && echo "{" >bad/capture.json &&
	test_expect_code 1 tko run bad 2>err && test_one_line_error err && test_grep "cannot parse" err &&
	mkdir other && echo "{\"schema_version\": 2}" >other/capture.json &&
	test_expect_code 1 tko run other 2>err && test_grep "not a tko capture" err &&
	test ! -e child-env
'

test_expect_success 'bad command lines' '
	test_expect_code 2 tko run 2>err &&
	test_expect_code 2 tko run $KD --timeout 0 2>err &&
	test_expect_code 2 tko run $KD --timeout x 2>err
'

test_expect_success_if python3 'the host-copy path is reported with both times' '
	tko run $KD --json out.json >table &&
	test_grep "^k cfg 1: the autotuner restored out_ptr0 [(]67.1 MB[)] from pinned host memory inside each timed call: 0.0210 ms with it, 0.0125 ms without$" table
'

stored() {
	json_q run/analysis/replay.json "$1"
}

test_expect_success_if python3 'without --json the result is kept in RUN/analysis/replay.json' '
	rm -rf run/analysis &&
	tko run $KD >table &&
	test_grep "^kept in .*/run/analysis/replay.json$" table &&
	stored ".schema_version == 2 and .tool == \"tko run\"" &&
	stored "[.kernels[].kernel_dir] == [\"capture/kernels/k-0123abcd\"]" &&
	stored ".summary.kernels == 1 and .summary.configs == 2" &&
	test "$(ls -A run/analysis)" = replay.json
'

test_expect_success_if python3 'a later replay of other kernels keeps the first ones; a new one replaces its own' '
	mkdir run/capture/kernels/a-00000000 &&
	cp $KD/capture.json $KD/kernel.py run/capture/kernels/a-00000000/ &&
	tko run run/capture/kernels/a-00000000/ >/dev/null &&
	stored "[.kernels[].kernel_dir] == [\"capture/kernels/a-00000000\", \"capture/kernels/k-0123abcd\"]" &&
	stored ".summary.kernels == 2 and .summary.mismatched == 0" &&
	FAKE_REPLAY=mismatch test_expect_code 1 tko run $KD >/dev/null 2>err &&
	stored ".summary.kernels == 2 and .summary.mismatched == 1" &&
	stored "[.kernels[] | select(.kernel_dir == \"capture/kernels/k-0123abcd\") | .configs[1].outputs_match] == [false]"
'

test_expect_success_if python3 'with --json, outside a RUN, or across RUNs nothing is kept' '
	rm -rf run/analysis && tko run $KD --json out.json >/dev/null && test ! -e run/analysis &&
	mkdir -p loose/k-0123abcd && cp $KD/capture.json $KD/kernel.py loose/k-0123abcd/ &&
	tko run loose/k-0123abcd >table && test ! -e loose/analysis && test ! -e analysis &&
	test_grep -v "kept in" table &&
	mkdir -p run2/capture/kernels && cp -r loose/k-0123abcd run2/capture/kernels/ &&
	tko run $KD run2/capture/kernels/k-0123abcd >/dev/null &&
	test ! -e run/analysis && test ! -e run2/analysis
'

test_expect_success_if python3 'a stored file that is not tko run output is replaced; an unwritable one fails' '
	mkdir -p run/analysis && echo "{\"schema_version\": 1, \"tool\": \"other\"}" >run/analysis/replay.json &&
	tko run $KD >/dev/null && stored ".tool == \"tko run\" and .summary.kernels == 1" &&
	rm -rf run/analysis && echo plain >run/analysis &&
	test_expect_code 1 tko run $KD >table 2>err &&
	test_one_line_error err && test_grep "analysis" err && test "$(cat run/analysis)" = plain &&
	rm run/analysis
'

test_expect_success_if python3 'progress: the kernel the replay is on, and the time left' '
	FAKE_REPLAY=progress TKO_PROGRESS=1 tko run $KD --json out.json 2>err >/dev/null &&
	test_grep "^tko run: replaying kernel 2 of 3 \(k-0123abcd\): [0-9]+ s, about [0-9]+ s left$" err &&
	line=$(grep "replaying kernel" err | head -n 1) &&
	t=$(echo "$line" | sed "s/.*): \([0-9]*\) s,.*/\1/") &&
	left=$(echo "$line" | sed "s/.*about \([0-9]*\) s left/\1/") &&
	echo "one of three kernels done in $t s: $left s left" &&
	test $((left - 2 * t)) -ge -2 && test $((left - 2 * t)) -le 2 &&
	test_line_count = 1 err &&
	test ! -e "$(sed -n "s/.*--progress \([^ ]*\).*/\1/p" child-env)"
'

# in_out_ptr0 is read and written in place: 2 x 1 MiB, in_ptr0 1 MiB read.
test_expect_success_if python3 'an in-place argument is counted both ways' '
	mkdir -p inplace/k-11111111 &&
	cat >inplace/k-11111111/capture.json <<-\EOF &&
	{"schema_version": 1, "kernel": "k", "args": [
	  {"name": "in_out_ptr0", "kind": "tensor", "shape": [1024, 256], "stride": [256, 1],
	   "storage_offset": 0, "element_size": 4, "storage": 0},
	  {"name": "in_ptr0", "kind": "tensor", "shape": [1024, 256], "stride": [256, 1],
	   "storage_offset": 0, "element_size": 4, "storage": 1}],
	 "mutated_arg_names": ["in_out_ptr0"], "configs": [{}, {}]}
	EOF
	printf "%s\n" "import triton" "import triton.language as tl" "@triton.jit" \
		"def k(in_out_ptr0, in_ptr0, xnumel, XBLOCK: tl.constexpr):" \
		"    x0 = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)" \
		"    tmp0 = tl.load(in_out_ptr0 + x0)" "    tmp1 = tl.load(in_ptr0 + x0)" \
		"    tl.store(in_out_ptr0 + x0, tmp0 + tmp1)" >inplace/k-11111111/kernel.py &&
	tko run inplace/k-11111111 --peak-gbps 4000 --json out.json >/dev/null &&
	json_q out.json ".kernels[0].bytes == $((3 * 1024 * 256 * 4)) and .kernels[0].footprint_bytes == $((2 * 1024 * 256 * 4))" &&
	json_q out.json ".kernels[0].bytes_note == \"2 tensors read, 1 written\""
'

test_done
