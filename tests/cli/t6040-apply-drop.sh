#!/bin/sh
# tko apply: winners slower inside the step (docs/apply.md, "Winners slower
# inside the step"). The fake command (tests/cli/apply-fake/cmd.py) writes
# a kernel window a measured run, per round and per kernel as the test sets
# it (FAKE_KERNEL_US, FAKE_KERNEL_US_<kernel>). The verdicts and intervals
# were computed by hand: the 95% t-interval of the per-round ratios
# default/applied, exp(m +- t s / sqrt(n)) over their logs (m the mean, s
# the standard deviation over n - 1; t = 4.303 for 3 rounds), with
# python3's math.log and math.exp:
#   0.90, 0.91, 0.92 -> [0.885456, 0.935149]: wholly below 1, slower
#   0.90, 1.10, 1.00 -> [0.776684, 1.278926]: holds 1, inconclusive
#   1.25 three times -> [1.25, 1.25]: faster
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-apply.sh"

Z=triton_poi_fused_zeros_0
ZID=$Z-294e5e16
R=triton_red_fused_embedding_native_layer_norm_0
doc=run/apply/apply.json

# three rounds, no warm-up: the k-th run of an arm is round k ($FAKE is a
# command line: split on purpose)
# shellcheck disable=SC2086
ab3() {
	rm -f arms.log &&
	FAKE_LOG=$PWD/arms.log FAKE_STEPS=20 FAKE_MS="default=10;applied=9" \
		FAKE_KERNEL_US="default=20;applied=16" \
		FAKE_KERNEL_US_triton_poi_fused_zeros_0="default=90,91,92;applied=100" \
		FAKE_KERNEL_US_scale_add_kernel="default=90,110,100;applied=100" \
		tko apply --ab 3 --warmup 0 "$@" run -- $FAKE >out.txt 2>err.txt
}

row_q() {
	jq -r ".kernels[] | select(.kernel == \"$1\") | $2" $doc
}

test_expect_success 'verdicts: slower only when the interval is wholly below 1' '
	fresh_run &&
	ab3 --write-artifact art &&
	json_q $doc "[.kernels[] | {(.kernel): .verdict}] | add == {\"scale_add_kernel\": \"inconclusive\", \"$Z\": \"slower\", \"$R\": \"faster\", \"triton_per_fused__softmax_exp_prepare_softmax_online_sub_view_2\": null, \"triton_poi_fused_add_addmm_gelu_mul_view_1\": null}" &&
	near "$(row_q $Z .measured_speedup)" 0.91 1e-9 &&
	near "$(row_q $Z ".measured_gain_ci95[0]")" 0.885456 1e-6 &&
	near "$(row_q $Z ".measured_gain_ci95[1]")" 0.935149 1e-6 &&
	near "$(row_q scale_add_kernel ".measured_gain_ci95[0]")" 0.776684 1e-6 &&
	near "$(row_q scale_add_kernel ".measured_gain_ci95[1]")" 1.278926 1e-6 &&
	json_q $doc "(.kernels[] | select(.kernel == \"$R\") | .measured_gain_ci95) == [1.25, 1.25]" &&
	test_grep "^drop $Z: slower inside the step than Inductor.s own choice, 0.910x \[0.885, 0.935\] over 3 rounds .tune predicted 1.250x.; left out of the artifact and of the next plan$" out.txt &&
	test_grep "^inconclusive inside the step .the 95% interval holds 1; more rounds to judge.: scale_add_kernel$" out.txt &&
	test_grep -v "^drop scale_add_kernel" out.txt
'

test_expect_success 'the step figure stays as measured; the slower winner ran and is judged with its evidence' '
	near "$(jq -r .ab.step.measured_gain $doc)" "$(awk "BEGIN { printf \"%.12f\", 10 / 9 }")" 1e-6 &&
	json_q $doc ".summary.planned == 3 and .summary.ran_winner == 3" &&
	json_q $doc ".keep_slower == false" &&
	json_q $doc "[.slower_in_step[] | [.id, .kernel, .rounds, .carried, .predicted_speedup]] == [[\"$ZID\", \"$Z\", 3, false, 1.25]]" &&
	jq -cS ".slower_in_step[0].config" $doc >judged.txt &&
	jq -cS ".kernels[] | select(.kernel == \"$Z\") | .config" run/apply/plan.json >planned.txt &&
	test_cmp planned.txt judged.txt && test_grep "num_warps" judged.txt &&
	near "$(jq -r ".slower_in_step[0].measured_gain_ci95[1]" $doc)" 0.935149 1e-6 &&
	json_q $doc ".left_out == [{\"id\": \"$ZID\", \"kernel\": \"$Z\", \"reason\": \"slower_in_step\", \"detail\": \"measured 0.910x [0.885, 0.935] inside the step over 3 rounds; tune predicted 1.250x\", \"of\": \"artifact\"}]"
