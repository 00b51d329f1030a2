#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# A tko tune result whose winner is the base settles the config search
# (docs/rules.md, tune_found_nothing). The two tune.json the H200 wrote on
# 2026-12-05 (tests/gpu/proof.sh, step invtune; corpus/h200-invtune) go into
# examples/h200-run's folders of the same kernels (the same model,
# tests/gpu/model.py). Expected, read off the documents by hand: the mm
# template's lists 12 variants, all status "ok", winner.is_base true,
# wall_s 30.92543562; its only rule without tuning is few_configs (a
# max-autotune template with 0 configs timed), so with the result it is
# left alone, saying what tune timed. The layer norm's winner is v026,
# confirmed 1.052750343 over the base: tuned still decides "tune".
. "$(dirname "$0")/lib.sh"

EXAMPLE=$SRC_ROOT/examples/h200-run
MM=triton_tem_fused_mm_relu_0
LN=triton_red_fused_embedding_native_layer_norm_0
kq() { json_q "$1" ".kernels[] | select(.name == \"$2\") | $3"; }

test_expect_success 'without a tune result the template is marked tune by few_configs' '
	cp -R "$EXAMPLE" run &&
	tko -q investigate --out-dir plain run >/dev/null &&
	kq plain/analysis/kernels.json $MM "[.rules[].rule] == [\"few_configs\"] and .decision == \"tune\""
'

test_expect_success 'setup: the H200 tune results in their kernel folders' '
	mkdir run/capture/kernels/$MM-3f61ad14/tune run/capture/kernels/$LN-e8ab9538/tune &&
	cp "$CORPUS"/h200-invtune/tune-$MM-3b6c285d.json run/capture/kernels/$MM-3f61ad14/tune/tune.json &&
	cp "$CORPUS"/h200-invtune/tune-$LN-e8ab9538.json run/capture/kernels/$LN-e8ab9538/tune/tune.json &&
	tko investigate run >out.txt
'

test_expect_success 'the template: winner is the base, read with the sweep time' '
	kq run/analysis/kernels.json $MM ".tune.winner_is_base == true and .tune.variants == 12 and .tune.correct == 12 and .tune.wall_s == 30.92543562"
'

test_expect_success 'the template: tune_found_nothing leaves it alone, no config-search advice' '
	kq run/analysis/kernels.json $MM ".decision == \"leave\" and ([.rules[].rule] == [\"tune_found_nothing\"])" &&
	kq run/analysis/kernels.json $MM ".action | test(\"BLOCK_M|num_stages|try\") | not" &&
	kq run/analysis/kernels.json $MM "[.rules[0].evidence[] | \"\(.key)=\(.value)\"] == [\"variants=12\", \"correct=12\", \"wall_s=30.92543562\"]" &&
	test_grep "^\*\*Decision: leave it alone\.\*\* leave it alone: tko tune timed 12 variants \(12 correct\) in 30\.9 s; none was faster than the config Inductor chose \(the winner is the base\)" run/report/report.md &&
	test_grep "^ +[0-9]+  $MM .* leave it alone$" out.txt
'

test_expect_success 'the layer norm: its 1.05x winner still decides tune' '
	kq run/analysis/kernels.json $LN ".tune.winner_is_base == false and .decision == \"tune\" and .rules[0].rule == \"tuned\" and ([.rules[].rule] | index(\"tune_found_nothing\") == null)" &&
	kq run/analysis/kernels.json $LN ".action | test(\"apply tko tune.s winner\")"
'

test_expect_success 'only the base correct compares nothing: few_configs stays' '
	jq ".kernels[0].variants |= map(if .id == \"v000\" then . else .status = \"wrong\" end)" \
		"$CORPUS"/h200-invtune/tune-$MM-3b6c285d.json >run/capture/kernels/$MM-3f61ad14/tune/tune.json &&
	tko -q investigate --out-dir base-only run >/dev/null &&
	kq base-only/analysis/kernels.json $MM ".tune.correct == 1 and [.rules[].rule] == [\"few_configs\"] and .decision == \"tune\""
'

test_done
