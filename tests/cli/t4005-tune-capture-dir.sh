#!/bin/sh
# A captured hand-written kernel (KERNEL_DIR with kernel.py and
# capture.json): argument types, Triton's divisibility specialisation and
# the constexpr values come from the captured arguments, the base config
# from the captured autotuning; --compile-only needs no inputs.
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"

TKO_PYTHON="$SRC_ROOT/.venv/bin/python"
export TKO_PYTHON

# count PATTERN FILE: lines matching, 0 when none
count() {
	grep -c -E -e "$1" "$2" || :
}

test_expect_success 'setup: the corpus add_scale kernel, captured' '
	mkdir kdir &&
	sed -n "/^@triton.jit/,/^$/p" "$CORPUS/scripts/amd_compile.py" >body &&
	{ echo "import triton"; echo "import triton.language as tl"; echo; cat body; } >kdir/kernel.py &&
	t="\"kind\": \"tensor\", \"dtype\": \"float32\", \"element_size\": 4, \"storage_offset\": 0" &&
	printf "%s\n" "{\"schema_version\": 1, \"kernel\": \"add_scale\", \"args\": [" \
		"{\"name\": \"x_ptr\", $t, \"shape\": [4096], \"stride\": [1], \"storage\": 0}," \
		"{\"name\": \"y_ptr\", $t, \"shape\": [4096], \"stride\": [1], \"storage\": 1}," \
		"{\"name\": \"o_ptr\", $t, \"shape\": [4096], \"stride\": [1], \"storage\": 2}," \
		"{\"name\": \"n\", \"kind\": \"scalar\", \"type\": \"int\", \"value\": 4096}," \
		"{\"name\": \"scale\", \"kind\": \"scalar\", \"type\": \"float\", \"value\": 0.5}," \
		"{\"name\": \"BLOCK\", \"kind\": \"scalar\", \"type\": \"int\", \"value\": 1024}]," \
		"\"storages\": [], \"grid\": [4, 1, 1], \"best_index\": 0," \
		"\"configs\": [{\"kwargs\": {\"BLOCK\": 1024}, \"num_warps\": 4, \"num_stages\": 1, \"time_ms\": 0.01}]}" \
		>kdir/capture.json
'

test_expect_success 'types and the base come from capture.json' '
	tko tune --compile-only --target gfx942 --no-search --max-variants 4 --json t.json kdir >table &&
	test "$(json_q t.json ".kernels[0].kind")" = user &&
	test "$(json_q t.json ".kernels[0].out_dir")" = kdir/tune &&
	test "$(json_q t.json ".kernels[0].variants[0].origin")" = autotune &&
	test "$(json_q t.json ".kernels[0].variants[0].config.kwargs.BLOCK")" = 1024 &&
	test "$(json_q t.json "[.kernels[0].variants[].status] | unique | join(\",\")")" = compiled
'

test_expect_success 'n = 4096 is specialised as divisible by 16: 16-byte loads, then buffer ops' '
	base=$(json_q t.json ".kernels[0].variants[0].files.amdgcn") &&
	ptr=$(json_q t.json ".kernels[0].variants[] | select(.label == \"+ptr32\") | .files.amdgcn") &&
	test "$(count "^\s+global_load_dwordx4" "$base")" -eq 2 &&
	test "$(count "^\s+buffer_load_dwordx4" "$ptr")" -eq 2 &&
	test "$(count "^\s+global_load" "$ptr")" -eq 0
'

# model/capture.h: a field of the wrong type is one line naming the file
# and the field (written here by hand), before anything is compiled.
test_expect_success 'a capture.json shape that is not integers: one line, nothing written' '
	mkdir bad && cp kdir/kernel.py bad/ &&
	sed "s/\"shape\": \[4096\], \"stride\": \[1\], \"storage\": 1/\"shape\": [4096, \"x\"], \"stride\": [1], \"storage\": 1/" \
		kdir/capture.json >bad/capture.json &&
	test_expect_code 1 tko tune --compile-only --target gfx942 bad 2>err &&
	test_one_line_error err &&
	test_grep "'"'"'bad/capture.json'"'"': args\[1\].shape: not a list of integers" err &&
	test ! -e bad/tune
'

test_done