'

test_expect_success 'the artifact written after the A/B leaves the slower winner out and says why' '
	key=$(jq -r ".kernels[] | select(.kernel == \"$Z\") | .lookup_hash" run/apply/plan.json) &&
	rkey=$(jq -r ".kernels[] | select(.kernel == \"$R\") | .lookup_hash" run/apply/plan.json) &&
	json_q art/tko_winners.json ".autotune_lookup_table | has(\"$key\") | not" &&
	json_q art/tko_winners.json ".autotune_lookup_table | has(\"$rkey\")" &&
	json_q art/tko_winners.json "[.left_out[] | .kernel] == [\"$Z\"] and .triton_autotune[0].kernel == \"scale_add_kernel\"" &&
	head -n 2 art/tko_winners.py >head.txt &&
	{
		echo "# tko apply left these winners out of tko_winners.json (\"left_out\" there):" &&
		echo "#   $Z ($ZID): slower_in_step: measured 0.910x [0.885, 0.935] inside the step over 3 rounds; tune predicted 1.250x"
	} >expect &&
	test_cmp expect head.txt &&
	tail -n +3 art/tko_winners.py >rest.py &&
	test_cmp "$SRC_ROOT/python/tko/winners_loader.py" rest.py &&
	python3 -c "import sys, os; sys.path.insert(0, \"art\"); os.environ[\"TKO_WINNERS_OFF\"] = \"1\"; import tko_winners; d = tko_winners.load(); print(len(d[\"autotune_lookup_table\"]))" >n.txt &&
	echo 1 >expect && test_cmp expect n.txt
'

test_expect_success 'the next tko apply with the same --out plans without it, and carries the judgement' '
	tko apply --write-artifact art2 run >out.txt 2>err.txt &&
	json_q run/apply/plan.json "[.kernels[] | .kernel] | index(\"$Z\") == null" &&
	json_q run/apply/plan.json ".skipped[] | select(.kernel == \"$Z\") | .reason == \"slower_in_step\" and (.detail | startswith(\"measured 0.910x [0.885, 0.935]\"))" &&
	json_q $doc ".summary.planned == 2" &&
	json_q $doc "(.kernels[] | select(.kernel == \"$Z\") | [.status, .reason, .verdict]) == [\"not_planned\", \"slower_in_step\", null]" &&
	json_q $doc "[.slower_in_step[] | [.kernel, .carried]] == [[\"$Z\", true]]" &&
	json_q $doc "[.left_out[] | [.kernel, .reason, .of]] == [[\"$Z\", \"slower_in_step\", \"plan\"]]" &&
	json_q art2/tko_winners.json "[.left_out[] | .of] == [\"plan\"]" &&
	test_grep "^left out of the plan, its runs and the artifact: $Z .slower_in_step: measured 0.910x" out.txt &&
	tko apply run >out.txt 2>err.txt &&
	json_q $doc "[.slower_in_step[] | [.kernel, .carried]] == [[\"$Z\", true]] and .summary.planned == 2"
'

test_expect_success '--keep-slower keeps it; measured again and not slower, the judgement goes' '
	tko apply --keep-slower --write-artifact art3 run >out.txt 2>err.txt &&
	json_q $doc ".summary.planned == 3 and .keep_slower == true and .left_out == []" &&
	json_q $doc "[.slower_in_step[] | .kernel] == [\"$Z\"]" &&
	json_q art3/tko_winners.json ".left_out == [] and (.autotune_lookup_table | length) == 2" &&
	ab3 --keep-slower --write-artifact art4 &&
	json_q $doc "(.kernels[] | select(.kernel == \"$Z\") | .verdict) == \"slower\" and .left_out == []" &&
	json_q art4/tko_winners.json "(.autotune_lookup_table | length) == 2" &&
	test_grep "^drop $Z: .*; kept by --keep-slower$" out.txt &&
	rm -f arms.log &&
	FAKE_LOG=$PWD/arms.log FAKE_STEPS=20 FAKE_KERNEL_US="default=20;applied=16" \
		tko apply --ab 2 --warmup 0 --keep-slower run -- $FAKE >out.txt 2>err.txt &&
	json_q $doc "(.kernels[] | select(.kernel == \"$Z\") | .verdict) == \"faster\" and .slower_in_step == []" &&
	tko apply run >out.txt 2>err.txt &&
	json_q $doc ".summary.planned == 3"
