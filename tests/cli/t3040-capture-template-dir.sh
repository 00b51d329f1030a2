#!/bin/sh
# A captured max-autotune template as tko capture now writes it: kernel.py
# is the whole module Inductor generated (imports, @triton_heuristics.template
# with its metadata, @triton.jit), capture.json has the launch with the
# FixedGrid's _grid_0.._grid_2 after the kernel's own arguments. tko tune
# reads that directory (its worker parses kernel.py's syntax tree) and
# compiles the template for sm_90 with the installed Triton, no GPU needed.
# The module and capture.json are the H200 run's (examples/h200-run).
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"

TKO_PYTHON="$SRC_ROOT/.venv/bin/python"
export TKO_PYTHON
EX="$SRC_ROOT/examples/h200-run"
MOD="$EX/cache/inductor/tm/ctm4hmwalour7kzk5yzk7x2ij7dswo7qznzswvxbfafn7c7o74iq.py"
CAP="$EX/capture/kernels/triton_mm-0c74acd8/capture.json"
export EX MOD CAP

test_expect_success_if jq 'setup: the template module as kernel.py, its capture.json' '
	mkdir -p run/capture/kernels/triton_mm-1234abcd &&
	K=run/capture/kernels/triton_mm-1234abcd &&
	cp "$MOD" $K/kernel.py &&
	jq ".source_kind = \"inductor_module\" | .source_file = \"$MOD\"" "$CAP" >$K/capture.json &&
	test_grep "^@triton_heuristics.template\($" $K/kernel.py &&
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
