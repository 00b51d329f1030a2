#!/bin/sh
# tko apply and a max-autotune template's winner (docs/apply.md, "Template
# winners"): tune rewrites the template's BLOCK_M/N/K in its body (config
# "body"), which the hook cannot set; a winner whose body differs from the
# base's is not planned (cannot_carry, the changed parameters in the
# detail) and is named in the artifact's left_out; a winner with the base's
# body (num_warps/num_stages only) is planned without "body".
#
# The RUN: examples/h200-run's template kernel folder (its capture.json and
# kernel.py: the plan needs the kernel's module and kind) with, as its
# tune.json, the template's entry of the real tune document of 2026-12-05
# (tests/corpus/h200-apply-1205/model/tune.json: winner v005 "BLOCK_K=64",
# confirmed 1.193x; base v000 body BLOCK_M 128, BLOCK_N 128, BLOCK_K 32,
# num_warps 4, num_stages 3). That document came from another capture of
# the same model (folder -c5ebf962) whose Inductor picked another config
# than this one's; the plan reads no config from kernel.py, so the pair
# stands for one. Other winners are the document's own variants, chosen
# with jq. Expected values are read from the document by hand and checked
# against it with jq.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

T=triton_tem_fused_mm_relu_0
DIR=$T-3f61ad14
K=run/capture/kernels/$DIR
DOC=$CORPUS/h200-apply-1205/model/tune.json

# template_run [JQ]: the RUN, its tune.json the document's template entry (then JQ applied)
template_run() {
	rm -rf run art && mkdir -p run/capture/kernels &&
	cp -r "$SRC_ROOT/examples/h200-run/capture/kernels/$DIR" $K && mkdir $K/tune &&
	jq "{schema_version, tool, mode, kernels: [.kernels[] | select(.kernel == \"$T\")]} | ${1:-.}" \
		"$DOC" >$K/tune/tune.json
}

variant_q() {
	jq -e ".kernels[] | select(.kernel == \"$T\") | .variants[] | select(.id == \"$1\") | $2" "$DOC"
}

test_expect_success 'the tune document: base v000 and winner v005 differ in BLOCK_K alone' '
	variant_q v000 ".label == \"base\" and .config.body == {\"BLOCK_M\": 128, \"BLOCK_N\": 128, \"BLOCK_K\": 32} and .config.num_warps == 4 and .config.num_stages == 3" &&
	variant_q v005 ".config.body == {\"BLOCK_M\": 128, \"BLOCK_N\": 128, \"BLOCK_K\": 64} and .config.num_warps == 4 and .config.num_stages == 3" &&
	jq -e ".kernels[] | select(.kernel == \"$T\") | .winner.id == \"v005\" and .winner.confirmed == true" "$DOC"
'

why_k="template parameters BLOCK_K 32->64: the hook sets a template's num_warps and num_stages only; these need Inductor's template lookup table (config.lookup_table), whose key tko does not build yet; set them by hand: BLOCK_M=128 BLOCK_N=128 BLOCK_K=64 num_warps=4 num_stages=3 (docs/apply.md, \"Template winners\")"

test_expect_success 'a winner that changed BLOCK_K is not planned: cannot_carry, the change in the detail' '
	template_run &&
	tko apply --write-artifact art run >out.txt 2>err.txt &&
	json_q run/apply/plan.json ".kernels == []" &&
	json_q run/apply/plan.json ".skipped == [{\"id\": \"$DIR\", \"kernel\": \"$T\", \"reason\": \"cannot_carry\", \"detail\": $(printf "%s" "$why_k" | jq -Rs .)}]" &&
	test_grep "0 winners planned, 0 ran as planned, 1 kernel not planned" out.txt &&
	test_grep "not_planned  cannot_carry: template parameters BLOCK_K 32->64: " out.txt
'

