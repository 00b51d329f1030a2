#!/bin/sh
# tko summarize on the real TORCH_LOGS=+inductor log of corpus/h200-run1:
# every record in it, checked against counts and values that grep and awk
# take from the log itself.
# Test bodies are single-quoted and run by eval in lib.sh, as in git's t/:
# their $variables expand then, and variables set here are used there.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

LOG=$CORPUS/h200-run1/log_profile.txt

test_expect_success 'the corpus log is summarised with exit 0' '
	tko summarize "$LOG" --json out.json >table.txt &&
	json_q out.json ".schema_version == 1 and .tool == \"tko summarize\"" &&
	test_grep "^triton_poi_fused_add_gelu_mul_view_1 " table.txt
'

test_expect_success 'every line is counted: used, ignored, none malformed' '
	lines=$(wc -l <"$LOG") &&
	used=$(grep -cE "Generating kernel code with kernel_name|CachingAutotuner gets|triton_heuristics.py:379\]|kernel src code for|Output code written to|Benchmark all input configs|triton_heuristics.py:1149\]|Best config for|tuning result to|Do coordinate descent|Baseline Config|Try config|COORDESC:|CACHED|Tune from|Improve from|Function hash|Max autotune selects|Precompilation elapsed|Autotuning elapsed|Autotune Choices Stats|^\{\"num_choices|^AUTOTUNE |^strides:|^dtypes:|^  [a-z_0-9]+ [0-9.]+ ms|SingleProcess AUTOTUNE|select_algorithm.py:3924" "$LOG") &&
	json_q out.json ".inputs[0].lines == $lines" &&
	json_q out.json ".inputs[0].used == $used" &&
	json_q out.json ".inputs[0].ignored == $lines - $used" &&
	json_q out.json ".inputs[0].malformed == 0 and .inputs[0].truncated == false" &&
	json_q out.json ".inputs[0].formats == [\"inductor_log\", \"max_autotune\"]"
'

# "Best config for K: <config>: <ms>, nreg R, nspill S, #shared-mem M"
best_from_log() {
	awk '/Best config for / {
		s = $0; sub(/.*Best config for /, "", s)
		name = s; sub(/: .*/, "", name)
		split(s, parts, ", nreg ")
		t = parts[1]; sub(/.*: /, "", t)
		split(parts[2], r, ", ")
		sub(/nspill /, "", r[2]); sub(/#shared-mem /, "", r[3])
		printf "%s %.6f %s %s %s %d\n", name, t, r[1], r[2], r[3], NR
	}' "$LOG"
}

