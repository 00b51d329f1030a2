#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko isa on directories: recursive, sorted, assembly scanned, everything
# else skipped with its kind, several paths in one run.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-isa.sh"

X=$CORPUS/amd-xcompile

test_expect_success 'amd-xcompile: one kernel per .amdgcn, the rest skipped by kind' '
	tko isa --json out.json "$X" >/dev/null 2>err &&
	json_q out.json ".kernels | length == $(ls "$X"/*.amdgcn | wc -l)" &&
	json_q out.json "[.skipped[] | select(.kind == \"mlir\")] | length == $(ls "$X"/*.ttir "$X"/*.ttgir "$X"/*.source | wc -l)" &&
	json_q out.json "[.skipped[] | select(.kind == \"llvm-ir\")] | length == $(ls "$X"/*.llir | wc -l)" &&
	json_q out.json "[.skipped[] | select(.kind == \"json\")] | length == $(ls "$X"/*.json | wc -l)" &&
	json_q out.json "[.skipped[] | select(.kind == \"duplicate\")] | length == $(ls "$X"/*.hsaco | wc -l)" &&
	test_grep "^tko isa: note: skipped [0-9]+ files" err
'

test_expect_success 'files come in sorted order, and several paths add up' '
	tko isa --json out.json "$X" >/dev/null 2>&1 &&
	jq -r ".files[].path" out.json >actual &&
	sort actual >expect &&
	test_cmp expect actual &&
	tko isa --json out.json "$X/add_scale.gfx90a.buf0.amdgcn" "$CORPUS/dcu/gfx936_tensile_hhs_awqgemm_mt32x32x128_mmac_lds.s" >/dev/null &&
	json_q out.json "[.kernels[].arch] == [\"gfx90a\", \"gfx936\"]"
'

test_expect_success 'nested directories are walked' '
	mkdir -p a/b/c &&
	cp "$X/add_scale.gfx950.buf0.amdgcn" a/b/c/k.txt &&
	cp "$X/add_scale.gfx950.buf0.ttgir" a/b/k.amdgcn &&
	tko isa --json out.json a >/dev/null 2>&1 &&
	json_q out.json "[.kernels[] | .arch] == [\"gfx950\"]" &&
	json_q out.json ".skipped[0].path == \"a/b/k.amdgcn\" and .skipped[0].kind == \"mlir\""
'

test_done
