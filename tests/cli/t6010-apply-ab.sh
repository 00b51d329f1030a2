#!/bin/sh
# tko apply --ab against the fake command (tests/cli/apply-fake/cmd.py): the
# order of the arms, the statistics of the step times and the loss check,
# with every expected value computed by hand below; and bad input.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-apply.sh"

# Warm-up times are 99 (the first entry of each list); then per round:
# default 10; applied 9.0 9.2 9.4 9.6 9.8 8.8; coordesc 10.5; max-autotune 8.
# applied/default: .90 .92 .94 .96 .98 .88, sorted .88 .90 .92 .94 .96 .98:
# median .93, 6 rounds -> interval [min, max] = [.88, .98], level 1 - 2/64.
# applied/coordesc: median 9.3/10.5, upper 9.8/10.5 < 1: not slower.
# applied/max-autotune: lowest 8.8/8 = 1.1 > 1: slower beyond noise.
# Measured gain 1/.93; predicted 1000/983 (t6000): difference in pp.
test_expect_success 'four arms, one warm-up and six rounds: order, ratios, interval, step gain' '
	fresh_run &&
	FAKE_LOG=$PWD/arms.log FAKE_MS="default=99,10;applied=99,9.0,9.2,9.4,9.6,9.8,8.8;coordesc=99,10.5;max-autotune=99,8" \
		tko apply --ab 6 --warmup 1 --arms default,coordesc,max-autotune,applied run -- $FAKE >out.txt 2>err.txt &&
	fwd="default coordesc max-autotune applied" && rev="applied max-autotune coordesc default" &&
	echo $fwd $rev $fwd $rev $fwd $rev $fwd | tr " " "\n" >expect.log &&
	test_cmp expect.log arms.log &&
	doc=run/apply/apply.json &&
	json_q $doc ".ab.rounds == 6 and .ab.warmup == 1 and (.runs | length) == 28 and ([.runs[] | select(.measured | not)] | length) == 4" &&
	json_q $doc ".ab.arms[] | select(.arm == \"applied\") | .ms_per_step == [9, 9.2, 9.4, 9.6, 9.8, 8.8] and .vs_default.rounds == 6" &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"applied\") | .vs_default.median" $doc)" 0.93 1e-9 &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"applied\") | .vs_default.ci95[0]" $doc)" 0.88 1e-9 &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"applied\") | .vs_default.ci95[1]" $doc)" 0.98 1e-9 &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"applied\") | .vs_default.level" $doc)" 0.96875 1e-9 &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"applied\") | .median_ms" $doc)" 9.3 1e-9 &&
	near "$(jq -r ".ab.applied_vs[] | select(.arm == \"coordesc\") | .ratio.median" $doc)" "$(awk "BEGIN { printf \"%.12f\", 9.3 / 10.5 }")" 1e-9 &&
	json_q $doc "[.ab.applied_vs[] | {(.arm): .slower_beyond_noise}] | add == {\"default\": false, \"coordesc\": false, \"max-autotune\": true}" &&
	near "$(jq -r .ab.step.measured_gain $doc)" "$(awk "BEGIN { printf \"%.12f\", 1 / 0.93 }")" 1e-9 &&
	near "$(jq -r .ab.step.difference_pp $doc)" "$(awk "BEGIN { printf \"%.12f\", (1 / 0.93 - 1000 / 983) * 100 }")" 1e-6 &&
	json_q $doc ".ab.step.within_1pp == false and .summary.every_winner_ran == true" &&
	near "$(jq -r ".ab.step.measured_gain_ci95[0]" $doc)" "$(awk "BEGIN { printf \"%.12f\", 1 / 0.98 }")" 1e-9 &&
	near "$(jq -r ".ab.step.measured_gain_ci95[1]" $doc)" "$(awk "BEGIN { printf \"%.12f\", 1 / 0.88 }")" 1e-9 &&
	json_q $doc ".ab.step.conclusive == false" &&
	test_grep "measured gain.s interval is wider than" out.txt &&
	test_grep "^interval: of the median ratio over 6 rounds, 97% coverage$" out.txt &&
	test_grep "applied vs max-autotune: 1.1625, slower beyond noise" out.txt
'

