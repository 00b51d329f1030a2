#!/bin/sh
# tko apply on a small RUN with tune results (tests/data/apply/make-run.py
# says what it holds and where it came from) against a fake command
# (tests/cli/apply-fake/cmd.py) that writes what tko's hook would write.
# Expected values: the lookup keys torch 2.11 computed itself
# (tests/data/apply/lookup-keys.txt), the winners' configs as make-run.py
# wrote them, and step statistics computed by hand in each test.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-apply.sh"

RED=triton_red_fused_embedding_native_layer_norm_0

test_expect_success 'the plan: accepted winners with their configs and torch'"'"'s lookup keys' '
	fresh_run &&
	tko apply run >out.txt 2>err.txt &&
	json_q run/apply/plan.json ".schema_version == 1 and .tool == \"tko apply\" and .backend == \"cuda\" and .target == \"sm_90\"" &&
	json_q run/apply/plan.json "[.kernels[].kernel] | sort == [\"scale_add_kernel\", \"triton_poi_fused_zeros_0\", \"$RED\"]" &&
	key=$(awk -v k=$RED "\$2 == k { print \$3 }" "$D/lookup-keys.txt") &&
	json_q run/apply/plan.json ".kernels[] | select(.kernel == \"$RED\") | .lookup_hash == \"$key\" and .config.kwargs.R0_BLOCK == 2048 and .config.num_warps == 16 and .fused == true" &&
	key=$(awk "\$2 == \"triton_poi_fused_zeros_0\" { print \$3 }" "$D/lookup-keys.txt") &&
	json_q run/apply/plan.json ".kernels[] | select(.kernel == \"triton_poi_fused_zeros_0\") | .lookup_hash == \"$key\"" &&
	src=$(jq -r .source_hash "$D/run/capture/kernels/scale_add_kernel-9176df1e/capture.json") &&
	json_q run/apply/plan.json ".kernels[] | select(.kernel == \"scale_add_kernel\") | .launcher == \"triton\" and .source_hash == \"$src\" and .config.kwargs.BLOCK == 2048"
'

test_expect_success 'not planned: a confirmation that refused the winner (its reason), the default winning' '
	json_q run/apply/plan.json ".skipped | map({(.kernel): .reason}) | add == {\"triton_per_fused__softmax_exp_prepare_softmax_online_sub_view_2\": \"not_confirmed\", \"triton_poi_fused_add_addmm_gelu_mul_view_1\": \"default_is_best\"}" &&
	test_grep "not_confirmed: the 95% interval includes 1" out.txt &&
	test_grep "3 winners planned, 0 ran as planned, 2 kernels not planned" out.txt
'

test_expect_success 'predicted step gain from the profile: 17 us saved of a 1000 us step' '
	json_q run/apply/apply.json ".step.profile_step_ms == 1 and .step.measured_gain == null" &&
	near "$(jq -r .step.predicted_saving_ms run/apply/apply.json)" 0.017 1e-12 &&
	near "$(jq -r .step.predicted_gain run/apply/apply.json)" "$(awk "BEGIN { printf \"%.12f\", 1000 / 983 }")" 1e-9 &&
	json_q run/apply/apply.json ".kernels[] | select(.kernel == \"$RED\") | .share == 0.04"
'

test_expect_success 'one applied run: the proof lists the winner that did not run, with its reason' '
	fresh_run &&
	FAKE_MISS=triton_poi_fused_zeros_0 tko apply --json doc.json run -- $FAKE >out.txt 2>err.txt &&
	json_q doc.json ".summary == {\"planned\": 3, \"ran_winner\": 2, \"not_planned\": 2, \"every_winner_ran\": false}" &&
	json_q doc.json ".kernels[] | select(.kernel == \"triton_poi_fused_zeros_0\") | .status == \"not_launched\" and .reason == \"source_changed\"" &&
	json_q doc.json ".kernels[] | select(.kernel == \"$RED\") | .status == \"ran_winner\" and .reason == null and .constructed == [\"lookup_hit\"]" &&
	json_q doc.json ".runs | length == 1 and .[0].arm == \"applied\" and .[0].ms_per_step == 10 and .[0].losses == [2.5, 2.4]" &&
	test_grep "triton_poi_fused_zeros_0 .* not_launched +source_changed" out.txt &&
	test -s run/apply/runs/1-applied/apply.jsonl && test_grep "step 1 loss 2.5" run/apply/runs/1-applied/stdout.txt
'

test_expect_success 'a second tko apply in the same RUN reads only its own events' '
	tko apply --json doc2.json run -- $FAKE >out.txt 2>err.txt &&
	json_q doc2.json ".summary.every_winner_ran == true" &&
	test_line_count -eq 5 run/apply/runs/1-applied/apply.jsonl
'

test_expect_success 'the hook environment reaches the command' '
	fresh_run &&
	tko apply run -- python3 -S -c "import os, json; print(json.dumps({\"ms_per_step\": 1, \"env\": [os.environ[k] for k in (\"TKO_APPLY_MODE\", \"TORCHINDUCTOR_CUDAGRAPHS\")]})); print(os.environ[\"PYTHONPATH\"])" >out.txt 2>err.txt &&
	test_grep "^$SRC_ROOT/python/tko/_hook:$SRC_ROOT/python" run/apply/runs/1-applied/stdout.txt &&
	test_grep "\"env\": \[\"apply\", \"0\"\]" run/apply/runs/1-applied/stdout.txt &&
	json_q run/apply/apply.json ".kernels[] | select(.planned) | .status == \"no_record\" and .reason == \"hook_not_loaded\""
'

# Inductor runs the C++ compiler in a temporary folder on files under
# TORCHINDUCTOR_CACHE_DIR: a relative one failed every C++ kernel there.
test_expect_success 'a RUN named relative to here: the command gets absolute paths' '
	fresh_run &&
	tko apply run -- sh -c "printf \"%s\\n\" \"\$TORCHINDUCTOR_CACHE_DIR\" \"\$TRITON_CACHE_DIR\" \"\$TKO_APPLY_DIR\" \"\$TKO_APPLY_PLAN\"" >out.txt 2>err.txt &&
	{
		echo "$PWD/run/apply/cache/applied" &&
		echo "$PWD/run/apply/cache/applied/triton" &&
		echo "$PWD/run/apply/runs/1-applied" &&
		echo "$PWD/run/apply/plan.json"
	} >expect &&
	test_cmp expect run/apply/runs/1-applied/stdout.txt &&
	test_grep "plan: run/apply/plan.json$" out.txt
'

test_expect_success 'a tune result without a kernel name: one line naming the file, no plan' '
	fresh_run &&
	t=run/capture/kernels/triton_poi_fused_zeros_0-294e5e16/tune &&
	f=$(find "$t" -name tune.json | head -1) &&
	jq ".kernels[0].kernel = null" "$f" >"$f.new" && mv "$f.new" "$f" &&
	test_must_fail tko apply run >out.txt 2>err.txt &&
	test_grep "tune.json: kernels\[0\] has no kernel name" err.txt &&
	test_one_line_error err.txt &&
	! test -e run/apply/plan.json
'

test_done
