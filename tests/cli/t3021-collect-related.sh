#!/bin/sh
# tko collect: beside the kernel module, the wrapper (output code) module
# that launches it, its .best_config record and its lines of the RUN's log.
# Expected sets are found here with grep/awk/jq on the corpus RUN.
# Test bodies are single-quoted for eval, as lib.sh wants; variables set
# here are read inside them.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

RUN1=$CORPUS/h200-run1
K=triton_poi_fused_index_add_zeros_1

test_expect_success 'the wrapper module that launches the kernel, verbatim' '
	tko collect "$RUN1" --kernel $K --out k1 >out &&
	module=$(jq -r ".inductor_module" k1/collect.json) &&
	grep -l "async_compile.triton(.$K.," "$RUN1"/cache/inductor/*/*.py |
		xargs grep -l "^# kernel path: .*/$(basename "$module")$" >expect &&
	test_line_count = 1 expect &&
	json_q k1/collect.json ".files[] | select(.role == \"wrapper_module\") | .from" >got &&
	sed "s|^$RUN1/||" expect >want && test_cmp want got &&
	cmp "$(cat expect)" "k1/inductor/$(basename "$(cat expect)")"
'

test_expect_success 'the .best_config beside the module whose triton_cache_hash is one of its entries' '
	dir=$(dirname "$(jq -r ".inductor_module" k1/collect.json)") &&
	for b in "$dir"/*.best_config; do
		h=$(jq -r .triton_cache_hash "$b") &&
		if [ -f "$RUN1/cache/triton/$h/$K.json" ]; then echo "$b"; fi
	done >expect &&
	test_line_count = 1 expect &&
	json_q k1/collect.json ".files[] | select(.role == \"best_config\") | .from" >got &&
	sed "s|^$RUN1/||" expect >want && test_cmp want got &&
	cmp "$(cat expect)" "k1/inductor/$(basename "$(cat expect)")"
'

test_expect_success 'another kernel of the same folder does not take it' '
	# hk/ holds two kernel modules and one record, for gelu_gelu_backward_mul_view_3 (log line 3528).
	tko collect "$RUN1" --kernel triton_poi_fused_gelu_gelu_backward_mul_view_3 --out k2 >out &&
	json_q k2/collect.json "[.files[] | select(.role == \"best_config\") | .from] == [\"cache/inductor/hk/148e90da6cab579d149562394e856d8767d0e348b8a6725662500c46aac3f50c.best_config\"]" &&
	tko collect "$RUN1" --kernel triton_red_fused_native_layer_norm_native_layer_norm_backward_view_6 --out k3 >out &&
	json_q k3/collect.json "[.files[] | select(.role == \"best_config\")] | length == 0"
'

test_expect_success 'its log lines: every line naming it, its configs and its benchmark rows' '
	awk -v k=$K "
		index(\$0, \"configs for \" k) && \$0 ~ (k \"\$\") { n = \$(NF - 3); print NR \":\" \$0; next }
		n > 0 { print NR \":\" \$0; n--; next }
		index(\$0, \"Benchmark all input configs for \" k \",\") { b = 1; print NR \":\" \$0; next }
		b && /Best config for / { b = 0 }
		b { print NR \":\" \$0; next }
		{ line = \$0; gsub(k \"[A-Za-z0-9_]\", \"\", line); if (line ~ (\"(^|[^A-Za-z0-9_])\" k \"([^A-Za-z0-9_]|\$)\")) print NR \":\" \$0 }
	" "$RUN1/log_profile.txt" >expect &&
	test_cmp expect k1/logs/log_profile.txt &&
	json_q k1/collect.json ".files[] | select(.role == \"log_lines\") | .from == \"log_profile.txt\""
'

test_expect_success 'a name that is a prefix of another takes only its own lines' '
	mkdir -p r/log r/cache/inductor/ab &&
	printf "%s\n" "import triton" "import triton.language as tl" "@triton.jit" \
		"def triton_poi_fused_add_1(in_ptr0, xnumel, XBLOCK: tl.constexpr):" "    pass" \
		>r/cache/inductor/ab/cabtest.py &&
	p="V1202 15:29:31.668000 475 torch/_inductor/runtime/triton_heuristics.py" &&
	printf "%s\n" "$p:373] [0/0] CachingAutotuner gets 1 configs for triton_poi_fused_add_12" \
		"$p:379] [0/0] XBLOCK: 512, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None" \
		"$p:373] [0/0] CachingAutotuner gets 1 configs for triton_poi_fused_add_1" \
		"$p:379] [0/0] XBLOCK: 1024, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None" \
		"model says triton_poi_fused_add_1." >r/log/model.log &&
	tko collect r --kernel triton_poi_fused_add_1 --out k4 >out &&
	printf "%s\n" "3:$p:373] [0/0] CachingAutotuner gets 1 configs for triton_poi_fused_add_1" \
		"4:$p:379] [0/0] XBLOCK: 1024, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None" \
		"5:model says triton_poi_fused_add_1." >expect &&
	test_cmp expect k4/logs/log/model.log
'

test_done