# the keys docs/json.md, "tko apply", lists, in its order
test_expect_success 'the document follows docs/json.md' '
	doc=run/apply/apply.json &&
	json_q $doc "keys_unsorted == [\"schema_version\", \"tool\", \"run\", \"target\", \"backend\", \"out_dir\", \"command\", \"plan\", \"artifact\", \"inductor_settings\", \"summary\", \"kernels\", \"runs\", \"ab\", \"recommended_arms\", \"keep_slower\", \"slower_in_step\", \"left_out\"]" &&
	json_q $doc ".schema_version == 1 and .tool == \"tko apply\" and .command[1] == \"-S\" and (.command | length) == 3" &&
	json_q $doc "[.runs[] | keys_unsorted] | unique == [[\"n\", \"arm\", \"round\", \"measured\", \"exit_status\", \"ms_per_step\", \"step_source\", \"hook_steps\", \"kernel_window\", \"wall_s\", \"losses\", \"dir\", \"ran_planned_config\"]]" &&
	json_q $doc ".ab | keys_unsorted == [\"rounds\", \"warmup\", \"loss_rtol\", \"loss_scale\", \"arms\", \"applied_vs\", \"step\", \"stopped\"]" &&
	json_q $doc ".ab.arms[0] | keys_unsorted == [\"arm\", \"numerics\", \"ms_per_step\", \"step_source\", \"median_ms\", \"vs_default\", \"gpu_ms_per_step\", \"gpu_median_ms\", \"gpu_vs_default\", \"loss_max_rel_diff\", \"loss_equal\"]" &&
	json_q $doc ".ab.applied_vs[0] | keys_unsorted == [\"arm\", \"numerics\", \"ratio\", \"slower_beyond_noise\", \"gpu_ratio\", \"gpu_slower_beyond_noise\"]" &&
	json_q $doc "[.ab.arms[], .ab.applied_vs[] | .numerics] | unique == [null]" &&
	json_q $doc ".ab.step | keys_unsorted == [\"predicted_gain\", \"predicted_saving_ms\", \"predicted_gain_cold\", \"predicted_gain_warm\", \"warm_kernels\", \"difference_pp_cold\", \"profile_step_ms\", \"measured_gain\", \"measured_gain_ci95\", \"difference_pp\", \"within_1pp\", \"conclusive\", \"profile\", \"note\", \"gpu_step_ms\", \"gpu_predicted_gain\", \"gpu_measured_gain\", \"gpu_measured_gain_ci95\", \"gpu_difference_pp\", \"gpu_within_1pp\", \"gpu_conclusive\", \"gpu_busy\", \"gpu_note\"]" &&
	json_q $doc "[.kernels[] | select(.planned) | has(\"mechanism\") and has(\"launches\") and has(\"constructed\")] | all" &&
	json_q $doc "[.kernels[] | .status] | sort == [\"not_planned\", \"not_planned\", \"ran_winner\", \"ran_winner\", \"ran_winner\"]"
'

# losses: the default arm 2.5, 2.4; applied 2.5, 2.4036: |0.0036| / 2.4 = 1.5e-3
test_expect_success 'losses compared with the tolerance: 1.5e-3 is over 1e-3 and within 2e-3' '
	fresh_run &&
	FAKE_LOSS_applied=2.5,2.4036 tko apply --ab 2 --warmup 0 run -- $FAKE >out.txt 2>err.txt &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"applied\") | .loss_max_rel_diff" run/apply/apply.json)" 0.0015 1e-12 &&
	json_q run/apply/apply.json ".ab.arms | map({(.arm): .loss_equal}) | add == {\"default\": true, \"applied\": false}" &&
	FAKE_LOSS_applied=2.5,2.4036 tko apply --ab 2 --warmup 0 --loss-rtol 2e-3 run -- $FAKE >out.txt 2>err.txt &&
	json_q run/apply/apply.json ".ab.arms[] | select(.arm == \"applied\") | .loss_equal == true" &&
	FAKE_LOSS_applied=2.5 tko apply --ab 2 --warmup 0 run -- $FAKE >out.txt 2>err.txt &&
	json_q run/apply/apply.json ".ab.arms[] | select(.arm == \"applied\") | .loss_equal == null"
'

# A loss that falls toward zero: the H200 losses of the benchmark model
# second (tests/corpus/h200-apply-1205/second-coordesc, runs 1-3: round 0
# of default, coordesc, applied), fed to the fake as each arm's in both
# rounds. Worked out with bc
# (tests/unit/test-apply-loss.c): the scale is step 0's 10.53711891, so the
# floor 0.1053711891; coordesc's worst is step 9, 3.092736e-5 / the floor =
# 2.93508693e-4, applied's step 8, 3.95179e-5 / 0.2907527685 =
# 1.35915817e-4: both equal within 1e-3, as tests/gpu/apply_ab_check.py
# says too. A real divergence still fails: the last loss 10x the
# reference's at 1e-3 of the scale, (0.1 - 0.01) / 0.1 = 0.9.
test_expect_success 'losses near zero: held to a floor of 1% of the run'"'"'s scale, not to their own rounding' '
	fresh_run &&
	src=$CORPUS/h200-apply-1205/second-coordesc/apply.json &&
	FAKE_LOSS_default=$(jq -r "[.runs[] | select(.n == 1) | .losses[] | tostring] | join(\",\")" $src) \
	FAKE_LOSS_coordesc=$(jq -r "[.runs[] | select(.n == 2) | .losses[] | tostring] | join(\",\")" $src) \
	FAKE_LOSS_applied=$(jq -r "[.runs[] | select(.n == 3) | .losses[] | tostring] | join(\",\")" $src) \
		tko apply --ab 2 --warmup 0 --arms default,coordesc,applied run -- $FAKE >out.txt 2>err.txt &&
	doc=run/apply/apply.json &&
	json_q $doc "[.runs[] | .losses | length] == [250, 250, 250, 250, 250, 250]" &&
	near "$(jq -r .ab.loss_scale $doc)" 10.53711891 1e-12 &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"coordesc\") | .loss_max_rel_diff" $doc)" 2.93508693e-4 1e-12 &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"applied\") | .loss_max_rel_diff" $doc)" 1.35915817e-4 1e-12 &&
	json_q $doc ".ab.arms | map({(.arm): .loss_equal}) | add == {\"default\": true, \"coordesc\": true, \"applied\": true}" &&
	test_grep "^loss max rel diff: .* max(|default.s|, 0.105), the floor 0.01 of the default run.s largest |loss| 10.54; equal up to --loss-rtol 0.001$" out.txt &&
	{ python3 -S "$SRC_ROOT/tests/gpu/apply_ab_check.py" $doc checks.json >check.txt || :; } &&
	test_grep "^PASS coordesc: loss equal to default.s within 0.001 " check.txt &&
	test_grep "^PASS applied: loss equal to default.s within 0.001 " check.txt &&
	FAKE_LOSS_default=10,1,0.1,0.01 FAKE_LOSS_applied=10,1,0.1,0.1 \
		tko apply --ab 2 --warmup 0 run -- $FAKE >out.txt 2>err.txt &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"applied\") | .loss_max_rel_diff" $doc)" 0.9 1e-12 &&
	json_q $doc ".ab.arms[] | select(.arm == \"applied\") | .loss_equal == false" &&
	{ python3 -S "$SRC_ROOT/tests/gpu/apply_ab_check.py" $doc checks.json >check.txt || :; } &&
	test_grep "^FAIL applied: loss equal to default.s within 0.001 " check.txt
