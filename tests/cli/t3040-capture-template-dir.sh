#!/bin/sh
# A captured max-autotune template as tko capture now writes it: kernel.py
# is the whole module Inductor generated (imports, @triton_heuristics.template
# with its metadata, @triton.jit), capture.json has the launch with the
# FixedGrid's _grid_0.._grid_2 after the kernel's own arguments. tko tune
# reads that directory (its worker parses kernel.py's syntax tree) and
# compiles the template for sm_90 with the installed Triton, no GPU needed.
# The kernel dir is tests/data/capture/triton_mm-template (the H200 run's).
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"

TKO_PYTHON="$SRC_ROOT/.venv/bin/python"
export TKO_PYTHON
DATA="$SRC_ROOT/tests/data/capture/triton_mm-template"
MOD="$DATA/kernel.py"
export DATA MOD

test_expect_success_if jq 'setup: the template module as kernel.py, its capture.json' '
	mkdir -p run/capture/kernels &&
	cp -r "$DATA" run/capture/kernels/triton_mm-1234abcd &&
	K=run/capture/kernels/triton_mm-1234abcd &&
	test_grep "^@triton_heuristics.template\($" $K/kernel.py &&
	test "$(json_q $K/capture.json .source_hash)" = "$(sha256sum "$MOD" | cut -c1-64)" &&
	test "$(json_q $K/capture.json "[.args[].name] | join(\",\")")" = \
		"arg_A,arg_B,out_ptr0,_grid_0,_grid_1,_grid_2"
'

test_expect_success_if jq 'tko tune sees a template with its own block sizes and compiles it' '
	tko tune --compile-only --target sm_90 --no-source --max-variants 2 \
		--out out --json t.json run/capture/kernels/triton_mm-1234abcd >table &&
	test "$(json_q t.json ".kernels[0].kind")" = template &&
	test "$(json_q t.json ".kernels[0].kernel")" = triton_mm &&
	test "$(json_q t.json "[.kernels[0].variants[].status] | unique | join(\",\")")" = compiled &&
	base=$(json_q t.json ".kernels[0].variants[0].files.json") &&
	test "$(json_q "$base" .num_warps)" = "$(sed -n "s/^num_warps=\([0-9]*\),$/\1/p" "$MOD")" &&
	test "$(json_q "$base" .num_stages)" = "$(sed -n "s/^num_stages=\([0-9]*\),$/\1/p" "$MOD")" &&
	dir=$(json_q t.json ".kernels[0].out_dir") &&
	test_grep "^    BLOCK_K : tl.constexpr = 128$" "$dir/variants/000/kernel.py"
'

test_done