'

test_expect_success 'a re-tuned winner (another config) is not carried: judged afresh' '
	fresh_run &&
	ab3 &&
	jq ".slower_in_step[0].config.num_warps = 99" $doc >changed.json && mv changed.json $doc &&
	tko apply run >out.txt 2>err.txt &&
	json_q $doc ".summary.planned == 3 and .slower_in_step == [] and .left_out == []"
'

test_expect_success '--exclude by kernel name or folder id; an unknown name is one line, exit 1' '
	fresh_run &&
	tko apply --exclude scale_add_kernel --exclude $R-e8ab9538 --write-artifact art run >out.txt 2>err.txt &&
	json_q run/apply/plan.json "[.kernels[] | .kernel] == [\"$Z\"]" &&
	json_q run/apply/plan.json "[.skipped[] | select(.reason == \"excluded\") | [.kernel, .detail]] | sort == [[\"scale_add_kernel\", \"--exclude\"], [\"$R\", \"--exclude\"]]" &&
	json_q $doc "[.left_out[] | [.kernel, .reason, .of]] | sort == [[\"scale_add_kernel\", \"excluded\", \"plan\"], [\"$R\", \"excluded\", \"plan\"]]" &&
	json_q art/tko_winners.json ".triton_autotune == [] and (.autotune_lookup_table | length) == 1 and (.left_out | length) == 2" &&
	test_expect_code 1 tko -q apply --exclude no_such_kernel run >out.txt 2>err.txt &&
	test_one_line_error err.txt &&
	test_grep "^tko apply: --exclude .no_such_kernel.: no tuned kernel of that name or folder id in the RUN.s tune results$" err.txt
'

test_expect_success 'an unreadable earlier apply.json: a warning, no judgement carried' '
	fresh_run && mkdir -p run/apply && echo "{" >run/apply/apply.json &&
	tko apply run >out.txt 2>err.txt &&
	test_grep "^tko apply: warning: run/apply/apply.json: .*; no earlier judgement of the winners read from it$" err.txt &&
	json_q $doc ".summary.planned == 3 and .slower_in_step == []"
'

# On the H100 (2026-12-05) a base pin that both arms launched alike measured
# 0.992x beyond the noise, from its neighbours, and was dropped: where every
# default run launched the plan's config of the kernel (its apply.jsonl
# outcome ran_winner while observing), the arms ran it alike.
test_expect_success 'the default arm launched the plan'"'"'s config too: same_config, not dropped' '
	fresh_run &&
	FAKE_SAME_CONFIG=$Z && export FAKE_SAME_CONFIG &&
	ab3 --write-artifact art2 &&
	json_q $doc "[.runs[] | select(.measured) | {(.arm): .ran_planned_config}] == [{\"default\": [\"$Z\"]}, {\"applied\": [\"scale_add_kernel\", \"$Z\", \"$R\"]}, {\"applied\": [\"scale_add_kernel\", \"$Z\", \"$R\"]}, {\"default\": [\"$Z\"]}, {\"default\": [\"$Z\"]}, {\"applied\": [\"scale_add_kernel\", \"$Z\", \"$R\"]}]" &&
	test "$(row_q $Z .verdict)" = same_config &&
	near "$(row_q $Z ".measured_gain_ci95[1]")" 0.935149 1e-6 &&
	test "$(row_q scale_add_kernel .verdict)" = inconclusive &&
	json_q $doc ".slower_in_step == [] and .left_out == []" &&
	test_grep -v "^drop " out.txt &&
	test_grep "^not judged: the default arm launched the plan.s config too .Inductor.s own pick., so the arms ran alike: $Z$" out.txt
'

test_done
