#!/bin/sh
# tko profile on real profiles (tests/data/profile/README.md says where each
# came from) and hand-made ones in the real layouts. Expected figures come
# from elsewhere: TraceLens's own busy/total times for the Kineto traces, jq
# sums over the trace's events, and hand counts written in the README.
# Test bodies are single-quoted and run by eval in lib.sh, as in git's t/.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

D=$SRC_ROOT/tests/data/profile

# within REL (relative) of the expected value
near() {
	awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= r * (b < 0 ? -b : b) + 1e-9) }'
}

# TraceLens's busy_time / total_time (ms) from its gpu_timeline.csv
tracelens() {
	awk -F, -v k="$2" '$1 == k { print $2 }' "$1"
}

test_expect_success 'MI300X torch.compile trace: busy time and span as TraceLens computed them' '
	tko profile --json p.json "$D/kineto-mi300x-torch-compile.json.gz" >table.txt &&
	busy=$(jq -r .busy_us p.json) && span=$(jq -r .span_us p.json) &&
	near "$busy" "$(tracelens "$D/kineto-mi300x-torch-compile.tracelens-gpu_timeline.csv" busy_time)e3" 1e-6 &&
	near "$span" "$(tracelens "$D/kineto-mi300x-torch-compile.tracelens-gpu_timeline.csv" total_time)e3" 1e-6 &&
	json_q p.json ".schema_version == 1 and .format == \"kineto\" and .partial == false" &&
	json_q p.json ".device == \"AMD Instinct MI300X\" and .activities == 12"
'

test_expect_success 'MI300X: the GEMMs are one group under aten::mm, with the kernel time jq sums' '
	mm=$(zcat "$D/kineto-mi300x-torch-compile.json.gz" |
		jq "[.traceEvents[] | select(.cat == \"kernel\" and (.name | startswith(\"Cijk_\"))) | .dur] | add") &&
	json_q p.json ".groups[0].class == \"gemm\" and .groups[0].key == \"aten::mm\" and .groups[0].calls == 7" &&
	near "$(jq -r ".groups[0].total_us" p.json)" "$mm" 1e-9 &&
	json_q p.json ".groups[0].dtype == \"c10::BFloat16\""
'

test_expect_success 'MI300X: attention goes under the outer SDPA op, Triton kernels keep their hash and config' '
	json_q p.json ".groups[1].class == \"attention\" and .groups[1].key == \"aten::_scaled_dot_product_flash_attention\" and .groups[1].top_kernel == \"attn_fwd\"" &&
	json_q p.json "[.groups[] | select(.class == \"triton\")] | length == 4" &&
	json_q p.json ".groups[] | select(.key == \"triton_red_fused_add_mean_mul_pow_rsqrt_0\") | .kernel_hash == \"cmwjlpfu2kb4ehcuvblmjopjzi4rp4n2rtyqnvbbrb4xvqkksyqd\" and .kernel_kwargs == \"XBLOCK=2,R0_BLOCK=2048\" and .num_warps == 8"
'

test_expect_success 'shares add up to the busy time' '
	json_q p.json "([.groups[].busy_us] | add) as \$s | ((\$s - .busy_us) | fabs) < 1e-6 * .busy_us" &&
	json_q p.json "([.groups[].share] | add) as \$s | ((\$s - 1) | fabs) < 1e-9" &&
	test_grep "^1  64.0%" table.txt
'

for t in h100 mi300; do
	test_expect_success "BERT on $t: busy and span as TraceLens computed them; one profiler step" '
		f=$D/kineto-'$t'-bert &&
		tko profile --json b.json "$f.json.gz" >/dev/null &&
		near "$(jq -r .busy_us b.json)" "$(tracelens "$f.tracelens-gpu_timeline.csv" busy_time)e3" 1e-6 &&
		near "$(jq -r .span_us b.json)" "$(tracelens "$f.tracelens-gpu_timeline.csv" total_time)e3" 1e-6 &&
		near "$(jq -r ".busy_us + .idle_us" b.json)" "$(jq -r .span_us b.json)" 1e-9 &&
		json_q b.json ".steps.count == 1 and .steps.list[0].number == 6" &&
		json_q b.json "([.groups[].busy_us] | add) as \$s | ((\$s - .busy_us) | fabs) < 1e-6 * .busy_us"
	'
done

test_expect_success 'BERT on H100: GEMMs under aten::linear, the copy as memcpy' '
	tko profile --json b.json "$D/kineto-h100-bert.json.gz" >/dev/null &&
	json_q b.json ".groups[0].class == \"gemm\" and .groups[0].key == \"aten::linear\"" &&
	json_q b.json "[.groups[] | select(.class == \"memcpy\")] | length == 1" &&
	json_q b.json "[.groups[] | select(.class == \"attention\")][0].key == \"aten::scaled_dot_product_attention\""
'

