#!/bin/sh
# The ISA column of tko tune: every variant's ISA summary (families with
# widths, buffer vs global, registers) and its delta from the base, in the
# JSON, the table and the Markdown. Expected numbers come from grep counts
# of the AMDGCN Triton wrote and from Triton's bundled cuobjdump, not from
# tko's scanner.
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-tune.sh"

SIG="x_ptr=*fp32,y_ptr=*fp32,o_ptr=*fp32,n=i32:16,scale=fp32"
POI="$CORPUS/h200-run1/cache/inductor/sd/csdvrfujlppaik6bsrjwjsfouquczh47rzawhmr6c3vvw7bdom7q.py"
export SIG POI

test_expect_success 'gfx942: the ptr32 variant trades global for buffer ops' '
	tko tune --compile-only --target gfx942 --no-search --max-variants 4 \
		--kernel add_scale --signature "$SIG" --const BLOCK=1024 \
		--out out --json t.json --md t.md "$CORPUS/scripts/amd_compile.py" >table &&
	base=$(json_q t.json ".kernels[0].variants[0].files.amdgcn") &&
	ptr=$(json_q t.json ".kernels[0].variants[3].files.amdgcn") &&
	test "$(json_q t.json ".kernels[0].variants[3].label")" = +ptr32 &&
	test "$(json_q t.json ".kernels[0].variants[0].isa.families.global_load.count")" = \
		"$(count "^\s+global_load_dword" "$base")" &&
	test "$(json_q t.json ".kernels[0].variants[0].isa.families.global_load.by_width[\"128\"]")" = \
		"$(count "^\s+global_load_dwordx4" "$base")" &&
	test "$(json_q t.json ".kernels[0].variants[3].isa_delta.families.buffer_load[1].count")" = \
		"$(count "^\s+buffer_load_dword" "$ptr")" &&
	test "$(json_q t.json ".kernels[0].variants[3].isa_delta.families.global_load[1].count")" = 0 &&
	test "$(json_q t.json ".kernels[0].variants[3].isa_delta.families.buffer_store[1].count")" = \
		"$(count "^\s+buffer_store_dword" "$ptr")" &&
	test "$(jq -r ".kernels[0].variants[0].isa_delta" t.json)" = null
'

test_expect_success 'the table and the Markdown show the delta' '
	test_grep "^v003 +\+ptr32 +compiled .* gld 2x128->none; gst 1x128->none; bld none->2x128" table &&
	test_grep "ISA vs base" t.md &&
	test_grep "^\| v003 .*bld none->2x128" t.md &&
	test_grep "^v000 +base .* gld 2x128, gst 1x128, vec 100%" table
'

test_expect_success 'a variant is the same as another exactly when their fingerprints agree' '
	json_q t.json ".kernels[0].variants[] | [.id, .fingerprint, (.same_as // \"-\")] | @tsv" >fp &&
	while IFS="$(printf "\t")" read -r id f same; do
		first=$(awk -F "\t" -v f="$f" "\$2 == f { print \$1; exit }" fp) &&
		if test "$first" = "$id"; then test "$same" = - || return 1;
		else test "$same" = "$first" || return 1; fi
	done <fp
'

test_expect_success 'sm_90: registers from the cubin (Triton'"'"'s cuobjdump)' '
	tko tune --compile-only --target sm_90 --no-search --max-variants 1 \
		--out out --json n.json "$POI" >table &&
	cubin=$(json_q n.json ".kernels[0].variants[0].files.cubin") &&
	cuobjdump=$("$TKO_PYTHON" -c "import os, triton; print(os.path.join(os.path.dirname(triton.__file__), \"backends/nvidia/bin/cuobjdump\"))") &&
	"$cuobjdump" -res-usage "$cubin" >res &&
	regs=$(sed -n "s/.*REG:\([0-9]*\).*/\1/p" res | head -n 1) &&
	test -n "$regs" &&
	test "$(json_q n.json ".kernels[0].variants[0].isa.resources.registers")" = "$regs" &&
	ptx=$(json_q n.json ".kernels[0].variants[0].files.ptx") &&
	test "$(json_q n.json ".kernels[0].variants[0].isa.families.global_store.count")" = \
		"$(count "^\s+(@%p[0-9]+ )?st\.global" "$ptx")"
'

test_done