'

# The tf32 arms: only when named; the setting reaches those runs alone. Per
# round (after one warm-up of 99): default 10, applied 9, tf32 7, applied+tf32
# 6: ratios to default .9, .7, .6 in both rounds. Losses against default's
# 2.5, 2.4: tf32 2.5, 2.46 -> .06 / 2.4 = .025, applied+tf32 2.5, 2.412 ->
# .012 / 2.4 = .005; both over 1e-3, neither judged by it (loss_equal null).
test_expect_success 'tf32 arms: opt-in, the setting in their runs only, time and loss side by side' '
	fresh_run && rm -f arms.log &&
	FAKE_LOG=$PWD/arms.log FAKE_MS="default=99,10;applied=99,9;tf32=99,7;applied+tf32=99,6" \
	FAKE_LOSS_tf32=2.5,2.46 FAKE_LOSS_applied_tf32=2.5,2.412 \
		tko apply --ab 2 --warmup 1 --arms default,applied,tf32,applied+tf32 run -- $FAKE >out.txt 2>err.txt &&
	fwd="default applied tf32 applied+tf32" && rev="applied+tf32 tf32 applied default" &&
	echo $fwd $rev $fwd | tr " " "\n" >expect.log &&
	test_cmp expect.log arms.log &&
	for d in run/apply/runs/*; do
		case $d in
		*-tf32 | *+tf32) want=high ;;
		*) want=unset ;;
		esac &&
		test_grep "^TKO_APPLY_FLOAT32_MATMUL_PRECISION=$want\$" $d/stdout.txt || return 1
	done &&
	test $(grep -l "PRECISION=high" run/apply/runs/*/stdout.txt | wc -l) -eq 6 &&
	doc=run/apply/apply.json &&
	json_q $doc ".ab.arms | map({(.arm): .numerics}) | add == {\"default\": null, \"applied\": null, \"tf32\": \"tf32\", \"applied+tf32\": \"tf32\"}" &&
	json_q $doc ".ab.arms | map({(.arm): .loss_equal}) | add == {\"default\": true, \"applied\": true, \"tf32\": null, \"applied+tf32\": null}" &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"tf32\") | .vs_default.median" $doc)" 0.7 1e-9 &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"applied+tf32\") | .vs_default.median" $doc)" 0.6 1e-9 &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"tf32\") | .loss_max_rel_diff" $doc)" 0.025 1e-12 &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"applied+tf32\") | .loss_max_rel_diff" $doc)" 0.005 1e-12 &&
	json_q $doc "[.ab.applied_vs[] | {(.arm): .numerics}] | add == {\"default\": null, \"tf32\": \"tf32\", \"applied+tf32\": \"tf32\"}" &&
	near "$(jq -r .ab.step.measured_gain $doc)" "$(awk "BEGIN { printf \"%.12f\", 1 / 0.9 }")" 1e-9 &&
	test_grep "^tf32  *7.000  *0.7000  *\[0.7000, 0.7000\]  *2.50e-02  *tf32  *stdout$" out.txt &&
	test_grep "^applied.tf32  *6.000  *0.6000 .* 5.00e-03  *tf32  *stdout$" out.txt &&
	test_grep "not held to --loss-rtol" out.txt &&
	test_grep "^applied vs tf32: 1.2857, slower beyond noise .that arm changes numerics.$" out.txt
'