test_expect_success 'nsys cuda_gpu_trace: the hand count (busy 17 of 20 us, overlap split evenly)' '
	tko profile --json n.json "$D/nsys-cuda_gpu_trace.csv" >/dev/null &&
	json_q n.json ".format == \"nsys_gpu_trace\" and .busy_us == 17 and .span_us == 20 and .idle_us == 3 and .idle_gaps == 2" &&
	json_q n.json ".device == \"NVIDIA H200\" and .streams == 2" &&
	json_q n.json "[.groups[] | {(.class): .busy_us}] | add == {\"gemm\": 8, \"triton\": 7, \"memcpy\": 2}"
'

test_expect_success 'nsys cuda_gpu_kern_sum: totals without a timeline, said so' '
	tko profile --json s.json "$D/nsys-cuda_gpu_kern_sum.csv" >/dev/null &&
	json_q s.json ".timeline == false and .busy_us == 4000 and .idle_us == null" &&
	json_q s.json ".groups[0].class == \"gemm\" and .groups[0].calls == 2 and .groups[0].share == 0.75" &&
	json_q s.json "[.groups[].class] == [\"gemm\", \"triton\", \"attention\"]" &&
	json_q s.json ".notes[0] | test(\"no timeline\")"
'

test_expect_success 'nsys SQLite export: kernels with names from StringIds, copies' '
	sqlite3 r.sqlite "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
		INSERT INTO StringIds VALUES (1, \"sm90_xmma_gemm_f32f32_f32f32_f32_tn_n_kernel\"), (2, \"gemm\"), (3, \"triton_poi_fused_add_0\");
		CREATE TABLE TARGET_INFO_GPU (id INTEGER, name TEXT);
		INSERT INTO TARGET_INFO_GPU VALUES (0, \"NVIDIA H200\");
		CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ INTEGER, shortName INTEGER, demangledName INTEGER);
		INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 11000, 0, 1, 7, 5, 132, 1, 1, 384, 1, 1, 2, 1), (12000, 15000, 0, 1, 7, 6, 64, 1, 1, 128, 1, 1, 3, 3);
		CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER, streamId INTEGER, correlationId INTEGER, bytes INTEGER, copyKind INTEGER);
		INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (16000, 17000, 0, 7, 7, 4096, 1);" &&
	tko profile --json q.json r.sqlite >/dev/null &&
	json_q q.json ".format == \"nsys_sqlite\" and .device == \"NVIDIA H200\" and .busy_us == 14 and .span_us == 16" &&
	json_q q.json "[.groups[] | {(.class): .busy_us}] | add == {\"gemm\": 10, \"triton\": 3, \"memcpy\": 1}" &&
	json_q q.json ".groups[0].key == \"sm90_xmma_gemm_f32f32_f32f32_f32_tn_n_kernel\""
'

test_expect_success 'rocprofv3 kernel_stats: the seven kernels, totals summed by hand' '
	tko profile --json r.json "$D/rocprofv3-jacobi_kernel_stats.csv" >/dev/null &&
	json_q r.json ".format == \"rocprof_kernel_stats\" and .activities == 7" &&
	json_q r.json ".busy_us == 1267306.899" &&
	json_q r.json "[.groups[] | select(.class == \"memcpy\" or .class == \"memset\") | .calls] == [1001, 1]"
'

test_expect_success 'rocprofv3 kernel_trace: ns timestamps, agent and queue' '
	tko profile --json t.json "$D/rocprofv3-jacobi_kernel_trace.csv" >/dev/null &&
	json_q t.json ".format == \"rocprofv3_kernel_trace\" and .activities == 4 and .streams == 2" &&
	near "$(jq -r .busy_us t.json)" 419.681 1e-6 &&
	near "$(jq -r .span_us t.json)" 184206.386 1e-6
'

test_expect_success 'rocprof v1 / DTK results.csv: .kd suffixes dropped, Tensile SB kernel as gemm' '
	tko profile --json v.json "$D/rocprof-v1-results.csv" >/dev/null &&
	json_q v.json ".format == \"rocprof_v1\" and .busy_us == 12 and .span_us == 13" &&
	json_q v.json "[.groups[] | {(.key): .class}] | add == {\"triton_poi_fused_add_0\": \"triton\", \"Cijk_Ailk_Bljk_SB_MT128x128x8_SN_1LDSB0_APM1_AF0EM1\": \"gemm\"}"
'

test_expect_success 'a rocprof counter table without timestamps: one line that says what to add' '
	test_must_fail tko profile "$D/rocprof-v1-counters.csv" 2>err &&
	test_one_line_error err &&
	test_grep "timestamp on" err
'

