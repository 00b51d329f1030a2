#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# Rules follow what tko tune measured (issue 17): a tune.json written here
# by hand for examples/h200-run's online-softmax kernel times its twopass
# variant at 0.87x (a wrong-output twopass at 1.5x does not count) and has
# two hints variants, both compiled to the base's ISA (v002 same_as v001
# same_as v000). Expected: twopass_speedup 0.87, hints 2 of 2 same ISA,
# twopass_slower fires, and nothing recommends the twopass variant.
. "$(dirname "$0")/lib.sh"

EXAMPLE=$SRC_ROOT/examples/h200-run
K=triton_per_fused__softmax_exp_prepare_softmax_online_sub_view_2

test_expect_success 'a tune result for the online-softmax kernel' '
	cp -R "$EXAMPLE" run &&
	dir=$(cd run/capture/kernels/$K-* && pwd) &&
	cat >tune.json <<-EOF
	{"schema_version": 1, "tool": "tko tune", "mode": "gpu", "kernels": [
	 {"kernel": "$K", "source": "$dir/kernel.py", "target": "sm_90",
	  "winner": {"id": "v000", "label": "base", "speedup": 1.0, "time_ms": 0.0123},
	  "variants": [
	   {"id": "v000", "label": "base", "source_variants": [], "status": "ok", "speedup": 1.0},
	   {"id": "v001", "label": "+hints", "source_variants": ["hints"], "status": "duplicate", "same_as": "v000"},
	   {"id": "v002", "label": "+hints+assume", "source_variants": ["hints", "assume"], "status": "duplicate", "same_as": "v001"},
	   {"id": "v003", "label": "twopass", "source_variants": ["twopass"], "status": "ok", "speedup": 0.87},
	   {"id": "v004", "label": "twopass,XBLOCK=2", "source_variants": ["twopass"], "status": "wrong", "speedup": 1.5}]}]}
	EOF
	tko -q investigate run --tune tune.json >/dev/null
'

test_expect_success 'what tune measured is read: the best correct twopass, hints that changed no ISA' '
	json_q run/analysis/kernels.json ".kernels[] | select(.name == \"$K\") | .tune.twopass_speedup == 0.87 and .tune.hints_variants == 2 and .tune.hints_same_isa == 2"
'

test_expect_success 'twopass_slower fires; online_softmax and the twopass advice do not' '
	json_q run/analysis/kernels.json ".kernels[] | select(.name == \"$K\") | [.rules[].rule] | index(\"twopass_slower\") != null and index(\"online_softmax\") == null" &&
	json_q run/analysis/kernels.json ".kernels[] | select(.name == \"$K\") | (.action | test(\"twopass\")) | not" &&
	test_grep "tko tune timed the two-pass softmax on this kernel.s inputs at 0.87x" run/report/report.md
'

test_expect_success 'without the tune result no rule claims a measurement' '
	tko -q investigate --out-dir plain run >/dev/null &&
	json_q plain/analysis/kernels.json ".kernels[] | select(.name == \"$K\") | .tune.file == null and ([.rules[].rule] | index(\"twopass_slower\") == null)"
'

test_done
