#!/bin/sh
# tko tune: usage errors and bad input, each a one-line error with the
# documented exit code. Most cases fail before any Python starts.
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"

TKO_PYTHON="$SRC_ROOT/.venv/bin/python"
export TKO_PYTHON
POI="$CORPUS/h200-run1/cache/inductor/sd/csdvrfujlppaik6bsrjwjsfouquczh47rzawhmr6c3vvw7bdom7q.py"
export POI

test_expect_success 'tko tune --help lists its options' '
	tko tune --help >out &&
	test_grep "^usage: tko tune" out &&
	test_grep "[-]-compile-only" out &&
	test_grep "[-]-budget" out &&
	test_grep "triton-das" out
'

test_expect_success 'no kernel is a usage error' '
	test_expect_code 2 tko tune --compile-only --target gfx942 2>err &&
	test_one_line_error err
'

test_expect_success 'an unknown target is a usage error listing the known ones' '
	test_expect_code 2 tko tune --compile-only --target gfx999 "$POI" 2>err &&
	test_one_line_error err &&
	test_grep "unknown target .gfx999. \(known: gfx90a, gfx942" err
'

test_expect_success 'Hygon targets need DTK and triton-das (exit 3)' '
	for arch in gfx936 gfx938 gfx928; do
		test_expect_code 3 tko tune --compile-only --target $arch "$POI" 2>err &&
		test_one_line_error err &&
		test_grep "cannot compile for Hygon .$arch..*DTK and triton-das" err || return 1
	done
'

test_expect_success 'bad numbers are usage errors' '
	test_expect_code 2 tko tune --compile-only --target gfx942 --max-variants 0 "$POI" 2>err &&
	test_one_line_error err &&
	test_expect_code 2 tko tune --budget abc "$POI" 2>err
'

test_expect_success 'a bad kernel among several leaves the others tuned' '
	test_expect_code 1 tko tune --compile-only --target gfx942 --no-search --max-variants 1 \
		--json two.json --md two.md nope.py "$POI" >out 2>err &&
	test_grep "nope.py" err &&
	test "$(json_q two.json ".kernels | length")" = 1 &&
	test "$(json_q two.json ".kernels[0].source")" = "$POI" &&
	test "$(grep -c "^## triton_" two.md)" -eq 1
'

test_expect_success 'a missing file names the file' '
	test_expect_code 1 tko tune --compile-only --target gfx942 nope.py 2>err &&
	test_one_line_error err &&
	test_grep "nope.py" err
'

test_expect_success 'empty, binary and non-UTF-8 kernels are refused' '
	: >empty.py &&
	printf "import triton\000\001" >bin.py &&
	printf "def k():\n    x = \"\377\"\n" >latin.py &&
	test_expect_code 1 tko tune --compile-only --target gfx942 empty.py 2>err &&
	test_one_line_error err && test_grep "empty.py. is empty" err &&
	test_expect_code 1 tko tune --compile-only --target gfx942 bin.py 2>err &&
	test_one_line_error err && test_grep "binary" err &&
	test_expect_code 1 tko tune --compile-only --target gfx942 latin.py 2>err &&
	test_one_line_error err && test_grep "not UTF-8" err
'

test_expect_success 'a directory without kernel.py is refused' '
	mkdir kdir &&
	test_expect_code 1 tko tune --compile-only --target gfx942 kdir 2>err &&
	test_one_line_error err &&
	test_grep "kdir/kernel.py" err
'

test_expect_success 'a file with no @triton.jit kernel is refused' '
	printf "def f(x):\n    return x\n" >plain.py &&
	test_expect_code 4 tko tune --compile-only --target gfx942 plain.py 2>err &&
	test_one_line_error err &&
	test_grep "has no @triton.jit kernel" err
'

test_expect_success 'Python that is not valid is refused' '
	printf "@triton.jit\ndef k(:\n" >broken.py &&
	test_expect_code 1 tko tune --compile-only --target gfx942 broken.py 2>err &&
	test_one_line_error err &&
	test_grep "cannot read .broken.py.: SyntaxError" err
'

test_expect_success 'two kernels need --kernel (exit 4), naming both' '
	test_expect_code 4 tko tune --compile-only --target gfx942 \
		"$CORPUS/scripts/amd_compile.py" 2>err &&
	test_one_line_error err &&
	test_grep "add_scale, add_scale_hint" err &&
	test_expect_code 4 tko tune --compile-only --target gfx942 --kernel nope \
		"$CORPUS/scripts/amd_compile.py" 2>err &&
	test_one_line_error err
'

test_expect_success 'a hand-written kernel needs its types and constexprs' '
	test_expect_code 1 tko tune --compile-only --target gfx942 --kernel add_scale \
		"$CORPUS/scripts/amd_compile.py" 2>err &&
	test_one_line_error err &&
	test_grep "argument .x_ptr. of .add_scale. has no type" err &&
	test_expect_code 1 tko tune --compile-only --target gfx942 --kernel add_scale \
		--signature "x_ptr=*fp32,y_ptr=*fp32,o_ptr=*fp32,n=i32,scale=fp32" \
		"$CORPUS/scripts/amd_compile.py" 2>err &&
	test_one_line_error err &&
	test_grep "constexpr .BLOCK. of .add_scale. has no value" err &&
	test_expect_code 1 tko tune --compile-only --target gfx942 --kernel add_scale \
		--signature "x_ptr=*fp32,nosuch=i32" "$CORPUS/scripts/amd_compile.py" 2>err &&
	test_one_line_error err &&
	test_grep "bad --signature entry .nosuch=i32." err
'

test_expect_success 'a config naming an unknown parameter is refused' '
	test_expect_code 1 tko tune --compile-only --target gfx942 --config RBLOCK=4 "$POI" 2>err &&
	test_one_line_error err &&
	test_grep ".RBLOCK. is not a parameter" err
'

test_expect_success 'no Python is a missing tool (exit 3)' '
	TKO_PYTHON=/nonexistent/python3 &&
	export TKO_PYTHON &&
	test_expect_code 3 tko tune --compile-only --target gfx942 "$POI" 2>err &&
	test_one_line_error err &&
	test_grep "cannot run ./nonexistent/python3." err
'

test_expect_success 'timing a bare kernel file says to use --compile-only' '
	test_expect_code 1 tko tune "$POI" 2>err &&
	test_one_line_error err &&
	test_grep "compile-only" err
'

test_done
