#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko investigate on examples/h200-run, a RUN captured and replayed on an
# H200: times from the replay (analysis/replay.json), the peak from
# env.json, shapes from capture.json, user source lines from the log, a
# hand-written @triton.autotune kernel among Inductor's. Expected values
# come from those files with jq and sed.
. "$(dirname "$0")/lib.sh"

EXAMPLE=$SRC_ROOT/examples/h200-run

test_expect_success 'the example RUN is analysed in place (a copy)' '
	cp -R "$EXAMPLE" run &&
	tko investigate run >stdout 2>stderr &&
	test -s run/analysis/kernels.json && test -s run/report/report.html &&
	test_grep "report: run/report/report" stderr &&
	test_grep "^7 kernels the model ran \(7 timed" stdout
'

test_expect_success 'times are the replay s for the config the model ran' '
	jq -r ".kernels[] | select(.error == null) | (.kernel_dir | split(\"/\") | last) as \$d | .configs[] | select(.captured) | \"\(\$d) \(.time_ms)\"" \
		run/analysis/replay.json >want &&
	matched=0 &&
	while read -r dir ms; do
		jq -e ".kernels[] | select(.kernel_dir != null and (.kernel_dir | endswith(\"$dir\")))" run/report/report.json >/dev/null || continue
		json_q run/report/report.json ".kernels[] | select(.kernel_dir | endswith(\"$dir\")) | (.time_ms - $ms | fabs) < 1e-12 and .time_basis == \"replay\"" || exit 1
		matched=$((matched + 1))
	done <want &&
	json_q run/report/report.json "[.kernels[] | select(.time_basis == \"replay\")] | length == $matched" &&
	test "$matched" -eq 7
'

test_expect_success 'the template: replayed time, and the max-autotune table as its runners-up' '
	best=$(sed -n "s/^  \(triton_mm_[0-9]*\) [0-9.]* ms 100.0%.*/\1/p" run/log/model.log) &&
	ms=$(sed -n "s/^  $best \([0-9.]*\) ms.*/\1/p" run/log/model.log) &&
	rows=$(sed -n "/^AUTOTUNE mm(/,/^SingleProcess/p" run/log/model.log | grep -c " ms .*%") &&
	json_q run/report/report.json ".kernels[] | select(.name == \"triton_tem_fused_mm_relu_0\") | [.configs[] | select(.method == \"max_autotune\")] | length == $rows" &&
	json_q run/report/report.json ".kernels[] | select(.name == \"triton_tem_fused_mm_relu_0\") | .configs[] | select(.chosen) | .label == \"$best\" and ((.time_ms - $ms) | fabs) < 1e-9 and .replay_ms != null"
'

test_expect_success 'a kernel whose replay failed keeps its autotune time and says so' '
	jq "(.kernels[] | select(.kernel == \"triton_tem_fused_mm_relu_0\")) |= (.error = \"TypeError: x\" | .configs = [])" \
		run/analysis/replay.json >failed.json &&
	tko -q investigate --out-dir f --replay failed.json run >/dev/null &&
	best=$(sed -n "s/^  \(triton_mm_[0-9]*\) [0-9.]* ms 100.0%.*/\1/p" run/log/model.log) &&
	ms=$(sed -n "s/^  $best \([0-9.]*\) ms.*/\1/p" run/log/model.log) &&
	json_q f/report/report.json ".kernels[] | select(.name == \"triton_tem_fused_mm_relu_0\") | (.time_ms - $ms | fabs) < 1e-9 and .time_basis == \"max_autotune\"" &&
	json_q f/report/report.json ".kernels[] | select(.name == \"triton_tem_fused_mm_relu_0\") | [.gaps[].what] | any(. == \"the replay failed: TypeError: x\")"
'

# scale_add_kernel loads x_ptr and y_ptr and stores out_ptr, 16777216 fp32
# each (its kernel.py and capture.json): 3 x 67108864 = 201326592 bytes.
test_expect_success 'the peak is env.json s measured copy rate; the rate is the bytes read and written' '
	peak=$(jq .bandwidth.copy_gbps run/env.json) &&
	json_q run/report/report.json ".peak_gbps == $peak" &&
	json_q run/report/report.json ".kernels[] | select(.name == \"scale_add_kernel\") | .bytes_basis == \"traffic\" and .bytes == 201326592 and .bytes_estimate == false and .bytes_note == \"2 tensors read, 1 written\" and ((.gbps - (.bytes / .time_ms / 1e6)) | fabs) < 1e-6 and ((.peak_fraction - .gbps / $peak) | fabs) < 1e-12 and .rate_doubt == null"
'

# index_add_zeros_1 reads int64 [100000] and float32 [100000, 256] and
# atomically updates float32 [5000, 256] (read and written): 800000 +
# 102400000 + 2 x 5120000 = 113440000, the seed skill's count for the same
# kernel (tests/data/seed-log/README.md); zeros_0 only writes [5000, 256].
test_expect_success 'an atomic read-modify-write target is counted both ways' '
	json_q run/report/report.json ".kernels[] | select(.name == \"triton_poi_fused_index_add_zeros_1\") | .bytes == 113440000 and .bytes_estimate == true and (.bytes_note | contains(\"out_ptr0: updated atomically through a loaded index\"))" &&
	json_q run/report/report.json ".kernels[] | select(.name == \"triton_poi_fused_zeros_0\") | .bytes == 5120000 and .bytes_note == \"0 tensors read, 1 written\""
'

test_expect_success 'arguments: shapes, dtypes and strides of capture.json' '
	cap=run/capture/kernels/triton_poi_fused_index_add_zeros_1-470ead05/capture.json &&
	for i in 0 1 2; do
		name=$(jq -r ".args[$i].name" "$cap") &&
		shape=$(jq -c ".args[$i].shape" "$cap") &&
		dtype=$(jq -r ".args[$i].dtype" "$cap") &&
		json_q run/report/report.json ".kernels[] | select(.name == \"triton_poi_fused_index_add_zeros_1\") | .args[] | select(.name == \"$name\") | .shape == \"$shape\" and .dtype == \"$dtype\"" || exit 1
	done
'

test_expect_success 'the user s source line from the post-grad graph in the log' '
	line=$(sed -n "s/.*# File: .*model.py:\([0-9]*\) in scatter, code: out.index_add_.*/\1/p" run/log/model.log | head -n 1) &&
	test -n "$line" &&
	json_q run/report/report.json ".kernels[] | select(.name == \"triton_poi_fused_index_add_zeros_1\") | [.origins[] | select(.line == $line and .function == \"scatter\")] | length == 1" &&
	test_grep "model.py:$line in scatter" run/report/report.md
'

test_expect_success 'the hand-written kernel is a model kernel, the autotuning candidates are not' '
	json_q run/report/report.json "[.kernels[].name] | index(\"scale_add_kernel\") != null" &&
	json_q run/report/report.json "[.kernels[].name] | index(\"triton_mm\") == null" &&
	n=$(ls -d run/capture/kernels/triton_mm-* | wc -l) &&
	json_q run/report/report.json ".candidates[] | select(.name == \"triton_mm\") | .count == $n"
'

test_expect_success 'tko report re-renders from the analysis alone' '
	rm -rf run/report &&
	tko report run >out &&
	test -s run/report/report.md && test -s run/report/report.json && test -s run/report/report.html &&
	jq -S "del(.tool)" run/analysis/kernels.json >a &&
	jq -S "del(.tool)" run/report/report.json >b &&
	test_cmp a b
'

test_done