test_expect_success 'each "Best config for" line is a benchmark choice, with time, registers, spills, shared memory and line' '
	best_from_log | sort >expect &&
	test_line_count = "$(grep -c "Best config for " "$LOG")" expect &&
	json_q out.json ".kernels[] | .name as \$n | .tunings[]
		| select(.method == \"benchmark\" and .from.best.format == \"inductor_log\")
		| .configs[.best_index] as \$b
		| \"\(\$n) \(\$b.time_ms) \(\$b.n_regs) \(\$b.n_spills) \(\$b.shared_bytes) \(.from.best.line)\"" >raw &&
	awk "{ printf \"%s %.6f %s %s %s %s\n\", \$1, \$2, \$3, \$4, \$5, \$6 }" raw | sort >actual &&
	test_cmp expect actual
'

test_expect_success 'every benchmark row and coordinate-descent timing is a timed config' '
	rows=$(grep -c "triton_heuristics.py:1149\]" "$LOG") &&
	benches=$(grep -c "Benchmark all input configs for" "$LOG") &&
	cd_rows=$(grep -c "COORDESC: " "$LOG") &&
	baselines=$(grep -c ": Baseline Config " "$LOG") &&
	json_q out.json "[.kernels[].tunings[] | select(.method == \"benchmark\")] | length == $benches" &&
	json_q out.json "[.kernels[].tunings[] | select(.method == \"benchmark\") | .configs[]] | length == $rows" &&
	json_q out.json "[.kernels[].tunings[] | select(.method == \"coordinate_descent\") | .configs[]] | length == $cd_rows + $baselines" &&
	json_q out.json "[.kernels[].tunings[] | select(.complete | not)] | length == 0"
'

test_expect_success 'coordinate descent: kernel, final time and speedup of each "Improve from" line' '
	awk "/: Improve from / {
		s = \$0; sub(/.*\] (\[[0-9\/]*\] )?/, \"\", s)
		name = s; sub(/: Improve from .*/, \"\", name)
		n = split(s, w, \" \"); x = w[n]; sub(/x\$/, \"\", x)
		t = w[n - 1]; sub(/,\$/, \"\", t)
		printf \"%s %.6f %.3f\n\", name, t, x
	}" "$LOG" | sort >expect &&
	test_line_count = 2 expect &&
	json_q out.json ".kernels[] | .name as \$n | .tunings[] | select(.method == \"coordinate_descent\")
		| \"\(\$n) \(.configs[.best_index].time_ms) \(.speedup)\"" >raw &&
	awk "{ printf \"%s %.6f %.3f\n\", \$1, \$2, \$3 }" raw | sort >actual &&
	test_cmp expect actual
'

test_expect_success 'the final config of a coordinate-descent kernel is the improved one' '
	json_q out.json ".kernels[] | select(.id == \"triton_poi_fused_relu_1\")
		| .chosen_by == \"coordinate_descent\" and .best.kwargs.XBLOCK == 1024 and .best.num_warps == 8"
'

test_expect_success 'CachingAutotuner lines give each kernel its declared configs' '
	gets=$(grep -c "CachingAutotuner gets" "$LOG") &&
	declared=$(grep -o "CachingAutotuner gets [0-9]* configs" "$LOG" | awk "{ s += \$3 } END { print s }") &&
	config_lines=$(grep -c "triton_heuristics.py:379\]" "$LOG") &&
	json_q out.json "[.kernels[] | select(.from.num_configs.format == \"inductor_log\")] | length == $gets" &&
	json_q out.json "[.kernels[] | select(.from.num_configs.format == \"inductor_log\") | .num_configs] | add == $declared" &&
	json_q out.json "[.kernels[].declared[]] | length == $config_lines"
'

test_expect_success 'every generated kernel name is a kernel' '
	sed -n "s/.*Generating kernel code with kernel_name: //p" "$LOG" | sort -u >expect &&
	json_q out.json ".kernels[] | select(.from.name.format == \"inductor_log\") | .name" | sort -u >all &&
	comm -23 expect all >missing &&
	test_line_count = 0 missing
'

test_expect_success 'the max-autotune table: every row, the choice marked 100%, the choice count and time' '
	awk "/^AUTOTUNE / { on = 1; next }
	     on && /^(strides|dtypes): / { next }
	     on && /^ *[A-Za-z_0-9]+ [0-9.]+ ms [0-9.]+%/ { print \$1, \$2, \$4; next }
	     { on = 0 }" "$LOG" >expect &&
	test_line_count = 10 expect &&
	choices=$(sed -n "s/.*Max autotune selects from \([0-9]*\) choices.*/\1/p" "$LOG" | tail -n 1) &&
	best=$(awk "\$3 == \"100.0%\" { print \$1 }" expect) &&
	json_q out.json ".kernels[] | select(.name == \"mm(2048x2048, 2048x2048)\") | .tunings[0]
		| .configs[] | \"\(.label) \(.time_ms) \(.pct_of_best)%\"" >raw &&
	awk "{ printf \"%s %.4f %.1f%%\n\", \$1, \$2, \$3 }" raw >actual &&
	awk "{ printf \"%s %.4f %s\n\", \$1, \$2, \$3 }" expect >expect2 &&
	test_cmp expect2 actual &&
	json_q out.json ".kernels[] | select(.name == \"mm(2048x2048, 2048x2048)\")
		| .tunings[0].num_choices == $choices and .best.label == \"$best\"
		  and .tunings[0].elapsed_ms > 12574 and .tunings[0].elapsed_ms < 12575
		  and (.errors[0].text | test(\"OutOfMemoryError\"))"
'

test_expect_success 'the terminal table has one row per kernel' '
	n=$(json_q out.json ".kernels | length") &&
	rows=$(awk "/^input / { exit } NF { n++ } END { print n - 1 }" table.txt) &&
	test "$rows" -eq "$n"
'

test_done
