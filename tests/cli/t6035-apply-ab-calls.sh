#!/bin/sh
# tests/gpu/apply-ab.sh over several device calls, without a GPU: the real
# tko, the small RUN of tests/data/apply (as if capture and tune had run in
# an earlier call) and the fake command of tests/cli/apply-fake as the model.
# What a later call finds (docs/apply.md, "Winners slower inside the step"):
#   - a second "ab" call leaves out the winner the first one measured slower
#     inside the step (0.90x in all three rounds: its t-interval is [0.9, 0.9],
#     wholly below 1), unless APPLY_AB_FORGET=1;
#   - a work folder restored from the first call's apply-ab.tar.gz does the same
#     (a fresh machine after a warm one went back), without the binaries;
#   - no RUN at all: exit 4 at once, tko apply not run;
#   - stopped by SIGTERM (timeout(1)), the script still packs apply-ab.tar.gz,
#     and tko apply, stopped in its A/B, still writes apply.json.
# The RUN call 1 packs also holds what tko capture and tune leave on a GPU
# (the H200's: 0.5-1 GB of inputs and 1-3 GB of reference.pt a kernel), here
# 2-4 MiB of random bytes each: the archive holds none of it, stays small,
# and the restore from it still runs the A/B.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-apply.sh"

Z=triton_poi_fused_zeros_0

mkdir -p fake &&
cat >fake/py <<FAKE &&
#!/bin/sh
case \$1 in
-c) echo "torch fake" ;;
*/apply_model.py) shift; [ -n "\${FAKE_SLOW:-}" ] && exec sleep "\$FAKE_SLOW"; exec $FAKE "\$@" ;;
*) exec python3 "\$@" ;;
esac
FAKE
chmod +x fake/py

# ab_call OUT [VAR=VALUE...]: the ab and check phases, three rounds, no warm-up
ab_call() {
	o=$1
	shift
	env FAKE_STEPS=20 FAKE_MS="default=10;coordesc=9.5;applied=9" \
		FAKE_KERNEL_US="default=20;coordesc=20;applied=16" \
		FAKE_KERNEL_US_triton_poi_fused_zeros_0="default=90,91,92;coordesc=90;applied=100" \
		"TKO_PREBUILT=$TKO" "TKO_PYTHON=$PWD/fake/py" "OUT=$PWD/$o" "APPLY_AB_WORK=$PWD/work" \
		APPLY_AB_PHASES="ab check" APPLY_AB_ROUNDS=3 APPLY_AB_WARMUP=0 \
		APPLY_AB_ARMS=default,coordesc,applied "$@" bash "$SRC_ROOT/tests/gpu/apply-ab.sh" \
		>"$o.txt" 2>&1
}

planned() {
	jq -r '[.kernels[] | select(.planned) | .kernel] | sort | join(" ")' "$1/apply.json"
}

