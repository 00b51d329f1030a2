#!/bin/sh
# tko apply and tune's warm timings (docs/apply.md, "Warm timings"): a
# winner whose confirmation timed it slower than the base warm (no L2
# flush) beyond the noise leaves the plan (reason slower_warm) unless
# --keep-slower, and the step prediction takes the warm speedup where there
# is one, beside the cold one. The RUN is tests/data/apply/run with warm
# objects added here to two winners' tune.json. Its profile's step is
# 1000 us with zeros_0 at 10 us and the layer-norm reduction at 40 us
# (tests/data/apply/make-run.py); the expected gains by hand:
#   cold, zeros_0 alone (1.25x): 10 (1 - 1/1.25) = 2 us -> 1000/998
#   warm, zeros_0 alone (1.1x): 10 (1 - 1/1.1) = 0.909091 us -> 1000/999.090909
#   cold, both (1.25x, 1.6x): 2 + 15 = 17 us -> 1000/983
#   warm, both (1.1x, 0.95x): 0.909091 - 2.105263 = -1.196172 us -> 1000/1001.196172
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-apply.sh"

Z=triton_poi_fused_zeros_0
R=triton_red_fused_embedding_native_layer_norm_0
K=run/capture/kernels
doc=run/apply/apply.json

# with_warm FILE JQ: rewrites a tune.json in place
with_warm() {
	jq "$2" "$1" >tmp.json && mv tmp.json "$1"
}

warm_run() {
	fresh_run &&
	with_warm $K/$R-e8ab9538/tune/tune.json \
		".kernels[0].winner.confirmation.warm = {\"variant\": \"v001\", \"ratio\": 0.95, \"ci95\": [0.92, 0.98], \"rounds\": 7}" &&
	with_warm $K/$Z-294e5e16/tune/tune.json \
		".kernels[0].winner.confirmed = true | .kernels[0].winner.confirmation = {\"candidate\": \"v002\", \"rounds\": 7, \"ratio\": 1.25, \"ci95\": [1.2, 1.3], \"accepted\": true, \"winner\": \"v002\", \"reason\": \"faster\", \"warm\": {\"variant\": \"v002\", \"ratio\": 1.1, \"ci95\": [0.97, 1.25], \"rounds\": 7}}"
}

row_q() {
	jq -r ".kernels[] | select(.kernel == \"$1\") | $2" $doc
}

test_expect_success 'a winner slower warm beyond the noise leaves the plan, with its evidence' '
	warm_run &&
	tko apply run >out.txt 2>err.txt &&
	json_q run/apply/plan.json "[.kernels[].kernel] | sort == [\"scale_add_kernel\", \"$Z\"]" &&
	detail="tune timed it warm (no L2 flush) at 0.950x [0.920, 0.980] over the base in 7 rounds; cold 1.600x" &&
	json_q run/apply/plan.json ".skipped[] | select(.kernel == \"$R\") | .reason == \"slower_warm\" and .detail == \"$detail\"" &&
	json_q $doc ".left_out == [{\"id\": \"$R-e8ab9538\", \"kernel\": \"$R\", \"reason\": \"slower_warm\", \"detail\": \"$detail\", \"of\": \"plan\"}]" &&
	test "$(row_q $R .status)" = not_planned && test "$(row_q $R .reason)" = slower_warm &&
	test "$(row_q $R .predicted_warm_speedup)" = 0.95 &&
	json_q run/apply/plan.json ".kernels[] | select(.kernel == \"$Z\") | .predicted == {\"speedup\": 1.25, \"time_ms\": 0.008, \"warm_speedup\": 1.1, \"warm_ci95\": [0.97, 1.25]}"
'

test_expect_success 'the prediction: warm where tune has it, cold beside it' '
	json_q $doc ".step.warm_kernels == 1" &&
	near "$(jq -r .step.predicted_gain_cold $doc)" "$(awk "BEGIN { printf \"%.12f\", 1000 / 998 }")" 1e-9 &&
	near "$(jq -r .step.predicted_gain $doc)" "$(awk "BEGIN { printf \"%.12f\", 1000 / (1000 - 10 * (1 - 1 / 1.1)) }")" 1e-9 &&
	json_q $doc ".step.predicted_gain == .step.predicted_gain_warm" &&
	near "$(jq -r .step.predicted_saving_ms $doc)" 0.000909090909 1e-9 &&
	near "$(row_q $Z .predicted_saving_ms)" 0.000909090909 1e-9 &&
	json_q $doc "(.kernels[] | select(.kernel == \"$Z\") | .predicted_warm_ci95) == [0.97, 1.25]" &&
	json_q $doc "(.kernels[] | select(.kernel == \"scale_add_kernel\")) | has(\"predicted_warm_speedup\") | not" &&
	grep -E "^$Z +1\.250x \(1\.100x warm\) " out.txt &&
	want=$(awk "BEGIN { printf \"predicted %.4fx (from the profile)\", 1000 / (1000 - 10 * (1 - 1 / 1.1)) }") &&
	grep -F "step gain: $want" out.txt &&
	want=$(awk "BEGIN { printf \"(1 of the winners), cold elsewhere; from the cold ones alone %.4fx,\", 1000 / 998 }") &&
	grep -F "$want" out.txt
'

test_expect_success '--keep-slower keeps it, and the warm prediction counts its loss' '
	warm_run &&
	tko apply --keep-slower run >out.txt 2>err.txt &&
	json_q run/apply/plan.json "[.kernels[].kernel] | sort == [\"scale_add_kernel\", \"$Z\", \"$R\"]" &&
	json_q $doc ".left_out == [] and .step.warm_kernels == 2" &&
	near "$(jq -r .step.predicted_gain_cold $doc)" "$(awk "BEGIN { printf \"%.12f\", 1000 / 983 }")" 1e-9 &&
	near "$(jq -r .step.predicted_gain $doc)" "$(awk "BEGIN { printf \"%.12f\", 1000 / 1001.196172249 }")" 1e-9
'

test_expect_success 'a warm object of another variant than the winner is not the winner'"'"'s: it stays in' '
	warm_run &&
	with_warm $K/$R-e8ab9538/tune/tune.json ".kernels[0].winner.confirmation.warm.variant = \"v007\"" &&
	tko apply run >out.txt 2>err.txt &&
	json_q run/apply/plan.json "[.kernels[].kernel] | sort == [\"scale_add_kernel\", \"$Z\", \"$R\"]" &&
	json_q $doc ".step.warm_kernels == 1 and .left_out == []"
'

test_expect_success 'without warm objects both predictions agree and nothing is said of them' '
	fresh_run &&
	tko apply run >out.txt 2>err.txt &&
	json_q $doc ".step.warm_kernels == 0 and .step.predicted_gain_cold == .step.predicted_gain" &&
	! test_grep "warm" out.txt
'

test_done
