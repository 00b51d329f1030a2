#!/bin/sh
# tko tune --compile-only --target sm_90: rewritten Inductor kernels (an
# index_add with atomics, the mm template with other block sizes) compile
# for NVIDIA with the installed Triton, no GPU needed.
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"

TKO_PYTHON="$SRC_ROOT/.venv/bin/python"
export TKO_PYTHON
IDX="$CORPUS/h200-run1/cache/inductor/4o/c4ozvdwlpyaddht6a4ul6rkjva5blwznb2f63rrzscxxd35yh4vt.py"
MM="$CORPUS/h200-run1/cache/inductor/5p/c5pfyn5b7apk7x4sgj4nll5brv476xd4hkjgcj2rji4fykrgxbqf.py"
export IDX MM

test_expect_success 'index_add: base, hints and assume compile; the atomics stay' '
	tko tune --compile-only --target sm_90 --no-search --max-variants 3 \
		--out out --json idx.json "$IDX" >table &&
	test "$(json_q idx.json "[.kernels[0].variants[].status] | unique | join(\",\")")" = compiled &&
	test "$(json_q idx.json "[.kernels[0].variants[].label] | join(\",\")")" = \
		"base,+hints,+assume" &&
	for i in 0 1 2; do
		ptx=$(json_q idx.json ".kernels[0].variants[$i].files.ptx") &&
		grep -E "(atom|red)\.global.*\.add\.(v[0-9]\.)?f32" "$ptx" >/dev/null || return 1
	done
'

test_expect_success 'the 2-D offsets get hints; the .best_config is the base' '
	dir=$(json_q idx.json ".kernels[0].out_dir") &&
	diff "$IDX" "$dir/variants/001/kernel.py" >hints.diff;
	test "$(grep -c "^>" hints.diff)" -eq 2 &&
	test_grep "^>     yoffset = tl.multiple_of\(yoffset, YBLOCK\)$" hints.diff &&
	test_grep "^>     xoffset = tl.multiple_of\(xoffset, XBLOCK\)$" hints.diff &&
	best=$(ls "$(dirname "$IDX")"/*.best_config) &&
	test "$(json_q idx.json ".kernels[0].variants[0].config.kwargs.XBLOCK")" = \
		"$(json_q "$best" .XBLOCK)" &&
	test "$(json_q idx.json ".kernels[0].variants[0].config.num_warps")" = \
		"$(json_q "$best" .num_warps)"
'

test_expect_success 'the mm template: block sizes are rewritten and still compile' '
	tko tune --compile-only --target sm_90 --no-source --max-variants 2 \
		--out out --json mm.json "$MM" >table &&
	test "$(json_q mm.json "[.kernels[0].variants[].status] | unique | join(\",\")")" = compiled &&
	test "$(json_q mm.json ".kernels[0].variants[1].label")" = BLOCK_M=32 &&
	dir=$(json_q mm.json ".kernels[0].out_dir") &&
	test_grep "^    BLOCK_M : tl.constexpr = 128$" "$dir/variants/000/kernel.py" &&
	test_grep "^    BLOCK_M : tl.constexpr = 32$" "$dir/variants/001/kernel.py" &&
	base=$(json_q mm.json ".kernels[0].variants[0].files.json") &&
	small=$(json_q mm.json ".kernels[0].variants[1].files.json") &&
	test "$(json_q "$base" .num_stages)" = "$(sed -n "s/^num_stages=\([0-9]*\),$/\1/p" "$MM")" &&
	test "$(json_q "$small" .shared)" -lt "$(json_q "$base" .shared)" &&
	grep -E "^\s+(wgmma|mma)\." "$(json_q mm.json ".kernels[0].variants[0].files.ptx")" >/dev/null
'

test_done