# big_run: work/run, the RUN of tests/data/apply with the binaries tko
# capture and tune leave in a kernel folder, incompressible: the captured
# inputs, the base's saved outputs (tune/ and tune/<target>/) and a
# variant's compiled files beside its source; and a winner/ text file
big_run() {
	mkdir work && cp -r "$D/run" work/run &&
	for k in work/run/capture/kernels/*; do
		t=$k/tune && test -d "$t"/sm_90 && t=$t/sm_90
		mkdir -p "$k/inputs" "$t/variants/000" &&
		head -c 4194304 /dev/urandom >"$k/inputs/storage0.bin" &&
		head -c 4194304 /dev/urandom >"$t/reference.pt" &&
		head -c 2097152 /dev/urandom >"$t/variants/000/kernel.cubin" &&
		head -c 1048576 /dev/urandom >"$t/variants/000/kernel.ptx" &&
		echo "# variant 000" >"$t/variants/000/kernel.py" &&
		mkdir -p "$t/winner" && echo "{}" >"$t/winner/config.json" || return 1
	done
}

test_expect_success 'call 1 (--keep-slower): every winner runs, one is judged slower in the step' '
	big_run &&
	test_expect_code 1 ab_call out1 APPLY_AB_KEEP_SLOWER=1 &&
	echo "scale_add_kernel $Z triton_red_fused_embedding_native_layer_norm_0" >expect &&
	planned out1 >actual && test_cmp expect actual &&
	json_q out1/apply.json "[.slower_in_step[] | .kernel] == [\"$Z\"]" &&
	test_grep "^PASS every planned winner ran" out1.txt &&
	test -f out1/checks.json && test -f out1/apply-ab.tar.gz &&
	test_grep -v "judgements stay" out1.txt
'

# 5 kernels of 11 MiB of binaries each (before lib.sh's gpu_pack_blobs the
# archive was 20 MiB, the reference.pt files); the texts the restore needs
# are 70 KiB (tests/data/apply/run), 17 KiB packed with the runs' outputs
test_expect_success 'call 1 archive: no inputs, reference outputs or variants; small; what the restore reads' '
	tar tzf out1/apply-ab.tar.gz >list &&
	test_grep -v "/inputs/.|/variants/.|reference\.pt$|\.bin$|\.cubin$|\.ptx$" list &&
	test "$(stat -c %s out1/apply-ab.tar.gz)" -le 65536 &&
	for k in work/run/capture/kernels/*; do
		k=${k#work/} &&
		test_grep "^$k/capture.json$" list && test_grep "^$k/kernel.py$" list &&
		test_grep "^$k/tune/(sm_90/)?tune.json$" list || return 1
	done &&
	test_grep "^run/capture/kernels/$Z-294e5e16/tune/winner/config.json$" list &&
	test_grep "^run/apply/apply.json$" list
'

test_expect_success 'call 2 on the same work folder: the slower winner is left out of the plan' '
	test_expect_code 1 ab_call out2 &&
	test_grep "^the earlier A/B.s judgements stay" out2.txt &&
	echo "scale_add_kernel triton_red_fused_embedding_native_layer_norm_0" >expect &&
	planned out2 >actual && test_cmp expect actual &&
	json_q out2/apply.json ".left_out == [{\"id\": \"$Z-294e5e16\", \"kernel\": \"$Z\", \"reason\": \"slower_in_step\", \"detail\": \"measured 0.900x [0.900, 0.900] inside the step over 3 rounds; tune predicted 1.250x\", \"of\": \"plan\"}]" &&
	test_grep "^INFO left out of the plan: $Z .slower_in_step" out2.txt
'

test_expect_success 'APPLY_AB_FORGET=1: the earlier judgements go, the winner runs again' '
	test_expect_code 1 ab_call out3 APPLY_AB_FORGET=1 &&
	test_grep -v "judgements stay" out3.txt &&
	echo "scale_add_kernel $Z triton_red_fused_embedding_native_layer_norm_0" >expect &&
	planned out3 >actual && test_cmp expect actual
'

test_expect_success 'a fresh machine: the work folder restored from call 1 archive carries its judgement' '
	rm -rf work && mkdir work && tar xzf out1/apply-ab.tar.gz -C work &&
	test -z "$(find work -name reference.pt -o -name "*.bin" -o -name "*.cubin")" &&
	test_expect_code 1 ab_call out4 &&
	echo "scale_add_kernel triton_red_fused_embedding_native_layer_norm_0" >expect &&
	planned out4 >actual && test_cmp expect actual
'

test_expect_success 'no RUN (a fresh machine, nothing restored): exit 4 before tko apply runs' '
	rm -rf work &&
	test_expect_code 4 ab_call out5 &&
	test_grep "^apply-ab: no RUN at $PWD/work/run" out5.txt &&
	test_grep -v "tko apply:" out5.txt &&
	! test -e out5/apply.json
'

test_expect_success 'stopped by SIGTERM inside a run: apply-ab.tar.gz still holds the runs so far' '
	rm -rf work && mkdir work && cp -r "$D/run" work/run &&
	test_expect_code 124 ab_call out6 FAKE_SLOW=30 timeout 2 &&
	test_grep "^== stopped by a signal: packing what the runs left" out6/apply-ab.log &&
	tar tzf out6/apply-ab.tar.gz >list &&
	test_grep "^run/apply/runs/1-default/stderr.txt$" list &&
	test_grep "^run/apply/plan.json$" list
'

# arms default, coordesc, applied: runs 1-3 round 0, 4-6 round 1, run 7 the
# third default run (round 2), which hangs; SIGTERM to apply-ab.sh then, as
# timeout(1) sends it (sh -c notes the script's pid before it execs it)
test_expect_success 'stopped by SIGTERM in the A/B: tko apply still writes apply.json from the runs before it' '
	rm -rf work hang7 pid7 && mkdir work && cp -r "$D/run" work/run &&
	{ ab_call out7 FAKE_LOG=$PWD/arms7.log FAKE_HANG=default:3 FAKE_HANG_FILE=$PWD/hang7 \
		sh -c "echo \$\$ >\"\$0\"; exec \"\$@\"" "$PWD/pid7" & } &&
	bg=$! n=0 &&
	until test -e hang7; do
		n=$((n + 1)) && test $n -lt 600 && sleep 0.1 || return 1
	done &&
	kill -TERM "$(cat pid7)" &&
	{ wait $bg || :; } &&
	json_q out7/apply.json ".ab.stopped == {\"signal\": \"SIGTERM\", \"run\": 7, \"complete_rounds\": 2} and (.runs | length) == 6" &&
	test_grep "SIGTERM stopped the A/B in run 7; apply.json gets the 6 runs before it" out7/apply-ab.log &&
	test_grep -v "^gpu: still running" out7/apply-ab.log &&
	tar tzf out7/apply-ab.tar.gz >list7 &&
	test_grep "^run/apply/runs/6-default/apply.jsonl$" list7
'

test_done
