#!/bin/sh
# tko apply on a source-variant winner without --source-variants (src/apply/
# plan.c; docs/apply.md, "The plan"), from the H200's tune result for the
# benchmark model second's prepare_softmax_online_4 (2026-12-05; tests/data/
# apply/h200-second-softmax.tune.json): v009, R0_BLOCK=8192 +twopass, won
# at 1.744x, and the only config-only variant, v031 (its config alone), was
# 0.951x [0.949, 0.953] over the base in the same rounds. The document
# predates winner.config_only; the tests add it as tko tune now writes it
# from that confirmation (jq, from vs_config_only.vs_base), then a
# confirmed one by hand. The kernel folder's kernel.py and capture.json are
# the same kernel of an H200 capture (tests/data/tune/online_softmax.py).
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"

DATA=$SRC_ROOT/tests/data
DOC=$DATA/apply/h200-second-softmax.tune.json
K=run/capture/kernels/triton_red_fused__log_softmax__to_copy_prepare_softmax_online_4-aabef4cd
export DATA DOC K

test_expect_success 'setup: a RUN with the kernel folder' '
	mkdir -p $K/tune &&
	cp "$DATA/tune/online_softmax.py" $K/kernel.py &&
	cp "$DATA/tune/online_softmax.capture.json" $K/capture.json
'

test_expect_success 'the document as tune wrote it: not planned (source_variant), no detail' '
	cp "$DOC" $K/tune/tune.json &&
	tko apply run >out 2>err &&
	p=run/apply/plan.json &&
	test "$(json_q $p ".kernels | length")" = 0 &&
	test "$(json_q $p ".skipped[0] | [.reason, .detail] | map(tostring) | join(\" \")")" = "source_variant null"
'

test_expect_success 'its config-only variant, slower than the base: still not planned, its figure said' '
	jq ".kernels[0].winner.config_only = (.kernels[0].winner.confirmation.vs_config_only |
		{id: .id, label: .label, speedup: .vs_base.ratio, ci95: .vs_base.ci95, confirmed: (.vs_base.ci95[0] > 1)})" \
		"$DOC" >$K/tune/tune.json &&
	test "$(json_q $K/tune/tune.json ".kernels[0].winner.config_only.confirmed")" = false &&
	fig=$(jq -r ".kernels[0].winner.confirmation.vs_config_only.vs_base.ratio" "$DOC" |
		awk "{ printf \"%.3f\", \$1 }") &&
	test "$fig" = 0.951 &&
	tko apply run >out 2>err &&
	p=run/apply/plan.json &&
	test "$(json_q $p ".kernels | length")" = 0 &&
	test "$(json_q $p ".skipped[0].reason")" = source_variant &&
	test "$(json_q $p ".skipped[0].detail")" = "its config-only variant v031 ($fig""x) is not confirmed faster than the base" &&
	test_grep "source_variant: its config-only variant v031" out
'

test_expect_success 'a confirmed config-only variant is planned in the winner'"'"'s place' '
	jq ".kernels[0].winner.config_only = {id: \"v031\", label: \"R0_BLOCK=8192\", speedup: 1.10,
		ci95: [1.05, 1.15], confirmed: true}" "$DOC" >$K/tune/tune.json &&
	tko apply --json a.json run >out 2>err &&
	p=run/apply/plan.json &&
	test "$(json_q $p ".kernels | length")" = 1 &&
	test "$(json_q $p ".kernels[0] | [.config.kwargs.R0_BLOCK, .config.kwargs.XBLOCK, .config.num_warps, .fallback, .predicted.speedup] | map(tostring) | join(\" \")")" = "8192 1 16 config_only 1.1" &&
	test "$(json_q $p ".kernels[0].predicted.time_ms == $(jq ".kernels[0].variants[] | select(.id == \"v031\") | .time_ms" "$DOC")")" = true &&
	test "$(json_q $p ".kernels[0] | has(\"source\") or has(\"inductor_settings\")")" = false &&
	test "$(json_q $p ".inductor_settings")" = "{}" &&
	test "$(json_q a.json ".kernels[0] | [.planned, .fallback, .predicted_speedup] | map(tostring) | join(\" \")")" = "true config_only 1.1" &&
	test_grep "not_run \(config-only\)" out
'

test_expect_success 'with --source-variants the two-pass winner, its settings and source' '
	tko apply --source-variants --json b.json run >out 2>err &&
	p=run/apply/plan.json &&
	test "$(json_q $p ".kernels[0] | [.config.kwargs.R0_BLOCK, has(\"fallback\"), .predicted.speedup] | map(tostring) | join(\" \")")" = "8192 false 1.744147084" &&
	test "$(json_q $p ".kernels[0].inductor_settings.online_softmax")" = false &&
	test "$(json_q $p ".kernels[0].source.path")" = "$K/tune/winner/kernel.py" &&
	test "$(json_q b.json ".kernels[0] | has(\"fallback\")")" = false
'

test_done