test_expect_success 'a trace cut in the middle: the events before the cut, flagged partial' '
	zcat "$D/kineto-h100-bert.json.gz" >full.json &&
	at=$(grep -b "\"cat\": \"kernel\"" full.json | sed -n "30s/:.*//p") &&
	head -c "$at" full.json >cut.json &&
	tko profile --json c.json cut.json >out 2>err &&
	json_q c.json ".partial == true and .activities > 0 and .activities < 61" &&
	json_q c.json ".notes[0] | test(\"ends early\")" &&
	test_grep "PARTIAL" out && test_grep "ends early" err
'

test_expect_success 'a gzip stream cut short: partial, not an error' '
	gzip -c cut.json >c.gz && size=$(wc -c <c.gz) &&
	gzip -c full.json | head -c "$size" >cut.json.gz &&
	tko profile --json g.json cut.json.gz >/dev/null 2>err &&
	json_q g.json ".partial == true and .activities > 0"
'

test_expect_success 'cut before any kernel: an error, one line' '
	at=$(grep -b "\"traceEvents\"" full.json | sed "s/:.*//") &&
	head -c $((at + 3000)) full.json >early.json &&
	test_must_fail tko profile early.json 2>err &&
	test_one_line_error err && test_grep "no GPU kernels" err
'

test_expect_success 'not a trace, empty, a JSON without traceEvents, a directory: one-line errors' '
	echo "hello" >text.txt && : >empty.json && echo "{\"a\": 1}" >other.json && mkdir dir &&
	for f in text.txt empty.json other.json dir missing.json; do
		test_must_fail tko profile $f 2>err && test_one_line_error err || return 1
	done &&
	test_must_fail tko profile other.json 2>err && test_grep "traceEvents" err
'

test_expect_success 'durations in nanoseconds where microseconds belong: refused' '
	printf "{\"traceEvents\": [\n" >ns.json &&
	for i in 1 2 3; do printf "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": %d000000000, \"dur\": 250000000, \"pid\": 0, \"tid\": 7},\n" $i >>ns.json; done &&
	printf "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 9000000000, \"dur\": 250000000, \"pid\": 0, \"tid\": 7}]}\n" >>ns.json &&
	test_must_fail tko profile ns.json 2>err && test_one_line_error err && test_grep "not in the unit" err
'

test_expect_success 'a clock jump is left out of idle time and noted' '
	printf "[{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"a\", \"ts\": 100, \"dur\": 10, \"pid\": 0, \"tid\": 7},\n {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"b\", \"ts\": 115, \"dur\": 5, \"pid\": 0, \"tid\": 7},\n {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"c\", \"ts\": 900000000000, \"dur\": 20, \"pid\": 0, \"tid\": 7}]\n" >jump.json &&
	tko profile --json j.json jump.json >/dev/null &&
	json_q j.json ".busy_us == 35 and .idle_us == 5 and .clock_jumps == 1" &&
	json_q j.json ".notes[0] | test(\"clock jump\")"
'

test_expect_success 'a malformed event is skipped and counted; escaped names are undone' '
	printf "[{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\\\\u00e9\\\\\"x\", \"ts\": 1, \"dur\": 2, \"pid\": 0, \"tid\": 7},\n {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"bad\", \"ts\": 1x, \"dur\": 2},\n {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k2\", \"ts\": 4, \"dur\": 1, \"pid\": 0, \"tid\": 7}]" >esc.json &&
	tko profile --json e.json esc.json >/dev/null &&
	json_q e.json ".skipped == 1 and .activities == 2" &&
	json_q e.json "[.groups[].key] | index(\"k\u00e9\\\"x\") != null"
'

test_expect_success 'usage: no file, two files, --help' '
	test_expect_code 2 tko profile &&
	test_expect_code 2 tko profile a b &&
	tko profile --help >help && test_grep "torch.profiler" help
'

test_expect_success 'H200 autocast step: bf16 and fp32 aten::mm are two groups, with the calls jq counts' '
	tko profile --json h200.json "$D/kineto-h200-autocast-train.json.gz" >h200.txt &&
	ops() {
		zcat "$D/kineto-h200-autocast-train.json.gz" |
			jq "[.traceEvents[] | select(.cat == \"cpu_op\" and .name == \"aten::mm\" and .args[\"Input type\"][0] == \"$1\")] | length"
	} &&
	f32=$(ops float) && b16=$(ops c10::BFloat16) && test "$f32" -gt 0 && test "$b16" -gt 0 &&
	json_q h200.json "[.groups[] | select(.key == \"aten::mm\" and .class == \"gemm\")] | length == 2" &&
	json_q h200.json "[.groups[] | select(.key == \"aten::mm\" and .class == \"gemm\" and .dtype == \"float\")][0].calls == $f32" &&
	json_q h200.json "[.groups[] | select(.key == \"aten::mm\" and .class == \"gemm\" and .dtype == \"c10::BFloat16\")][0].calls == $b16" &&
	grep -q "aten::mm (c10::BFloat16)" h200.txt && grep -q "aten::mm (float)" h200.txt
'

test_done
