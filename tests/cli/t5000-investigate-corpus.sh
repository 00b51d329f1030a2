#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko investigate on corpus/h200-run1, a colleague's RUN without capture/
# (log, Inductor and Triton caches only), checked against facts taken from
# the files with grep, sed and jq: which kernels exist, their best times in
# the log, the index_add kernel's atomics, the pointwise kernel's 128-bit
# loads and the mm template's matrix instructions in their PTX.
. "$(dirname "$0")/lib.sh"

RUN=$CORPUS/h200-run1
LOG=$RUN/log_profile.txt
INDUCTOR=$RUN/cache/inductor
TRITON=$RUN/cache/triton

test_expect_success 'the corpus RUN is analysed into --out-dir (the RUN is read-only)' '
	tko investigate --out-dir out --peak-gbps 4243 "$RUN" >stdout 2>stderr &&
	for f in analysis/kernels.json analysis/summarize.json analysis/meta.json analysis/isa.json \
		report/report.md report/report.json report/report.html; do
		test -s "out/$f" || exit 1
	done &&
	json_q out/report/report.json ".schema_version == 2 and .tool == \"tko report\"" &&
	json_q out/analysis/kernels.json ".schema_version == 2 and .tool == \"tko investigate\"" &&
	json_q out/analysis/isa.json ".tool == \"tko isa\"" &&
	json_q out/analysis/meta.json ".tool == \"tko meta\"" &&
	json_q out/analysis/summarize.json ".tool == \"tko summarize\"" &&
	test_grep "^19 kernels the model ran \(8 timed, 11 without a time\)" stdout
'

test_expect_success 'the kernels are those the wrapper modules launch (Generating kernel code + the template)' '
	sed -n "s/.*Generating kernel code with kernel_name: \([a-z_0-9]*\).*/\1/p" "$LOG" >gen &&
	grep -ho "triton_tem_[a-z_0-9]*\.run(" "$INDUCTOR"/*/*.py | sed "s/\.run(//" >>gen &&
	sort -u gen >want &&
	jq -r ".kernels[].name" out/report/report.json | sort >got &&
	test_cmp want got
'

test_expect_success 'launches per graph call are the wrapper call sites' '
	json_q out/report/report.json ".kernels[] | select(.name == \"triton_per_fused_native_layer_norm_native_layer_norm_backward_view_7\") | .launches == 2 and .launch_basis == \"wrapper\"" &&
	json_q out/report/report.json "[.kernels[].launches] | add == 20"
'

test_expect_success 'best times are the log s: Best config, or the coordinate-descent improvement' '
	sed -n "s/.*Best config for \([a-z_0-9]*\): .*: \([0-9.]*\), nreg.*/\1 \2/p" "$LOG" |
		grep -v "^triton_ " >best &&
	sed -n "s/.*\] \([a-z_0-9]*\): Improve from .* \([0-9.]*\), [0-9.]*x$/\1 \2/p" "$LOG" >improved &&
	test -s best && test -s improved &&
	while read -r name ms; do
		if grep -q "^$name " improved; then ms=$(grep "^$name " improved | cut -d" " -f2); fi
		json_q out/report/report.json ".kernels[] | select(.name == \"$name\") | (.time_ms - $ms | fabs) < 1e-9 and .time_basis == \"autotune\"" || exit 1
	done <best
'

test_expect_success 'the template s time is its max-autotune row (the 100% row of AUTOTUNE mm)' '
	best=$(sed -n "s/^  \(triton_mm_[0-9]*\) [0-9.]* ms 100.0%.*/\1/p" "$LOG") &&
	ms=$(sed -n "s/^  $best \([0-9.]*\) ms.*/\1/p" "$LOG") &&
	json_q out/report/report.json ".kernels[] | select(.name == \"triton_tem_fused_mm_0\") | (.time_ms - $ms | fabs) < 1e-9 and .time_basis == \"max_autotune\""
'

test_expect_success 'shares add up to 1 over the timed kernels, ranked by time' '
	json_q out/report/report.json "[.kernels[].share | select(. != null)] | add | . > 0.999999 and . < 1.000001" &&
	json_q out/report/report.json "[.kernels[] | select(.rank != null) | .total_ms] as \$t | \$t == (\$t | sort | reverse)"
