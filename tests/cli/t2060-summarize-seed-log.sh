#!/bin/sh
# tko summarize and tko investigate on the seed skill's own autotune.log
# (tests/data/seed-log/autotune.log, written in the v2+ capture patch's
# line shapes; README.md there says where each value came from), alone and
# beside the TORCH_LOGS=+inductor lines of the same graph. Expected values
# are read off the two files by hand (the comments say which line).
# Test bodies are single-quoted and run by eval in lib.sh, as in git's t/:
# their $variables expand then, and variables set here are used there.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

DATA=$TESTS_DIR/../data/seed-log
K=triton_poi_fused_index_add_zeros_1

test_expect_success 'the log alone: arguments, estimates and saved paths per kernel' '
	tko summarize "$DATA/autotune.log" --json out.json >table.txt &&
	json_q out.json ".kernels | map(.id) == [\"triton_poi_fused_zeros_0\", \"$K\", \"triton_#1\", \"triton_#2\"]" &&
	json_q out.json ".kernels[1].launch.args | map(.name) == [\"in_ptr0\", \"in_ptr1\", \"out_ptr0\", \"ynumel\", \"xnumel\"]" &&
	json_q out.json ".kernels[1].launch.args[1] | .shape == [100000, 256] and .stride == [256, 1] and .dtype == \"torch.float32\" and .value == null" &&
	json_q out.json ".kernels[1].launch.args[3] | .shape == null and .value == \"100000\"" &&
	json_q out.json ".kernels[1].launch | .total_bytes == 113440000 and .best_ms == 0.1302 and .footprint_gbps == 871.44 and .peak_gbps == 4800 and .peak_percent == 18.2" &&
	json_q out.json ".kernels[1].launch.inputs_saved | endswith(\"_b3f29a10/${K}_inputs.pt\")" &&
	json_q out.json ".kernels[1].launch.run_standalone | startswith(\"python \") and endswith(\"/$K.py\")" &&
	json_q out.json ".kernels[1].launch.from.args.line == 25 and .kernels[1].launch.from.estimates.line == 45"
'

test_expect_success 'two triton_ kernels with other arguments and config counts stay apart' '
	json_q out.json ".kernels[2] | .num_configs == 2 and .configs_timed == 2 and (.launch.args[0].shape == [4096, 1024])" &&
	json_q out.json ".kernels[3] | .num_configs == 1 and .configs_timed == 0 and (.launch.args[0].shape == [64])" &&
	json_q out.json ".kernels[3].source_file | endswith(\"triton__e61b09f3c4_2a9d5f60/triton_.py\")" &&
	json_q out.json ".kernels[3].launch.inputs_saved | endswith(\"triton__e61b09f3c4_2a9d5f60/triton__inputs.pt\")"
'

test_expect_success '--kernel shows the arguments and the estimates' '
	tko summarize "$DATA/autotune.log" --kernel $K >detail.txt &&
	test_grep "^in_ptr1 +\[100000, 256\] +torch.float32 +\[256, 1\] +-$" detail.txt &&
	test_grep "^ynumel +- +- +- +100000$" detail.txt &&
	test_grep "footprint rate 871.44 GB/s" detail.txt &&
	test_grep "ratio \(not HBM utilization\) 18.2%" detail.txt
'

# graph 2 of corpus/h200-run1 benchmarked index_add_zeros_1 over 6 configs
# (inductor-graph2.log lines 39-46); the seed log timed the same 6.
test_expect_success 'beside the Inductor log one benchmark is counted once, with its registers' '
	mkdir -p run/log run/capture &&
	cp "$DATA/inductor-graph2.log" run/log/model.log &&
	cp "$DATA/autotune.log" run/capture/autotune.log &&
	tko summarize run --json both.json >both.txt &&
	json_q both.json ".kernels[] | select(.id == \"$K\") | .configs_timed == 6 and (.tunings | length) == 1" &&
	json_q both.json ".kernels[] | select(.id == \"$K\") | .best | .kwargs == {XBLOCK: 32, YBLOCK: 32} and .n_regs == 30 and .n_spills == 0 and .shared_bytes == 0 and .time_ms == 0.130176" &&
	json_q both.json ".kernels[] | select(.id == \"$K\") | .tunings[0].from | .tuning.format == \"inductor_log\" and .twin.format == \"seed_log\" and .elapsed_ms.line == 34" &&
	json_q both.json ".kernels[] | select(.id == \"triton_poi_fused_zeros_0\") | .configs_timed == 2 and .best.n_regs == 6" &&
	json_q both.json ".totals.configs_timed == 10" &&
	test_grep "^$K +pointwise +6 +6 +XBLOCK=32 YBLOCK=32 w4 s1 +0.130176 +30 +0 +0 +benchmark" both.txt
'

test_expect_success 'tko investigate on a RUN holding only that log has the shapes' '
	mkdir -p only/capture &&
	cp "$DATA/autotune.log" only/capture/autotune.log &&
	tko investigate only >inv.txt 2>inv.err &&
	json_q only/analysis/kernels.json ".kernels[] | select(.name == \"$K\") | .args[] | select(.name == \"in_ptr1\") | .shape == \"[100000,256]\" and .dtype == \"float32\" and .stride == \"[256,1]\"" &&
	json_q only/analysis/kernels.json ".kernels[] | select(.name == \"$K\") | .bytes_basis == \"seed_log\" and .seed_bytes == 113440000" &&
	test_grep "in_ptr1 \| - \| float32\[100000,256\] stride \[256,1\]" only/report/report.md &&
	test_grep -v "shapes, dtypes and strides are unknown" only/report/report.md
'

test_done
