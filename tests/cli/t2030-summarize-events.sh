#!/bin/sh
# tko summarize on capture events (docs/capture-events.md), hand-written:
# known and unknown event types, unknown fields, a line that is not JSON
# and a last line cut off mid-write; then the same kernels in a log.
# Test bodies are single-quoted and run by eval in lib.sh, as in git's t/:
# their $variables expand then, and variables set here are used there.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

write_events() {
	mkdir -p run/capture &&
	cat >run/capture/events.jsonl <<-\EOF
	{"schema_version": 1, "event": "session_start", "time": 1764689362.5, "pid": 9, "argv": ["python", "m.py"], "python": "3.10", "torch": "2.5.0", "triton": "3.1.0", "device": {"name": "K100_AI", "backend": "hip", "arch": "gfx936", "warp_size": 64, "multiprocessor_count": 120}, "hooks": ["run"]}
	{"schema_version": 1, "event": "kernel", "time": 1.0, "pid": 9, "kernel": "triton_poi_fused_mul_0", "source_hash": "c0ffee00", "kernel_dir": "capture/kernels/triton_poi_fused_mul_0-c0ffee00", "heuristic_type": "pointwise", "source_file": "/root/.cache/ab/cab.py", "size_hints": {"x": 65536}, "mutated_arg_names": [], "num_configs": 3}
	{"schema_version": 1, "event": "autotune", "time": 2.0, "pid": 9, "kernel": "triton_poi_fused_mul_0", "source_hash": "c0ffee00", "chosen_by": "benchmark", "configs": [{"kwargs": {"XBLOCK": 256}, "num_warps": 4, "num_stages": 1, "num_ctas": 1, "maxnreg": null, "time_ms": 0.0410, "n_regs": 24, "n_spills": 0, "shared_bytes": 0, "cache_hash": "H1"}, {"kwargs": {"XBLOCK": 512}, "num_warps": 8, "num_stages": 1, "num_ctas": 1, "maxnreg": null, "time_ms": 0.0385, "n_regs": 20, "n_spills": 0, "shared_bytes": 0, "cache_hash": "H2"}, {"kwargs": {"XBLOCK": 1024}, "num_warps": 8, "num_stages": 1, "num_ctas": 1, "maxnreg": null, "time_ms": 0.0402, "n_regs": 32, "n_spills": 4, "shared_bytes": 0, "cache_hash": "H3"}], "best_index": 1, "elapsed_ms": 210.0, "wavefront": 64}
	{"schema_version": 1, "event": "launch", "time": 3.0, "pid": 9, "kernel": "triton_poi_fused_mul_0", "source_hash": "c0ffee00", "grid": [128, 1, 1], "config_index": 1, "args": [{"name": "in_ptr0", "kind": "tensor", "shape": [65536], "stride": [1], "storage_offset": 0, "dtype": "float16", "device": "cuda:0", "storage": 0, "storage_bytes": 131072}]}
	{"schema_version": 1, "event": "kernel", "time": 4.0, "pid": 9, "kernel": "triton_red_fused_sum_1", "source_hash": "beef0001", "heuristic_type": "reduction", "num_configs": 1}
	{"schema_version": 1, "event": "autotune", "time": 4.5, "pid": 9, "kernel": "triton_red_fused_sum_1", "source_hash": "beef0001", "chosen_by": "single_config", "configs": [{"kwargs": {"XBLOCK": 1, "R0_BLOCK": 2048}, "num_warps": 16, "num_stages": 1, "num_ctas": 1, "maxnreg": null, "time_ms": null, "n_regs": null, "n_spills": null, "shared_bytes": null, "cache_hash": null}], "best_index": 0, "elapsed_ms": null}
	{"schema_version": 1, "event": "power_sample", "time": 5.0, "pid": 9, "watts": 300}
	{"schema_version": 1, "event": "error", "time": 6.0, "pid": 9, "stage": "write", "error_type": "OSError", "message": "No space left on device"}
	not json at all
	{"schema_version": 1, "event": "session_end", "time": 7.0, "pid": 9, "launch_counts": {"triton_poi_fused_mul_0": 1200, "triton_red_fused_sum_1": 600}, "exit_status": 0}
	EOF
	printf '{"schema_version": 1, "event": "launch", "time": 8.0, "pid": 9, "kernel": "triton_red_f' >>run/capture/events.jsonl
}

test_expect_success 'a RUN with only capture events is summarised' '
	write_events &&
	tko summarize run --json out.json >table.txt &&
	test_grep "^triton_poi_fused_mul_0 +pointwise +3 +3 +XBLOCK=512 w8 s1 +0.038500 +20 +0 +0 +benchmark +1200$" table.txt
'

test_expect_success 'lines: every complete event used, the unknown one and the bad one counted, the cut one noted' '
	json_q out.json ".inputs[0].format == \"capture_events\" and .inputs[0].lines == 11" &&
	json_q out.json ".inputs[0].used == 8 and .inputs[0].ignored == 1 and .inputs[0].unknown_events == 1" &&
	json_q out.json ".inputs[0].malformed == 1 and .inputs[0].malformed_lines == [9]" &&
	json_q out.json ".inputs[0].truncated == true and .inputs[0].unknown_fields == 1" &&
	test_grep "malformed at line 9; last line cut off; 1 unknown event, 1 unknown field" table.txt
'