'

test_expect_success 'index_add: the atomics of the PTX its .best_config names' '
	hash=$(jq -r .triton_cache_hash "$INDUCTOR"/4o/cfdc65008a3f05aba1d4eff6b5b3d8a28405af7d083925d97dd628693b6392b6.best_config) &&
	ptx=$TRITON/$hash/triton_poi_fused_index_add_zeros_1.ptx &&
	n=$(grep -c -E "^\s*(@%p[0-9]+ )?(atom|red)\.global" "$ptx") &&
	test "$n" -gt 0 &&
	json_q out/report/report.json ".kernels[] | select(.name == \"triton_poi_fused_index_add_zeros_1\") | .isa.atomics == $n and .isa.cache_dir == \"$hash\" and .decision == \"rewrite\" and .rules[0].rule == \"atomic_scatter\""
'

test_expect_success 'the pointwise kernel: its 128-bit loads (ld.global.v4) in the chosen PTX' '
	hash=$(jq -r .triton_cache_hash "$INDUCTOR"/sd/2a4837ff67c37f56ed59f67dd6bf2bed2e954ae61073ed10b227d9ed65efb26b.best_config) &&
	ptx=$TRITON/$hash/triton_poi_fused_add_mul_sigmoid_sub_0.ptx &&
	n=$(grep -c "ld\.global\.v4" "$ptx") && test "$n" -gt 0 &&
	json_q out/report/report.json ".kernels[] | select(.name == \"triton_poi_fused_add_mul_sigmoid_sub_0\") | .isa.families[] | select(.name == \"global_load\") | .widths[] | select(.bits == 128) | .count == $n"
'

test_expect_success 'the mm template: its wgmma instructions, in the PTX compiled from the same source' '
	ptx=$(grep -l "cache/inductor/5p/c5pfyn" "$TRITON"/*/triton_tem_fused_mm_0.ptx) &&
	n=$(grep -c "wgmma\.mma_async" "$ptx") && test "$n" -gt 0 &&
	json_q out/report/report.json ".kernels[] | select(.name == \"triton_tem_fused_mm_0\") | .isa.matrix_ops == $n and .isa.match == \"same_source\""
'

test_expect_success 'every kernel in the Markdown, the terminal summary and the HTML' '
	for name in $(jq -r ".kernels[].id" out/report/report.json); do
		grep -q "^## <a id=\"$name\"></a>" out/report/report.md || exit 1
		grep -q "id=\"k-$name\"" out/report/report.html || exit 1
	done &&
	test_grep "^   1  triton_poi_fused_gelu_gelu_backward_mul_view_3 " stdout &&
	test_grep "GB/s is the bytes a launch reads and writes" out/report/report.md &&
	test_grep -v "HBM utili" out/report/report.md
'

test_expect_success 'the HTML is self-contained: no link, no external script, image or font' '
	test_grep -v "<link|<script src|<img|@import|url\(" out/report/report.html &&
	test_grep -v "(src|href)=\"(https?:)?//" out/report/report.html &&
	test_grep "<svg id=\"chart-share\"" out/report/report.html &&
	test_grep "<svg id=\"chart-rate\"" out/report/report.html
'

test_expect_success 'gaps name what is missing and the command that fills it' '
	json_q out/report/report.json ".gaps[] | select(.what | startswith(\"no capture\")) | .command | test(\"^tko investigate\")" &&
	json_q out/report/report.json ".kernels[] | select(.name == \"triton_poi_fused_relu_1\") | .gaps[] | select(.what | startswith(\"no ISA\"))"
'

test_expect_success 'without --peak-gbps the corpus has no peak: a gap, no fraction' '
	tko -q investigate --out-dir out2 "$RUN" >/dev/null &&
	json_q out2/report/report.json ".peak_gbps == null and ([.kernels[].peak_fraction | select(. != null)] | length == 0)" &&
	json_q out2/report/report.json "[.gaps[].what | select(startswith(\"no measured peak\"))] | length == 1"
'

test_done
