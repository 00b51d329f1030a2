#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko investigate and the rules written from the brief's advice, on a copy
# of examples/h200-run: the zero-initialisation kernel is told to move into
# the kernel its buffer goes to next (read off the wrapper module with
# grep), and a tko tune result whose buffer-op variant failed with the
# brief's "LLVM Translation failed" is explained (that buffer ops are then
# not advised is checked on AMDGCN in tests/unit/test-analysis.c: this RUN
# is PTX). The tune document is written here by hand in the shape
# `tko tune --json` writes (docs/json.md, "tko tune").
. "$(dirname "$0")/lib.sh"

EXAMPLE=$SRC_ROOT/examples/h200-run
Z=triton_poi_fused_zeros_0

test_expect_success 'zero-initialisation: move it into the consumer the wrapper names' '
	cp -R "$EXAMPLE" run &&
	tko investigate run >stdout 2>stderr &&
	line=$(grep -n "^ *triton_poi_fused_index_add_zeros_1.run(.*buf0" run/cache/inductor/*/*.py | cut -d: -f2) &&
	grep -q "^ *$Z.run(buf0," run/cache/inductor/*/*.py &&
	json_q run/report/report.json ".kernels[] | select(.name == \"$Z\") | .decision == \"rewrite\" and .rules[0].rule == \"zero_init\"" &&
	json_q run/report/report.json ".kernels[] | select(.name == \"$Z\") | .addr.zero_consumer == \"triton_poi_fused_index_add_zeros_1 (wrapper line $line, argument buf0)\"" &&
	test_grep "move the initialisation into its consumer, triton_poi_fused_index_add_zeros_1" run/report/report.md
'

test_expect_success 'a buffer-op variant that failed to lower is explained' '
	dir=$(jq -r ".kernels[] | select(.name == \"$Z\") | .kernel_dir" run/report/report.json) &&
	jq -n --arg src "run/$dir/kernel.py" --arg name "$Z" "{schema_version: 1, tool: \"tko tune\",
		mode: \"compile-only\", kernels: [{kernel: \$name, source: \$src, target: \"gfx942\",
		winner: null, variants: [
		  {id: \"v000\", label: \"base\", status: \"compiled\", error: null, env: {}},
		  {id: \"v001\", label: \"bufops\", status: \"compile_error\",
		   error: \"RuntimeError: LLVM Translation failed for operation: builtin.unrealized_conversion_cast\",
		   env: {AMDGCN_USE_BUFFER_OPS: \"1\"}}]}]}" >tune.json &&
	tko investigate --tune tune.json --out-dir out run >stdout 2>stderr &&
	json_q out/report/report.json ".kernels[] | select(.name == \"$Z\") | .tune.buffer_ops_failed == true" &&
	json_q out/report/report.json ".kernels[] | select(.name == \"$Z\") | .tune.failure | startswith(\"bufops: LLVM could not translate\")" &&
	json_q out/report/report.json ".kernels[] | select(.name == \"$Z\") | [.rules[].rule] | index(\"tune_failure\") != null"
'

test_done
