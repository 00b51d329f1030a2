#!/bin/sh
# Every kernel kind gets a plan that runs, or a refusal that says why
# (src/tune/kindplan.h). A foreach kernel (tests/data/tune/foreach.py: its
# block fixed in the body, XBLOCK: tl.constexpr = 1024) has no block size
# to tune, so every num_warps value is timed. Expected count, by hand:
# num_warps runs over the powers of two up to 1024 threads / 32 per warp
# on sm_90 = 1, 2, 4, 8, 16, 32 (the base's 8 among them): 6 variants, and
# num_stages stays 1. A kernel whose heuristic tko does not know is not
# tuned, and tune.json says why.
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-tune.sh"

use_fake_gpu
FOREACH="$TESTS_DIR/../data/tune/foreach.py"
POI="$TESTS_DIR/../corpus/h200-run1/cache/inductor/sd/csdvrfujlppaik6bsrjwjsfouquczh47rzawhmr6c3vvw7bdom7q.py"
export FOREACH POI

# capture DIR KERNEL.py CONFIG GRID: a kernel directory with one autotuned config
capture() {
	mkdir -p "$1/inputs" &&
	cp "$2" "$1/kernel.py" &&
	name=$(sed -n "s/^def \(triton_[a-z0-9_]*\)(.*/\1/p" "$2") &&
	printf "%s\n" "{\"schema_version\": 1, \"kernel\": \"$name\", \"args\": []," \
		"\"storages\": [], \"mutated_arg_names\": [], \"best_index\": 0, \"grid\": $4," \
		"\"configs\": [$3]}" >"$1/capture.json"
}

test_expect_success 'setup: a foreach kernel directory, 1280 programs of 1024' '
	capture fe "$FOREACH" "{\"kwargs\": {}, \"num_warps\": 8, \"num_stages\": 1}" "[1280, 1, 1]"
'

test_expect_success 'foreach: every num_warps value is timed, the fastest wins' '
	TKO_FAKE_WARPS="{\"1\": 3.0, \"2\": 2.5, \"4\": 2.1, \"8\": 2.0, \"16\": 1.5, \"32\": 1.8}" &&
	export TKO_FAKE_WARPS &&
	tko tune --no-source --out out --json fe.json fe >fe.out &&
	k=".kernels[0]" &&
	test "$(json_q fe.json "$k.kind")" = foreach &&
	test "$(json_q fe.json "$k.plan")" = search &&
	test "$(json_q fe.json "[$k.variants[].config.num_warps] | sort | map(tostring) | join(\",\")")" = \
		1,2,4,8,16,32 &&
	test "$(json_q fe.json "[$k.variants[].status] | unique | join(\",\")")" = ok &&
	test "$(json_q fe.json "[$k.variants[1:][].origin] | unique | join(\",\")")" = ladder &&
	test "$(json_q fe.json "[$k.variants[].config.num_stages] | unique | join(\",\")")" = 1 &&
	test "$(json_q fe.json "$k.space[] | select(.name == \"num_warps\") | .tuned")" = true &&
	test "$(json_q fe.json "$k.stopped")" = null &&
	test "$(json_q fe.json "$k.winner.label")" = num_warps=16 &&
	test "$(json_q fe.json "$k.plan_note | test(\"no block size to tune\")")" = true &&
	test_grep "^plan: a foreach kernel fixes XBLOCK in its body" fe.out &&
	grep "grid=1280,1,1" fake.log >grids && test_line_count = 6 grids
'

test_expect_success 'foreach compiled for sm_90: every variant compiles, warps as asked' '
	PYTHONPATH="$TESTS_DIR/../data/tune/torch_helpers${PYTHONPATH:+:$PYTHONPATH}" &&
	TKO_PYTHON_DIR="$SRC_ROOT/python" &&
	export PYTHONPATH TKO_PYTHON_DIR &&
	tko tune --compile-only --target sm_90 --no-source --out cc --json cc.json "$FOREACH" >cc.out &&
	test "$(json_q cc.json "[.kernels[0].variants[].status] | unique | join(\",\")")" = compiled &&
	test "$(json_q cc.json ".kernels[0].variants | length")" = 6 &&
	for v in $(json_q cc.json ".kernels[0].variants[] | .files.json"); do
		json_q "$v" .num_warps; done | sort -n | tr "\n" , >warps &&
	test "$(cat warps)" = "1,2,4,8,16,32,"
'

test_expect_success 'a heuristic tko does not know: refused, with the reason' '
	mkdir -p un &&
	sed "s/@triton_heuristics.pointwise(/@triton_heuristics.newfangled(/" "$POI" >un.py &&
	capture un un.py "{\"kwargs\": {\"XBLOCK\": 1024}, \"num_warps\": 4, \"num_stages\": 1}" "[1, 1, 1]" &&
	wc -l <fake.log >before &&
	tko tune --out uo --json un.json un >un.out &&
	wc -l <fake.log >after && test_cmp before after &&
	test "$(json_q un.json ".kernels[0].plan")" = refused &&
	test "$(json_q un.json ".kernels[0].plan_note |
		test(\"does not know Inductor.s .newfangled. heuristic\")")" = true &&
	test "$(json_q un.json ".kernels[0].kind")" = other &&
	test "$(json_q un.json ".kernels[0].variants | length")" = 0 &&
	test "$(json_q un.json ".kernels[0].winner")" = null &&
	test "$(json_q un.json ".kernels[0].base_from")" = null &&
	test_grep "^triton_poi_fused_add_mul_sigmoid_sub_0 \(other\) on sm_90: not tuned: tko does not know" un.out &&
	test_line_count = 2 un.out
'

test_done
