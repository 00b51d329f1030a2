#!/bin/sh
# tko tune --compile-only --target gfx942: every source variant compiles
# with the installed Triton, and the ISA changes as the hint predicts:
# tt.pointer_range=32 turns global loads and stores into buffer ops
# (as in corpus/amd-xcompile/add_scale_assume.pointer_range32.buf1.gfx942.amdgcn), checked by grepping the AMDGCN Triton wrote, and
# Triton's own metadata shows the AMDGCN_USE_BUFFER_OPS each worker had.
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-tune.sh"

POI="$CORPUS/h200-run1/cache/inductor/sd/csdvrfujlppaik6bsrjwjsfouquczh47rzawhmr6c3vvw7bdom7q.py"
SIG="x_ptr=*fp32,y_ptr=*fp32,o_ptr=*fp32,n=i32:16,scale=fp32"
export POI SIG

test_expect_success 'an Inductor pointwise kernel: base, hints, assume, ptr32' '
	tko tune --compile-only --target gfx942 --no-search --max-variants 4 \
		--out out --json tune.json "$POI" >table &&
	name=$(sed -n "s/^def \(triton_[a-z0-9_]*\)(.*/\1/p" "$POI") &&
	test "$(json_q tune.json .schema_version)" = 2 &&
	test "$(json_q tune.json .tool)" = "tko tune" &&
	test "$(json_q tune.json .mode)" = compile-only &&
	test "$(json_q tune.json ".kernels[0].kernel")" = "$name" &&
	test "$(json_q tune.json ".kernels[0].variants | length")" = 4 &&
	test "$(json_q tune.json "[.kernels[0].variants[].status] | unique | join(\",\")")" = compiled &&
	test "$(json_q tune.json "[.kernels[0].variants[].label] | join(\",\")")" = \
		"base,+hints,+assume,+ptr32" &&
	test "$(ls out/$name-gfx942/variants | wc -l)" -eq 4 &&
	test_grep "^v003 +\+ptr32 +compiled" table
'

test_expect_success 'every stage file the JSON names exists' '
	json_q tune.json ".kernels[0].variants[].files[]" >files &&
	test_line_count -ge 20 files &&
	while read -r f; do test -s "$f" || return 1; done <files
'

test_expect_success 'ptr32 turns every global load and store into a buffer op' '
	base=$(json_q tune.json ".kernels[0].variants[0].files.amdgcn") &&
	ptr=$(json_q tune.json ".kernels[0].variants[3].files.amdgcn") &&
	test "$(count "^\s+buffer_(load|store)" "$base")" -eq 0 &&
	gl=$(count "^\s+global_load_dword" "$base") &&
	gs=$(count "^\s+global_store_dword" "$base") &&
	test "$gl" -ge 2 && test "$gs" -ge 1 &&
	test "$(count "^\s+global_(load|store)" "$ptr")" -eq 0 &&
	test "$(count "^\s+buffer_load_dword" "$ptr")" -eq "$gl" &&
	test "$(count "^\s+buffer_store_dword" "$ptr")" -eq "$gs"
'

test_expect_success 'the source variants are the rewrites they say' '
	dir=$(json_q tune.json ".kernels[0].out_dir") &&
	diff "$POI" "$dir/variants/001/kernel.py" >hints.diff;
	test "$(grep -c "^>" hints.diff)" -eq 2 &&
	test_grep "^>     xoffset = tl.multiple_of\(xoffset, XBLOCK\)$" hints.diff &&
	test_grep "^>     xindex = tl.max_contiguous\(tl.multiple_of\(xindex, XBLOCK\), XBLOCK\)$" hints.diff &&
	diff "$POI" "$dir/variants/002/kernel.py" >assume.diff;
	test_grep "^>     tl.assume\(xnumel >= 0\)$" assume.diff &&
	test_grep "^>     tl.assume\(xoffset >= 0\)$" assume.diff &&
	ptrs=$(grep -o "\*bf16" "$POI" | wc -l) &&
	test "$(grep -o "tt.pointer_range., 32" "$dir/variants/003/kernel.py" | wc -l)" -eq "$ptrs"
'

test_expect_success 'a hand-written kernel: global_load_dwordx4 becomes buffer_load_dwordx4' '
	tko tune --compile-only --target gfx942 --no-search --max-variants 4 \
		--kernel add_scale --signature "$SIG" --const BLOCK=1024 \
		--out out --json user.json "$CORPUS/scripts/amd_compile.py" >table &&
	base=$(json_q user.json ".kernels[0].variants[0].files.amdgcn") &&
	ptr=$(json_q user.json ".kernels[0].variants[3].files.amdgcn") &&
	test "$(count "^\s+global_load_dwordx4" "$base")" -eq 2 &&
	test "$(count "^\s+buffer_load_dwordx4" "$ptr")" -eq 2 &&
	test "$(count "^\s+global_load" "$ptr")" -eq 0
'

test_expect_success 'the buffer-ops switch reaches Triton in the worker environment' '
	tko tune --compile-only --target gfx942 --no-search \
		--kernel add_scale --signature "$SIG" --const BLOCK=1024 \
		--out out --json env.json "$CORPUS/scripts/amd_compile.py" >table &&
	off=$(json_q env.json ".kernels[0].variants[] | select(.label == \"+nobufops\") | .files.json") &&
	on=$(json_q env.json ".kernels[0].variants[] | select(.label == \"+bufops\") | .files.json") &&
	base=$(json_q env.json ".kernels[0].variants[0].files.json") &&
	test "$(json_q "$off" .AMDGCN_USE_BUFFER_OPS)" = false &&
	test "$(json_q "$on" .AMDGCN_USE_BUFFER_OPS)" = true &&
	test "$(jq -r .AMDGCN_USE_BUFFER_OPS "$base")" = null
'

test_done
