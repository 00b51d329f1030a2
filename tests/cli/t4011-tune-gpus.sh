#!/bin/sh
# tko tune --gpus on the CPU, with the fake GPU worker of tests/cli/tune-fake
# reporting the device its environment pins (CUDA_VISIBLE_DEVICES or
# HIP_VISIBLE_DEVICES): a run's kernels are spread over the GPUs, longest
# first, one worker per GPU kept from one kernel to the next; the merged
# tune.json, Markdown and tables are those of a one-GPU run; a tko tune
# killed under its kernel loses only that kernel, which is retried once on
# another GPU.
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-tune.sh"
. "$TESTS_DIR/lib-cluster.sh"

use_fake_gpu
TKO_FAKE_DEVLOG="$TRASH/dev.log"
TKO_FAKE_KILL="$TRASH/kill"
export TKO_FAKE_DEVLOG TKO_FAKE_KILL
unset HIP_VISIBLE_DEVICES ROCR_VISIBLE_DEVICES

# devices_of KERNEL_SUFFIX: the devices its benches ran on, sorted, one a line.
devices_of() {
	sed -n "s/^[a-z0-9_]*-$1 \([^ ]*\) .*/\1/p" dev.log | sort -u
}

# pids_of KERNEL_SUFFIX: how many worker processes benched it.
pids_of() {
	sed -n "s/^[a-z0-9_]*-$1 [^ ]* \([0-9]*\)$/\1/p" dev.log | sort -u | wc -l
}

fresh() {
	rm -rf run/capture/kernels/*/tune dev.log
}

test_expect_success 'setup: a RUN of five kernels, tuned on one GPU' '
	make_run run d6 6w sb sk sd &&
	CUDA_VISIBLE_DEVICES=3 tko tune --max-variants 4 --json one.json --md one.md \
		run/capture/kernels/* >one.out &&
	test "$(devices_of "[a-z0-9]*")" = 3 &&
	test "$(json_q one.json ".kernels | length")" = 5 &&
	fresh
'

# tune/cost.c predicts sd > sk > sb > 6w > d6 (capture time_ms 0.5 ... 0.1 ms):
# the three GPUs start on the three longest, in GPU order.
test_expect_success 'every visible GPU by default: the longest kernels start first, one worker per GPU' '
	CUDA_VISIBLE_DEVICES=4,5,6 tko tune --max-variants 4 --json three.json --md three.md \
		run/capture/kernels/* >three.out &&
	test "$(devices_of sd)" = 4 &&
	test "$(devices_of sk)" = 5 &&
	test "$(devices_of sb)" = 6 &&
	cut -d" " -f2 dev.log | sort -u >used &&
	printf "4\n5\n6\n" >expect &&
	test_cmp expect used &&
	for k in d6 6w sb sk sd; do
		test "$(devices_of $k | wc -l)" = 1 && test "$(pids_of $k)" = 1 || return 1
	done &&
	for d in 4 5 6; do
		test "$(sed -n "s/^[^ ]* $d \([0-9]*\)$/\1/p" dev.log | sort -u | wc -l)" = 1 || return 1
	done
'

test_expect_success 'the merge is the one-GPU run: tune.json, Markdown, tables' '
	same_tune one.json three.json &&
	test_cmp one.md three.md &&
	test_cmp one.out three.out
'

test_expect_success '--gpus 0,2 takes the first and third visible GPU' '
	fresh &&
	CUDA_VISIBLE_DEVICES=4,5,6 tko tune --gpus 0,2 --max-variants 4 --json two.json \
		run/capture/kernels/* >/dev/null &&
	cut -d" " -f2 dev.log | sort -u >used &&
	printf "4\n6\n" >expect &&
	test_cmp expect used &&
	same_tune one.json two.json
'

test_expect_success 'HIP_VISIBLE_DEVICES pins the workers when it is the one set' '
	fresh &&
	(unset CUDA_VISIBLE_DEVICES; HIP_VISIBLE_DEVICES=1,2 tko tune --max-variants 4 \
		--json hip.json run/capture/kernels/* >/dev/null) &&
	cut -d" " -f2 dev.log | sort -u >used &&
	printf "hip:1\nhip:2\n" >expect &&
	test_cmp expect used &&
	same_tune one.json hip.json
'

test_expect_success 'one GPU given: one tko tune, its workers pinned to that GPU' '
	fresh &&
	CUDA_VISIBLE_DEVICES=4,5,6 tko tune --gpus 1 --max-variants 4 --json single.json \
		run/capture/kernels/* >/dev/null &&
	test "$(cut -d" " -f2 dev.log | sort -u)" = 5 &&
	test "$(cut -d" " -f3 dev.log | sort -u | wc -l)" = 1 &&
	same_tune one.json single.json
'

test_expect_success 'a tko tune killed under its kernel: that kernel is retried on another GPU' '
	fresh &&
	echo sd >kill &&
	CUDA_VISIBLE_DEVICES=4,5,6 tko tune --max-variants 4 --json killed.json \
		run/capture/kernels/* >/dev/null 2>err &&
	test ! -e kill &&
	test_grep "sd. on GPU 4 died .status 137.: trying it once more on another GPU" err &&
	test "$(sed -n "s/^[a-z0-9_]*-sd \([0-9]\) .*/\1/p" dev.log | head -n 1)" = 4 &&
	test "$(pids_of sd)" = 2 &&
	test "$(devices_of sd | wc -l)" = 2 &&
	same_tune one.json killed.json
'

test_expect_success 'killed twice: only that kernel is lost (exit 5), the others merged' '
	fresh &&
	echo "sk always" >kill &&
	(CUDA_VISIBLE_DEVICES=4,5,6 && export CUDA_VISIBLE_DEVICES &&
		test_expect_code 5 tko tune --max-variants 4 --json lost.json \
			run/capture/kernels/* >/dev/null 2>err) &&
	test_grep "sk. died .status 137. on GPU [0-9], its second try" err &&
	test "$(pids_of sk)" = 2 &&
	jq "del(.kernels[0])" one.json >one-but-sk.json &&
	test "$(json_q lost.json "[.kernels[].kernel] | index(\"triton_poi_fused_add_gelu_mul_view_1\")")" = null &&
	same_tune one-but-sk.json lost.json
'

test_expect_success 'a GPU that is not visible is a usage error' '
	(CUDA_VISIBLE_DEVICES=4,5 && export CUDA_VISIBLE_DEVICES &&
		test_expect_code 2 tko tune --gpus 0,2 run/capture/kernels/* 2>err) &&
	test_one_line_error err &&
	test_grep "tko tune: --gpus .0,2.: GPU 2 is not visible .2 visible." err
'

test_done
