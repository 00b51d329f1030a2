#!/bin/sh
# A variant that fails to compile is recorded with its error and skipped,
# never fatal: a kernel that static_asserts BLOCK <= 1024 fails exactly for
# the variants with a larger BLOCK, and the sweep carries on.
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"

TKO_PYTHON="$SRC_ROOT/.venv/bin/python"
export TKO_PYTHON

# (printf, not a here-document: dash forks for those, and the fork runs
# the EXIT trap that removes the scratch directory)
test_expect_success 'setup: a kernel that refuses large blocks' '
	printf "%s\n" "import triton" "import triton.language as tl" "" "" \
		"@triton.jit" \
		"def copy(x_ptr, o_ptr, n, BLOCK: tl.constexpr):" \
		"    tl.static_assert(BLOCK <= 1024)" \
		"    pid = tl.program_id(0)" \
		"    offs = pid * BLOCK + tl.arange(0, BLOCK)" \
		"    m = offs < n" \
		"    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)" >copy.py
'

test_expect_success 'failed variants are recorded, the others compile' '
	tko tune --compile-only --target gfx942 --no-source --max-variants 6 \
		--signature "x_ptr=*fp16,o_ptr=*fp16,n=i32:16" --const BLOCK=1024 \
		--json t.json copy.py >table 2>err &&
	json_q t.json "[.kernels[0].variants[] | select(.config.kwargs.BLOCK > 1024)] | length" >big &&
	json_q t.json "[.kernels[0].variants[] | select(.status == \"compile_error\")] | length" >failed &&
	test_cmp big failed &&
	test "$(cat failed)" -ge 1 &&
	test "$(json_q t.json "[.kernels[0].variants[] | select(.config.kwargs.BLOCK <= 1024) |
		.status] | unique | join(\",\")")" = compiled &&
	json_q t.json ".kernels[0].variants[] | select(.status == \"compile_error\") | .error" >errors &&
	test_grep "static_assert|BLOCK <= 1024" errors &&
	test "$(grep -c "compile_error: " table)" -eq "$(cat failed)"
'

test_expect_success 'a base that fails to compile fails the command, with the table' '
	test_expect_code 1 tko tune --compile-only --target gfx942 --no-source --no-search \
		--signature "x_ptr=*fp16,o_ptr=*fp16,n=i32" --const BLOCK=2048 \
		--json t2.json copy.py >table 2>err &&
	test_one_line_error err &&
	test_grep "base variant of .copy. failed \(compile_error\)" err &&
	test "$(json_q t2.json ".kernels[0].variants[0].status")" = compile_error
'

# The brief's buffer-op failure text, raised here by a static_assert whose
# message carries it (no stack at hand fails that way for real): tko tune
# names the signature and explains it rather than only repeating it.
test_expect_success 'a known failure signature is named and explained' '
	sed "s/tl.static_assert(BLOCK <= 1024)/tl.static_assert(BLOCK <= 1024, \"LLVM Translation failed\")/" \
		copy.py >known.py &&
	grep -q "LLVM Translation failed" known.py &&
	tko tune --compile-only --target gfx942 --no-source --max-variants 6 \
		--signature "x_ptr=*fp16,o_ptr=*fp16,n=i32:16" --const BLOCK=1024 \
		--json k.json known.py >table 2>err &&
	json_q k.json "[.kernels[0].variants[] | select(.status == \"compile_error\") |
		.error_signature] | unique == [\"llvm_translation_failed\"]" &&
	json_q k.json "[.kernels[0].variants[] | select(.status == \"compiled\") | .error_signature] | unique == [null]" &&
	json_q k.json ".kernels[0].variants[] | select(.status == \"compile_error\") | .error_explained |
		test(\"AMDGCN_USE_BUFFER_OPS=1\")" >/dev/null &&
	test "$(grep -c "known failure: LLVM could not translate" table)" -eq \
		"$(json_q k.json "[.kernels[0].variants[] | select(.status == \"compile_error\")] | length")"
'

test_done