test_expect_success 'apply.json: not_planned with the reason, and left out of the plan and the artifact' '
	json_q run/apply/apply.json ".kernels == [.kernels[0]] and (.kernels[0] | .planned == false and .status == \"not_planned\" and .reason == \"cannot_carry\" and .detail == $(printf "%s" "$why_k" | jq -Rs .))" &&
	json_q run/apply/apply.json ".left_out == [{\"id\": \"$DIR\", \"kernel\": \"$T\", \"reason\": \"cannot_carry\", \"detail\": $(printf "%s" "$why_k" | jq -Rs .), \"of\": \"plan\"}]" &&
	grep -F "left out of the plan, its runs and the artifact: $T (cannot_carry: template parameters BLOCK_K 32->64: " out.txt &&
	json_q art/tko_winners.json ".configs == {} and .template_lookup_table == {} and ([.left_out[].reason] == [\"cannot_carry\"])" &&
	grep -F "#   $T ($DIR): cannot_carry: template parameters BLOCK_K 32->64: " art/tko_winners.py
'

test_expect_success 'two parameters changed: both named, in the body'"'"'s order' '
	variant_q v011 ".config.body == {\"BLOCK_M\": 256, \"BLOCK_N\": 128, \"BLOCK_K\": 64}" &&
	template_run ".kernels[0].winner.id = \"v011\"" &&
	tko apply run >out.txt 2>err.txt &&
	json_q run/apply/plan.json ".skipped[0] | .reason == \"cannot_carry\" and (.detail | startswith(\"template parameters BLOCK_M 128->256, BLOCK_K 32->64: \")) and (.detail | contains(\"set them by hand: BLOCK_M=256 BLOCK_N=128 BLOCK_K=64 num_warps=4 num_stages=3 \"))"
'

test_expect_success 'a winner with the base'"'"'s body (num_warps=8) is planned for the hook, without body' '
	variant_q v007 ".config.body == {\"BLOCK_M\": 128, \"BLOCK_N\": 128, \"BLOCK_K\": 32} and .config.num_warps == 8" &&
	want=$(variant_q v007 ".config | del(.body)" | jq -c .) &&
	test "$want" = "{\"num_warps\":8,\"num_stages\":3,\"kwargs\":{},\"options\":{}}" &&
	template_run ".kernels[0].winner.id = \"v007\"" &&
	tko apply --write-artifact art run >out.txt 2>err.txt &&
	json_q run/apply/plan.json ".skipped == [] and (.kernels | length) == 1" &&
	json_q run/apply/plan.json ".kernels[0] | .kernel == \"$T\" and .launcher == \"template\" and .mechanisms == [\"hook\"] and .config == $want and (.config | has(\"body\") | not)" &&
	json_q run/apply/apply.json ".left_out == [] and .kernels[0].planned == true" &&
	key=$(jq -r ".kernels[0].lookup_hash" run/apply/plan.json) &&
	json_q art/tko_winners.json ".configs == {\"$key\": {\"kwargs\": {}, \"num_warps\": 8, \"num_stages\": 3}} and .left_out == []"
'

test_expect_success 'without a base variant to compare with, every body parameter counts as changed' '
	template_run ".kernels[0].winner.id = \"v007\" | .kernels[0].variants[0].label = \"renamed\"" &&
	tko apply run >out.txt 2>err.txt &&
	json_q run/apply/plan.json ".kernels == [] and (.skipped[0].detail | startswith(\"template parameters BLOCK_M ?->128, BLOCK_N ?->128, BLOCK_K ?->32: \"))"
'

test_expect_success 'a template whose base won (the H200 investigate tune) stays default_is_best' '
	template_run &&
	cp "$CORPUS/h200-invtune/tune-$T-3b6c285d.json" $K/tune/tune.json &&
	jq -e ".kernels[0].winner.is_base == true" $K/tune/tune.json &&
	tko apply run >out.txt 2>err.txt &&
	json_q run/apply/plan.json ".kernels == [] and .skipped == [{\"id\": \"$DIR\", \"kernel\": \"$T\", \"reason\": \"default_is_best\", \"detail\": null}]" &&
	json_q run/apply/apply.json ".left_out == []"
'

test_done