test_expect_success 'the tf32 arms are not in the default arms' '
	fresh_run &&
	tko apply --ab 2 --warmup 0 run -- $FAKE >out.txt 2>err.txt &&
	json_q run/apply/apply.json "[.runs[].arm] | unique == [\"applied\", \"default\"]" &&
	! grep -l "PRECISION=high" run/apply/runs/*/stdout.txt &&
	! test_grep "not held to --loss-rtol" out.txt
'

# A hand-made analysis (the keys of docs/json.md, "tko investigate"): the
# fp32 GEMM group where fp32_matmul fired, 70% of the busy time; another
# group with another rule. One recommendation, for the tf32 arm.
test_expect_success 'the RUN analysis fired fp32_matmul: the report points at the tf32 arm' '
	fresh_run && mkdir run/analysis &&
	cat >run/analysis/kernels.json <<-\EOF &&
	{"schema_version": 2, "kernels": [], "step_groups": [
	 {"op": "aten::mm", "kernel": "sm90_xmma_gemm_f32f32", "share": 0.7,
	  "rules": [{"rule": "fp32_matmul"}, {"rule": "mm_max_autotune"}]},
	 {"op": "aten::bmm", "kernel": "k2", "share": 0.2, "rules": [{"rule": "mm_max_autotune"}]}]}
	EOF
	tko apply --ab 2 --warmup 0 run -- $FAKE >out.txt 2>err.txt &&
	json_q run/apply/apply.json ".recommended_arms == [{\"arm\": \"tf32\", \"rule\": \"fp32_matmul\", \"op\": \"aten::mm\", \"kernel\": \"sm90_xmma_gemm_f32f32\", \"share\": 0.7, \"in_ab\": false}]" &&
	test_grep "fired fp32_matmul on aten::mm .70.0% of the GPU busy time.: try --ab N --arms default,applied,tf32,applied.tf32" out.txt &&
	tko apply --ab 2 --warmup 0 --arms default,applied,tf32 run -- $FAKE >out.txt 2>err.txt &&
	json_q run/apply/apply.json "[.recommended_arms[].in_ab] == [true]" &&
	test_grep "fp32_matmul on aten::mm .70.0% of the GPU busy time.: arm tf32 above" out.txt &&
	rm run/analysis/kernels.json &&
	tko apply run >out.txt 2>err.txt &&
	json_q run/apply/apply.json ".recommended_arms == []" &&
	! test_grep "fired fp32_matmul" out.txt &&
	echo "{" >run/analysis/kernels.json &&
	tko apply run >out.txt 2>err.txt &&
	test_grep "^tko apply: warning: .*kernels.json.*; no arm recommended from it$" err.txt &&
	json_q run/apply/apply.json ".recommended_arms == []" &&
	# an analysis by a tko of another schema_version: a warning, no recommendation, no failure
	cp "$SRC_ROOT/tests/golden/investigate/profile-run/expected/run/analysis/kernels.json" run/analysis/ &&
	sed "s/\"schema_version\": *2,/\"schema_version\": 1,/" run/analysis/kernels.json >k1 &&
	mv k1 run/analysis/kernels.json &&
	json_q run/analysis/kernels.json ".schema_version == 1" &&
	tko apply run >out.txt 2>err.txt &&
	test_grep "^tko apply: warning: .*kernels.json.* has schema_version 1; this tko reads 2 .*; no arm recommended from it$" err.txt &&
	json_q run/apply/apply.json ".recommended_arms == []" &&
	# what tko investigate itself writes for an fp32 GEMM (the golden suite'"'"'s profile-run)
	cp "$SRC_ROOT/tests/golden/investigate/profile-run/expected/run/analysis/kernels.json" run/analysis/ &&
	tko apply run >out.txt 2>err.txt &&
	json_q run/apply/apply.json "[.recommended_arms[] | [.arm, .rule, .op]] == [[\"tf32\", \"fp32_matmul\", \"aten::mm\"]]"
'

# The hook's steps (FAKE_STEPS=20: ms null, 500, then 18 times the arm's
# time): the auto warm-up is ceil(20 / 10) = 2 steps, so the time is the
# arm's own (default 10, applied 9), not the 77 the printed line claims.
# With --step-warmup 1 the 500 counts: default (500 + 18 * 10) / 19,
# applied (500 + 18 * 9) / 19, ratio 662 / 680.
test_expect_success 'step times from the hook are preferred to the printed line' '
	fresh_run &&
	FAKE_STEPS=20 FAKE_STDOUT_MS=77 FAKE_MS="default=10;applied=9" \
		tko apply --ab 2 --warmup 0 run -- $FAKE >out.txt 2>err.txt &&
	doc=run/apply/apply.json &&
	json_q $doc "[.runs[] | .step_source] | unique == [\"hook\"]" &&
	json_q $doc "[.runs[] | .hook_steps] | unique == [{\"source\": \"optimizer\", \"clock\": \"perf_counter\", \"steps\": 20, \"warmup\": 2, \"timed\": 18}]" &&
	json_q $doc ".ab.arms | map({(.arm): [.step_source, .median_ms]}) | add == {\"default\": [\"hook\", 10], \"applied\": [\"hook\", 9]}" &&
	json_q $doc ".ab.arms[] | select(.arm == \"applied\") | .loss_equal == true" &&
	test_grep "^applied  *9.000  *0.9000 .* hook$" out.txt &&
	FAKE_STEPS=20 FAKE_STDOUT_MS=77 FAKE_MS="default=10;applied=9" \
		tko apply --ab 2 --warmup 0 --step-warmup 1 run -- $FAKE >out.txt 2>err.txt &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"default\") | .median_ms" $doc)" "$(awk "BEGIN { printf \"%.12f\", 680 / 19 }")" 1e-6 &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"applied\") | .vs_default.median" $doc)" "$(awk "BEGIN { printf \"%.12f\", 662 / 680 }")" 1e-6 &&
	json_q $doc "[.runs[] | .hook_steps.warmup] | unique == [1]"
'

# The kernel window (default K = 5, from step 1): every planned kernel's
# GPU time a step is default 20 us, applied 16 us, so each measured gain is
# 20 / 16 = 1.25 against tune's predicted one. FAKE_STEPS=20: the window
# [1, 6), the step after it and the warm-up of 2 leave steps 7..19 timed
# (13); with --step-warmup 3 the window is [3, 8): steps 9..19, 11.
test_expect_success 'per-kernel measured gain from the kernel window, next to the predicted one' '
	fresh_run &&
	FAKE_STEPS=20 FAKE_MS="default=10;applied=9" FAKE_KERNEL_US="default=20;applied=16" \
		tko apply --ab 2 --warmup 1 run -- $FAKE >out.txt 2>err.txt &&
	doc=run/apply/apply.json &&
	json_q $doc "[.runs[] | select(.measured) | .hook_steps.timed] | unique == [13]" &&
	json_q $doc "[.runs[] | select(.measured | not) | .kernel_window] | unique == [null]" &&
	json_q $doc "[.runs[] | select(.measured) | .kernel_window.steps] | unique == [5]" &&
	json_q $doc "[.runs[] | select(.measured and .arm == \"applied\") | .kernel_window.kernels.triton_poi_fused_zeros_0] | unique == [{\"calls_per_step\": 2, \"us_per_step\": 16}]" &&
	json_q $doc "[.kernels[] | select(.planned) | [.kernel, .predicted_speedup, .measured_speedup, .measured]] == [[\"scale_add_kernel\", 1.1, 1.25, {\"rounds\": 2, \"default_us_per_step\": 20, \"applied_us_per_step\": 16}], [\"triton_poi_fused_zeros_0\", 1.25, 1.25, {\"rounds\": 2, \"default_us_per_step\": 20, \"applied_us_per_step\": 16}], [\"triton_red_fused_embedding_native_layer_norm_0\", 1.6, 1.25, {\"rounds\": 2, \"default_us_per_step\": 20, \"applied_us_per_step\": 16}]]" &&
	test_grep "^kernel  *predicted  *measured  *share of step" out.txt &&
	test_grep "^triton_red_fused_embedding_native_layer_norm_0  *1.600x  *1.250x  *4.0%  *ran_winner" out.txt &&
	FAKE_STEPS=20 FAKE_MS="default=10;applied=9" FAKE_KERNEL_US="default=20;applied=16" \
		tko apply --ab 2 --warmup 0 --step-warmup 3 run -- $FAKE >out.txt 2>err.txt &&
	json_q $doc "[.runs[] | .hook_steps.timed] | unique == [11]" &&
	FAKE_STEPS=20 FAKE_MS="default=10;applied=9" FAKE_KERNEL_US="default=20;applied=16" \
		tko apply --ab 2 --warmup 0 --kernel-window 0 run -- $FAKE >out.txt 2>err.txt &&
	json_q $doc "[.runs[] | .kernel_window] | unique == [null]" &&
	json_q $doc "[.kernels[] | .measured_speedup] | unique == [null]" &&
	test_grep "^triton_red_fused_embedding_native_layer_norm_0  *1.600x  *-  *4.0%" out.txt
'

# The whole step's GPU time from the kernel windows (docs/apply.md, "GPU
# time of the step"): each of the 3 planned kernels 20 us a step in every
# default run, 16, 17, 15 in the applied runs of rounds 0..2; the rest (a
# GEMM of 30 and a copy of 10 us, FAKE_OTHER_US) 40 in both; the GPU-side
# ProfilerStep range of 999 us counts nowhere. GPU ms/step: default 0.100,
# applied 0.088, 0.091, 0.085; ratios .88 .91 .85: median .88, interval
# [.85, .91] at 1 - 2/8 = .75; measured GPU gain 1/.88 in [1/.91, 1/.85]
# (half width 3.9 pp: not conclusive); predicted: the profile's saving of
# 17 us (t6000) over 100 us: 100/83; wall 10 ms: the GPU busy 1%, a note.
test_expect_success 'GPU time of the step: per arm, its ratio, the gain against the prediction, gpu_busy' '
	fresh_run && rm -f arms.log &&
	FAKE_LOG=$PWD/arms.log FAKE_STEPS=20 FAKE_MS="default=10;applied=9.9" FAKE_KERNEL_US="default=20;applied=16,17,15" \
	FAKE_OTHER_US="default=40;applied=40" \
		tko apply --ab 3 --warmup 0 run -- $FAKE >out.txt 2>err.txt &&
	doc=run/apply/apply.json &&
	json_q $doc "[.runs[] | .kernel_window | [.gpu_us_per_step, .tuned_us_per_step, .other_us_per_step]] | unique == [[85, 45, 40], [88, 48, 40], [91, 51, 40], [100, 60, 40]]" &&
	json_q $doc ".ab.arms[] | select(.arm == \"default\") | .gpu_ms_per_step == [0.1, 0.1, 0.1] and .gpu_median_ms == 0.1 and .gpu_vs_default == null" &&
	json_q $doc ".ab.arms[] | select(.arm == \"applied\") | .gpu_ms_per_step == [0.088, 0.091, 0.085] and .gpu_median_ms == 0.088" &&
	json_q $doc ".ab.arms[] | select(.arm == \"applied\") | .gpu_vs_default.rounds == 3 and .gpu_vs_default.level == 0.75" &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"applied\") | .gpu_vs_default.median" $doc)" 0.88 1e-9 &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"applied\") | .gpu_vs_default.ci95[0]" $doc)" 0.85 1e-9 &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"applied\") | .gpu_vs_default.ci95[1]" $doc)" 0.91 1e-9 &&
	near "$(jq -r .ab.step.gpu_step_ms $doc)" 0.1 1e-12 &&
	near "$(jq -r .ab.step.gpu_predicted_gain $doc)" "$(awk "BEGIN { printf \"%.12f\", 100 / 83 }")" 1e-9 &&
	near "$(jq -r .ab.step.gpu_measured_gain $doc)" "$(awk "BEGIN { printf \"%.12f\", 1 / 0.88 }")" 1e-9 &&
	near "$(jq -r .ab.step.gpu_measured_gain_ci95[0] $doc)" "$(awk "BEGIN { printf \"%.12f\", 1 / 0.91 }")" 1e-9 &&
	near "$(jq -r .ab.step.gpu_measured_gain_ci95[1] $doc)" "$(awk "BEGIN { printf \"%.12f\", 1 / 0.85 }")" 1e-9 &&
	near "$(jq -r .ab.step.gpu_difference_pp $doc)" "$(awk "BEGIN { printf \"%.12f\", (1 / 0.88 - 100 / 83) * 100 }")" 1e-6 &&
	json_q $doc ".ab.step.gpu_within_1pp == false and .ab.step.gpu_conclusive == false" &&
	near "$(jq -r .ab.step.gpu_busy $doc)" 0.01 1e-12 &&
	json_q $doc ".ab.step.gpu_note | startswith(\"the GPU is busy 1% of the step (0.100 of 10.000 ms): kernel gains reach the wall clock only once the CPU side is cut (CUDA graphs, torch.compile(mode=\\\"reduce-overhead\\\"), fewer launches)\")" &&
	test_grep "^arm  *median ms/step  *GPU ms/step  *vs default" out.txt &&
	test_grep "^default  *10.000  *0.100  *-" out.txt &&
	test_grep "^applied  *9.900  *0.088  *0.9900" out.txt &&
	test_grep "^GPU-time step gain: predicted 1.2048x \\(the profile.s saving over the default arm.s 0.100 GPU ms/step\\), measured 1.1364x \[1.0989, 1.1765\], difference -6.85 pp$" out.txt &&
	test_grep "the GPU-time gain.s interval is wider than .-1 pp" out.txt &&
	test_grep "^note: the GPU is busy 1% of the step \\(0.100 of 10.000 ms\\): kernel gains reach the wall clock only once" out.txt &&
	test_grep -v "the GPU is busy 1% of the default arm.s step" out.txt &&
	json_q $doc ".ab.applied_vs[0] | .arm == \"default\" and .gpu_ratio.rounds == 3 and .gpu_slower_beyond_noise == false" &&
	near "$(jq -r .ab.applied_vs[0].gpu_ratio.median $doc)" 0.88 1e-9 &&
	near "$(jq -r .ab.applied_vs[0].gpu_ratio.ci95[0] $doc)" 0.85 1e-9 &&
	test_grep "^applied vs default: 0.9900; GPU time 0.8800$" out.txt
'

# applied_vs on the GPU clock, slower: the applied step's other GPU time
# 60 us, so 108, 111, 105 us against 100: ratios 1.08, 1.11, 1.05, the
# interval [1.05, 1.11] (3 rounds: min and max) wholly above 1, while the
# wall clock (10 against 9.9 ms) calls applied faster.
test_expect_success 'applied vs an arm on GPU time: slower beyond noise where the wall clock is not' '
	fresh_run && rm -f arms.log &&
	FAKE_LOG=$PWD/arms.log FAKE_STEPS=20 FAKE_MS="default=10;applied=9.9" FAKE_KERNEL_US="default=20;applied=16,17,15" \
	FAKE_OTHER_US="default=40;applied=60" \
		tko apply --ab 3 --warmup 0 run -- $FAKE >out.txt 2>err.txt &&
	doc=run/apply/apply.json &&
	json_q $doc ".ab.applied_vs[0] | .slower_beyond_noise == false and .gpu_slower_beyond_noise == true" &&
	near "$(jq -r .ab.applied_vs[0].gpu_ratio.median $doc)" 1.08 1e-9 &&
	near "$(jq -r .ab.applied_vs[0].gpu_ratio.ci95[0] $doc)" 1.05 1e-9 &&
	near "$(jq -r .ab.applied_vs[0].gpu_ratio.ci95[1] $doc)" 1.11 1e-9 &&
	test_grep "^applied vs default: 0.9900; GPU time 1.0800, slower beyond noise$" out.txt
'

# The same with the rest of the applied step cut to 35, 35.2, 34.8 us: GPU
# ms/step .083, .0832, .0828, ratios .83 .832 .828, median .83: measured
# 1/.83 = the predicted 100/83, difference 0, half width
# (1/.828 - 1/.832) / 2 = 0.29 pp: within 1 pp and conclusive; a wall step
# of 0.15 ms keeps the GPU busy .1/.15 = 67%: no note.
test_expect_success 'GPU time of the step: within 1 pp of the prediction, a GPU-bound step has no note' '
	fresh_run && rm -f arms.log &&
	FAKE_LOG=$PWD/arms.log FAKE_STEPS=20 FAKE_MS="default=0.15;applied=0.149" FAKE_KERNEL_US="default=20;applied=16" \
	FAKE_OTHER_US="default=40;applied=35,35.2,34.8" \
		tko apply --ab 3 --warmup 0 run -- $FAKE >out.txt 2>err.txt &&
	doc=run/apply/apply.json &&
	near "$(jq -r ".ab.arms[] | select(.arm == \"applied\") | .gpu_vs_default.median" $doc)" 0.83 1e-9 &&
	near "$(jq -r .ab.step.gpu_difference_pp $doc)" 0 1e-6 &&
	json_q $doc ".ab.step.gpu_within_1pp == true and .ab.step.gpu_conclusive == true and .ab.step.gpu_note == null" &&
	near "$(jq -r .ab.step.gpu_busy $doc)" "$(awk "BEGIN { printf \"%.12f\", 0.1 / 0.15 }")" 1e-9 &&
	test_grep "the GPU is busy 67% of the default arm.s step" out.txt &&
	test_grep -v "^note: the GPU is busy" out.txt &&
	test_grep -v "GPU-time gain.s interval is wider" out.txt
'

# No kernel window (--kernel-window 0, as a CPU run without GPU activities):
# every GPU field null, and the text as before.
test_expect_success 'GPU time of the step: null without a kernel window, and no word of it' '
	fresh_run &&
	FAKE_STEPS=20 FAKE_MS="default=10;applied=9" FAKE_KERNEL_US="default=20;applied=16" FAKE_OTHER_US="default=40;applied=40" \
		tko apply --ab 2 --warmup 0 --kernel-window 0 run -- $FAKE >out.txt 2>err.txt &&
	doc=run/apply/apply.json &&
	json_q $doc "[.ab.arms[] | [.gpu_ms_per_step, .gpu_median_ms, .gpu_vs_default]] | unique == [[null, null, null]]" &&
	json_q $doc "[.ab.step | .gpu_step_ms, .gpu_predicted_gain, .gpu_measured_gain, .gpu_measured_gain_ci95, .gpu_difference_pp, .gpu_within_1pp, .gpu_conclusive, .gpu_busy, .gpu_note] | unique == [null]" &&
	test_grep -v GPU out.txt &&
	FAKE_STEPS=20 FAKE_MS="default=10;applied=9" tko apply --ab 2 --warmup 0 run -- $FAKE >out.txt 2>err.txt &&
	json_q $doc "[.runs[] | .kernel_window] | unique == [null]" &&
	json_q $doc ".ab.step.gpu_busy == null" &&
	test_grep -v GPU out.txt
'

test_expect_success 'no step from the hook: the printed line; neither: one line saying so' '
	fresh_run &&
	FAKE_STEPS=1 FAKE_MS="default=10;applied=9" tko apply --ab 2 --warmup 0 run -- $FAKE >out.txt 2>err.txt &&
	json_q run/apply/apply.json "[.runs[] | .step_source] | unique == [\"stdout\"]" &&
	json_q run/apply/apply.json "[.ab.arms[] | .step_source] | unique == [\"stdout\"]" &&
	json_q run/apply/apply.json "[.runs[] | .hook_steps.steps] | unique == [1]" &&
	rm run/apply/apply.json && export FAKE_STDOUT_MS=none &&
	test_expect_code 1 tko -q apply --ab 2 --warmup 0 run -- $FAKE >out.txt 2>err.txt &&
	test_one_line_error err.txt &&
	test_grep "^tko apply: no step time in arm default: the hook saw no optimizer step and the command printed no JSON line with .ms_per_step. .name the step function with --step MODULE:QUALNAME.; see run/apply/runs/1-default/apply.jsonl$" err.txt &&
	test ! -e run/apply/apply.json &&
	export FAKE_STEPS=1 && test_expect_code 1 tko -q apply --ab 2 --warmup 0 run -- $FAKE >out.txt 2>err.txt &&
	unset FAKE_STEPS &&
	test_grep "the hook saw 1 step, all within the warm-up of 1 .--step-warmup." err.txt &&
	tko apply run -- $FAKE >out.txt 2>err.txt && unset FAKE_STDOUT_MS &&
	json_q run/apply/apply.json ".runs[0] | .step_source == null and .ms_per_step == null" &&
	test_expect_code 2 tko apply --ab 2 --step train_step run -- $FAKE 2>err.txt &&
	test_grep "expected MODULE:QUALNAME" err.txt &&
	test_expect_code 2 tko apply --ab 2 --step "__main__:" run -- $FAKE 2>err.txt
'

test_expect_success 'the command fails in one arm: exit 5, one line naming the arm, no report' '
	fresh_run &&
	export FAKE_FAIL_ARM=applied && test_expect_code 5 tko -q apply --ab 2 run -- $FAKE >out.txt 2>err.txt && unset FAKE_FAIL_ARM &&
	test_grep "^tko apply: the command failed in arm applied \(exit 3\); see run/apply/runs/2-applied/stderr.txt$" err.txt &&
	test_line_count -eq 1 err.txt &&
	test ! -e run/apply/apply.json &&
	test_expect_code 5 tko -q apply run -- /nonexistent/cmd >out.txt 2>err.txt &&
	test_one_line_error err.txt &&
	test_expect_code 124 tko -q apply --timeout 1 run -- sleep 30 >out.txt 2>err.txt &&
	test_grep "ran past --timeout in arm applied" err.txt && test_one_line_error err.txt
'

test_expect_success 'bad input: missing RUN, no tune results, two targets' '
	test_expect_code 1 tko apply nope >out.txt 2>err.txt &&
	test_grep "^tko apply: .nope. is not a RUN directory$" err.txt &&
	mkdir -p empty/capture/kernels/k-1 &&
	test_expect_code 1 tko -q apply empty -- $FAKE >out.txt 2>err.txt &&
	test_grep "holds no tune results" err.txt && test_one_line_error err.txt &&
	test ! -e empty/apply/plan.json &&
	fresh_run &&
	mkdir run/capture/kernels/triton_poi_fused_zeros_0-294e5e16/tune/gfx942 &&
	sed "s/\"sm_90\"/\"gfx942\"/" "$D/run/capture/kernels/triton_poi_fused_zeros_0-294e5e16/tune/tune.json" >run/capture/kernels/triton_poi_fused_zeros_0-294e5e16/tune/gfx942/tune.json &&
	test_expect_code 1 tko apply run >out.txt 2>err.txt &&
	test_grep "tuned for gfx942 and sm_90: choose one with --target" err.txt &&
	tko apply --target gfx942 run >out.txt 2>err.txt &&
	json_q run/apply/plan.json ".backend == \"hip\" and (.kernels | length) == 1" &&
	echo "{" >run/capture/kernels/triton_poi_fused_zeros_0-294e5e16/tune/tune.json &&
	test_expect_code 1 tko -q apply --target sm_90 run >out.txt 2>err.txt &&
	test_one_line_error err.txt && test_grep "tune.json" err.txt
'

test_expect_success 'usage: --ab 1, --ab without a command, unknown and missing arms' '
	fresh_run &&
	test_expect_code 2 tko apply --ab 1 run -- $FAKE 2>err.txt &&
	test_grep "at least 2 rounds" err.txt &&
	test_expect_code 2 tko apply --ab 3 run 2>err.txt &&
	test_expect_code 2 tko apply --ab 3 --arms default,fast,applied run -- $FAKE 2>err.txt &&
	test_grep "unknown arm .fast." err.txt &&
	test_expect_code 2 tko apply --ab 3 --arms default,applied,autocast run -- $FAKE 2>err.txt &&
	test_grep "unknown arm .autocast." err.txt &&
	test_expect_code 2 tko apply --ab 3 --arms default,applied,tf32,tf32 run -- $FAKE 2>err.txt &&
	test_grep "repeated arm .tf32." err.txt &&
	test_expect_code 2 tko apply --ab 3 --arms default,coordesc run -- $FAKE 2>err.txt &&
	test_expect_code 2 tko apply 2>err.txt &&
	tko apply --help >help.txt && test_grep "^usage: tko apply " help.txt
'

test_expect_success 'the plain artifact: the three files, usable with Python alone' '
	fresh_run &&
	tko apply --write-artifact art run >out.txt 2>err.txt &&
	test_cmp "$SRC_ROOT/python/tko/winners_loader.py" art/tko_winners.py &&
	test_cmp "$SRC_ROOT/python/tko/winners_sitecustomize.py" art/sitecustomize.py &&
	key=$(jq -r ".kernels[] | select(.kernel == \"triton_poi_fused_zeros_0\") | .lookup_hash" run/apply/plan.json) &&
	json_q art/tko_winners.json ".autotune_lookup_table[\"$key\"] == {\"XBLOCK\": 512, \"num_warps\": 4, \"num_stages\": 1}" &&
	json_q art/tko_winners.json ".triton_autotune[0].kernel == \"scale_add_kernel\" and .configs == {} and .not_carried == []" &&
	python3 -c "import sys; sys.path.insert(0, \"art\"); import os; os.environ[\"TKO_WINNERS_OFF\"] = \"1\"; import tko_winners; d = tko_winners.load(); print(len(d[\"autotune_lookup_table\"]))" >n.txt &&
	echo 2 >expect && test_cmp expect n.txt
'

# A kernel the plan skipped (default_is_best) whose launches the windows
# hold, 10 us a step in every default run and 12, 12.5, 12.25 in the applied
# ones: per round 10/12, 10/12.5, 10/12.25, median 0.816, medians of the
# times 10 and 12.25 (+2.2 us a step: the window has 2 launches of us/2 a
# step, so a step's time is the figure itself); the 95% t-interval
# of the logs (t 4.302653 at 2 degrees of freedom) computed here by awk lies
# below 1, so the text names it, as the arms' compiles picking differently.
# Without its launches in the window there is no such line.
test_expect_success 'a kernel tko did not change, measured apart inside the step: named' '
	fresh_run &&
	k=triton_poi_fused_add_addmm_gelu_mul_view_1 &&
	rm -f arms.log &&
	FAKE_LOG=$PWD/arms.log FAKE_STEPS=20 FAKE_MS="default=10;applied=9" FAKE_KERNEL_US="default=20;applied=16" \
		FAKE_KERNEL_US_triton_poi_fused_add_addmm_gelu_mul_view_1="default=10;applied=12,12.5,12.25" \
		tko apply --ab 3 --warmup 0 run -- $FAKE >out.txt 2>err.txt &&
	ci=$(awk "BEGIN { a = log(10/12); b = log(10/12.5); c = log(10/12.25); m = (a + b + c) / 3;
		sd = sqrt(((a - m)^2 + (b - m)^2 + (c - m)^2) / 2); h = 4.302653 * sd / sqrt(3);
		printf \"%.3f, %.3f\", exp(m - h), exp(m + h) }") &&
	test "$ci" = "0.776, 0.859" &&
	test_grep "^not planned, yet apart inside the step \(applied against default\): $k 0.816x \[$ci\] \(\+2.2 us a step\)$" out.txt &&
	test_grep "^  tko did not change it: Inductor picks among its configs afresh" out.txt &&
	json_q run/apply/apply.json ".kernels[] | select(.kernel == \"$k\") | [.planned, .reason, .verdict] == [false, \"default_is_best\", null]" &&
	FAKE_STEPS=20 FAKE_MS="default=10;applied=9" FAKE_KERNEL_US="default=20;applied=16" \
		tko apply --ab 3 --warmup 0 run -- $FAKE >out.txt 2>err.txt &&
	test_grep -v "not planned, yet apart" out.txt
'

test_done
