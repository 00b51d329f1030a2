#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# Shell metacharacters in everything tko hands to a child process: the
# captured command's arguments, RUN, kernel-directory and file names passed
# to the replay, the tune worker and the disassemblers, and kernel names in
# logs. Children get argv arrays, never a shell, so every such string must
# arrive byte for byte and no command hidden in it may run (each would
# create a file named PWNED*).
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-isa.sh"

RUN=$SRC_ROOT/examples/h200-run
NAME=triton_poi_fused_index_add_zeros_1
T=$CORPUS/h200-run1/cache/triton
CUBIN=$T/CIQD67PLQOSAV3EHPTCUZ7U2CV32YNGKRIOI55SER653524VFUQQ/$NAME.cubin
EVIL='x;touch PWNED1 $(touch PWNED2) `touch PWNED3` |touch PWNED4 &&touch PWNED5 '"'"'"\*?[a] >PWNED6'

no_pwned() {
	test -z "$(find "$TRASH" -name "PWNED*")" ||
		{ echo "a hidden command ran:" >&2; find "$TRASH" -name "PWNED*" >&2; return 1; }
}

test_expect_success 'tko capture: the command gets its arguments verbatim' '
	TKO_PYTHON=/no/such/python tko capture --out "run $EVIL" -- \
		sh -c "printf \"%s\\n\" \"\$@\" >args" sh "$EVIL" "a b" "" "*" >/dev/null 2>&1 &&
	printf "%s\n" "$EVIL" "a b" "" "*" >expect &&
	test_cmp expect args &&
	test -f "run $EVIL/tko-run.json" &&
	json_q "run $EVIL/tko-run.json" ".argv[-1] == \"*\"" &&
	no_pwned
'

test_expect_success 'tko run: a kernel directory with metacharacters reaches the replay intact' '
	mkdir -p pkg/tko && : >pkg/tko/__init__.py &&
	cat >pkg/tko/replay.py <<-\EOF &&
	import json, os, sys
	a = sys.argv[1:]
	open(os.environ["ARGV_OUT"], "w").write("\n".join(a[:a.index("--json")]) + "\n")
	json.dump({"schema_version": 1, "tool": "tko.replay", "versions": {}, "error": None,
	           "kernels": []}, open(a[a.index("--json") + 1], "w"))
	EOF
	cp -r "$RUN/capture/kernels/$NAME-470ead05" "k $EVIL" &&
	ARGV_OUT=$TRASH/argv TKO_PYTHONPATH=$TRASH/pkg TKO_PYTHON=python3 \
		tko run --json r.json "k $EVIL" >/dev/null &&
	printf "%s\n" "k $EVIL" >expect &&
	test_cmp expect argv &&
	no_pwned
'

test_expect_success_if nvdisasm 'tko isa: a cubin with metacharacters in its name goes to the disassembler intact' '
	cp "$CUBIN" "c $EVIL.cubin" &&
	tko isa --json isa.json "c $EVIL.cubin" >/dev/null &&
	json_q isa.json ".kernels[0].name == \"$NAME\"" &&
	no_pwned
'

test_expect_success 'tko tune: a kernel file with metacharacters goes to the worker intact' '
	cp "$RUN/capture/kernels/$NAME-470ead05/kernel.py" "t $EVIL.py" &&
	TKO_PYTHON="$SRC_ROOT/.venv/bin/python" \
		tko tune --compile-only --target gfx942 --no-search --max-variants 1 --out tout \
		--json tune.json "t $EVIL.py" >/dev/null &&
	json_q tune.json ".kernels[0].kernel == \"$NAME\"" &&
	no_pwned
'

test_expect_success 'kernel names with metacharacters: read as text, refused as names' '
	printf "%s\n" "V1202 15:29:32.921000 475 torch/_inductor/runtime/triton_heuristics.py:1185] Best config for triton_\$(touch PWNED7): XBLOCK: 1024, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None" >evil.log &&
	{ tko summarize --json s.json evil.log >/dev/null 2>&1 || test $? -eq 1; } &&
	test_expect_code 1 tko collect "$RUN" --kernel "$NAME;touch PWNED8" --out c 2>err &&
	test_grep "is not a kernel name" err &&
	no_pwned
'

test_done