test_expect_success 'each fact of the events, with its line' '
	json_q out.json ".device.arch == \"gfx936\" and .device.warp_size == 64 and .device.from.line == 1" &&
	json_q out.json ".kernels[0] | .kind == \"pointwise\" and .source_hash == \"c0ffee00\"
		and .kernel_dir == \"capture/kernels/triton_poi_fused_mul_0-c0ffee00\"
		and .source_file == \"/root/.cache/ab/cab.py\" and .launch_signatures == 1
		and .launches == 1200 and .from.launches.line == 10 and .from.kind.line == 2" &&
	json_q out.json ".kernels[0].tunings[0] | .method == \"benchmark\" and .elapsed_ms == 210
		and .best_index == 1 and (.configs | map(.n_spills)) == [0, 0, 4]
		and .configs[1].cache_hash == \"H2\" and .from.tuning.line == 3" &&
	json_q out.json ".kernels[1] | .chosen_by == \"single_config\" and .best.kwargs.R0_BLOCK == 2048
		and .best.time_ms == null and .launches == 600" &&
	json_q out.json ".errors[0].text == \"write: OSError: No space left on device\" and .errors[0].from.line == 8"
'

test_expect_success 'a log of the same run adds its facts to the same kernels' '
	cat >run/model.log <<-\EOF &&
	V1202 15:29:35.480000 9 torch/_inductor/runtime/triton_heuristics.py:373] [0/0] CachingAutotuner gets 3 configs for triton_poi_fused_mul_0
	Benchmark all input configs for triton_poi_fused_mul_0, get:
	XBLOCK: 256, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None: 0.041000, nreg 24, nspill 0, #shared-mem 0
	Best config for triton_poi_fused_mul_0: XBLOCK: 256, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None: 0.041000, nreg 24, nspill 0, #shared-mem 0
	EOF
	tko summarize run --json both.json >/dev/null &&
	json_q both.json ".kernels | length == 2" &&
	json_q both.json ".kernels[0] | .num_configs == 3 and .from.num_configs.format == \"capture_events\"
		and .compile_id == \"0/0\" and (.tunings | map(.from.tuning.format)) == [\"capture_events\", \"inductor_log\"]
		and .chosen_by == \"benchmark\" and .best.from.format == \"inductor_log\""
'

test_expect_success 'an events file named on its own is read as events' '
	tko summarize run/capture/events.jsonl --json one.json >/dev/null &&
	json_q one.json ".inputs | length == 1" &&
	json_q one.json ".inputs[0].format == \"capture_events\""
'

# Every field tko capture writes is in docs/capture-events.md (its types and
# "Fields tko capture adds"), so the example RUN's real events have none unknown.
test_expect_success 'tko capture'"'"'s own events (examples/h200-run): no unknown field' '
	tko summarize "$SRC_ROOT/examples/h200-run/capture/events.jsonl" --json ex.json >ex.txt &&
	json_q ex.json ".inputs[0].unknown_fields == 0 and .inputs[0].unknown_events == 0" &&
	! grep -q "unknown fields" ex.txt
'

# torch 2.11's Inductor writes heuristic_type as HeuristicType's number and
# heuristic as its name; the kinds expected are the decorators' in torch
# 2.11's runtime/triton_heuristics.py (template() and foreach() pass
# TEMPLATE, cooperative_reduction() REDUCTION) and the names' categories.
test_expect_success 'a kernel whose heuristic_type is a number: the kind from HeuristicType'"'"'s name' '
	mkdir -p num/capture &&
	cat >num/capture/events.jsonl <<-\EOF &&
	{"schema_version": 1, "event": "kernel", "kernel": "triton_mm", "source_hash": "aa", "kind": "inductor", "heuristic_type": 5, "heuristic": "template"}
	{"schema_version": 1, "event": "kernel", "kernel": "triton_for_fused_0", "source_hash": "bb", "kind": "inductor", "heuristic_type": 5, "heuristic": "template"}
	{"schema_version": 1, "event": "kernel", "kernel": "triton_unk_fused_sum_1", "source_hash": "cc", "kind": "inductor", "heuristic_type": 3, "heuristic": "reduction"}
	{"schema_version": 1, "event": "kernel", "kernel": "triton_poi_fused_add_2", "source_hash": "dd", "kind": "inductor", "heuristic_type": 2, "heuristic": "pointwise"}
	{"schema_version": 1, "event": "kernel", "kernel": "triton_bmm", "source_hash": "ee", "kind": "inductor", "heuristic_type": 5}
	EOF
	tko summarize num --json num.json >/dev/null &&
	json_q num.json "[.kernels[] | {(.name): .kind}] | add == {\"triton_mm\": \"template\",
		\"triton_for_fused_0\": \"foreach\", \"triton_unk_fused_sum_1\": \"cooperative_reduction\",
		\"triton_poi_fused_add_2\": \"pointwise\", \"triton_bmm\": null}" &&
	json_q num.json ".kernels[0].from.kind | .line == 1 and .format == \"capture_events\"" &&
	json_q num.json ".kernels[3].from.kind.format == \"kernel_name\""
'

# The 19 triton_mm kernels of examples/h200-run: each kernel.py is decorated
# @triton_heuristics.template, and each is a template in tko summarize.
test_expect_success 'examples/h200-run: every triton_mm a template, as its kernel.py'"'"'s decorator says' '
	cat "$SRC_ROOT"/examples/h200-run/capture/kernels/triton_mm-*/kernel.py |
		grep -c "^@triton_heuristics\.template(" >want &&
	json_q ex.json "[.kernels[] | select(.name == \"triton_mm\" and .kind == \"template\")] | length" >got &&
	test_cmp want got &&
	json_q ex.json "[.kernels[] | select(.kind == null)] | length == 0"
'

test_done
