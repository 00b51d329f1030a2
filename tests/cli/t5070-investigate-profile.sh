#!/usr/bin/env sh
# tko investigate with a whole-step profile: shares of the GPU busy time,
# library groups decided by the whole-step rules (docs/rules.md), a RUN's
# own profile/ found without --profile. Expected values: hand counts over
# hand-made traces, and facts of the real traces (bf16 GEMMs on the H100
# BERT trace, its 92% idle that TraceLens also reports).
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

D=$SRC_ROOT/tests/data/profile
EX=$SRC_ROOT/examples/h200-run

test_expect_success 'H100 BERT: bf16 GEMMs are not fp32; idle and library-bound fire' '
	tko investigate --out-dir o1 --profile "$D/kineto-h100-bert.json.gz" "$EX" >out &&
	json_q o1/analysis/kernels.json ".profile.format == \"kineto\" and .profile.steps == 1" &&
	json_q o1/analysis/kernels.json "[.step_rules[].rule] == [\"library_bound\", \"idle_gpu\"]" &&
	json_q o1/analysis/kernels.json "[.step_groups[].rules[].rule] | index(\"fp32_matmul\") == null" &&
	json_q o1/analysis/kernels.json ".step_groups[0].op == \"aten::linear\" and .step_groups[0].decision == \"tune\"" &&
	test_grep "^whole step" out && test_grep "idle_gpu" out
'

test_expect_success 'an fp32 sgemm (nsys table) is decided fp32_matmul, before max-autotune' '
	tko investigate --out-dir o2 --profile "$D/nsys-cuda_gpu_kern_sum.csv" "$EX" >out &&
	json_q o2/analysis/kernels.json ".step_groups[0].class == \"gemm\" and .step_groups[0].decision == \"rewrite\"" &&
	json_q o2/analysis/kernels.json "[.step_groups[0].rules[].rule] == [\"fp32_matmul\", \"mm_max_autotune\"]" &&
	json_q o2/analysis/kernels.json ".step_groups[0].action | test(\"set_float32_matmul_precision\")" &&
	json_q o2/analysis/kernels.json ".step_groups[2].class == \"attention\" and .step_groups[2].share == 0.05 and .step_groups[2].rules == []"
'

test_expect_success 'a Triton kernel of the RUN matched by its Inductor hash takes the profile share' '
	h=cpm2wyo4rdra53du77fxypzzkharkao2o5rqrfq4ng47a7nm4xoj &&
	cat >mini.json <<-EOF &&
	{"traceEvents": [
	{"ph": "X", "cat": "cpu_op", "name": "triton_poi_fused_add_addmm_gelu_mul_view_1", "pid": 1, "tid": 1, "ts": 10, "dur": 5, "args": {"External id": 1, "kernel_hash": "$h", "kernel_backend": "triton", "kernel_kwargs": "XBLOCK=1024", "num_warps": 4, "num_stages": 1}},
	{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 20, "dur": 5, "args": {"External id": 2, "Input type": ["float", "float"]}},
	{"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_addmm_gelu_mul_view_1", "pid": 0, "tid": 7, "ts": 100, "dur": 30, "args": {"External id": 1, "correlation": 5}},
	{"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_addmm_gelu_mul_view_1", "pid": 0, "tid": 7, "ts": 140, "dur": 30, "args": {"External id": 1, "correlation": 6}},
	{"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_f32f32_f32f32_f32_tn_n_kernel", "pid": 0, "tid": 7, "ts": 180, "dur": 140, "args": {"External id": 2, "correlation": 7}}
	]}
	EOF
	tko investigate --out-dir o3 --profile mini.json "$EX" >out &&
	json_q o3/analysis/kernels.json ".kernels[0].id == \"triton_poi_fused_add_addmm_gelu_mul_view_1\" and .kernels[0].time_basis == \"trace\"" &&
	json_q o3/analysis/kernels.json ".kernels[0].launches == 2 and .kernels[0].time_ms == 0.03 and .kernels[0].share == 0.3" &&
	json_q o3/analysis/kernels.json "[.kernels[1:][] | .share] | all(. == 0)" &&
	json_q o3/analysis/kernels.json ".step_groups[0].op == \"aten::mm\" and .step_groups[0].share == 0.7 and .step_groups[0].rules[0].rule == \"fp32_matmul\"" &&
	json_q o3/analysis/kernels.json ".step_groups[1].kernel_id == \"triton_poi_fused_add_addmm_gelu_mul_view_1\"" &&
	json_q o3/analysis/kernels.json ".measured_ms == 0.2" &&
	test_grep "^## Whole step .profile.$" o3/report/report.md && test_grep "chart-step" o3/report/report.html
'

test_expect_success 'a RUN with its own profile/ uses it without --profile; no-profile gap gone' '
	cp -R "$EX" run && mkdir -p run/profile && cp mini.json run/profile/trace-1.json &&
	printf "{\"schema_version\": 1}\n" >run/profile/window-1.json &&
	tko investigate run >out &&
	json_q run/analysis/kernels.json ".profile.file == \"profile/trace-1.json\"" &&
	json_q run/analysis/kernels.json "[.gaps[].what] | map(test(\"no whole-step profile\")) | any | not"
'

test_expect_success 'without a profile the gap says how to get one' '
	tko investigate --out-dir o4 "$EX" >out &&
	json_q o4/analysis/kernels.json ".profile == null and ([.gaps[].what] | map(test(\"no whole-step profile\")) | any)"
'

test_expect_success 'a --profile that is not one: one-line error, exit 1' '
	echo nope >bad.txt &&
	test_expect_code 1 tko investigate --out-dir o5 --profile bad.txt "$EX" 2>err &&
	test_one_line_error err && test_grep "bad.txt" err
'

test_done
