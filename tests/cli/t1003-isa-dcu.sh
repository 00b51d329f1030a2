#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko isa on every file of corpus/dcu: DCU Tensile kernels (v_mmac,
# ds_read_m32x16_b16, buffer_load ... lds with and without a comma, .if
# debug_buffer, macros), the DTK Triton file, the hipcc offload bundle,
# Triton files with spills, and the Markdown documents it must skip. The
# ops, families and widths of every file are the case folders
# tests/isa/amdgcn/dcu-* (make isa).
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-isa.sh"

D=$CORPUS/dcu
W4=$D/gfx936_tensile_hhs_w4a16_mt256x32x32_mmac_dsreadm32x16.s
AWQ=$D/gfx936_tensile_hhs_awqgemm_mt32x32x128_mmac_lds.s
DQ=$D/gfx936_tensile_bbs_dequant_int4_mt64x32_bufferlds.s

# Hand counts from docs/dcu.md section 3 (as written, before macro expansion).
test_expect_success 'w4a16: 32 v_mmac and 2 live ds_read_m32x16_b16' '
	tko -q isa --json out.json "$W4" &&
	json_q out.json ".kernels[0].arch == \"gfx936\"" &&
	json_q out.json ".kernels[0].families.mmac.count == 32" &&
	json_q out.json ".kernels[0].ops.v_mmac_f32_16x16x16_f16 == 32" &&
	json_q out.json ".kernels[0].families.lds_matrix_read.by_width[\"128\"] == 2" &&
	grep -q "//ds_read_m32x16_b16\|^[[:space:]]*//.*ds_read_m" "$W4" || grep -q "ds_read_m32x16_b16" "$W4"
'

test_expect_success 'awqGemm: 8 v_mmac, direct-to-LDS loads, debug_buffer=1 code counted' '
	tko -q isa --json out.json "$AWQ" &&
	json_q out.json ".kernels[0].families.mmac.count == 8" &&
	n=$(grep -cE "^buffer_load_dwordx4 .* lds" "$AWQ") &&
	json_q out.json ".kernels[0].families.global_to_lds.by_width[\"128\"] == $n" &&
	grep -q "^\.set debug_buffer, 1" "$AWQ" &&
	json_q out.json ".kernels[0].families.flat_store.count > 0"
'

test_expect_success 'both spellings of the lds operand count as direct-to-LDS' '
	grep -qE "offset:0 lds" "$AWQ" && grep -qE "offset:0, lds" "$W4" &&
	grep -qE "idxen offen offset:0,  lds" "$W4" &&
	tko -q isa --json out.json "$AWQ" &&
	n=$(grep -cE "^buffer_load_dword[x0-9]* .*offset:0 lds" "$AWQ") &&
	json_q out.json "[.kernels[0].families.global_to_lds.by_width[]] | add == $n" &&
	tko -q isa --json out.json "$W4" &&
	n=$(grep -cE "^buffer_load_dword[x0-9]* .*[ ,]lds" "$W4") &&
	json_q out.json "[.kernels[0].families.global_to_lds.by_width[]] | add == $n" &&
	tko -q isa --json out.json "$DQ" &&
	json_q out.json ".kernels[0].ops[\"buffer_load_dwordx2 lds\"] == $(grep -cE "^buffer_load_dwordx2 .*, lds" "$DQ")"
'

test_expect_success 'dequant: debug_buffer=0 code and block comments are not counted' '
	grep -q "^\.set debug_buffer, 0" "$DQ" &&
	grep -q "flat_store_dword" "$DQ" &&
	tko -q isa --json out.json "$DQ" &&
	json_q out.json ".kernels[0].families.flat_store == null"
'

test_expect_success 'the Tensile metadata gives VGPRs, LDS and a note on the disagreement' '
	tko -q isa --json out.json "$AWQ" &&
	json_q out.json ".kernels[0].resources.vgprs == $(awk "/^    \.vgpr_count:/ { print \$2 }" "$AWQ")" &&
	json_q out.json ".kernels[0].resources.next_free_vgpr == $(awk "/amdhsa_next_free_vgpr/ { print \$2 }" "$AWQ")" &&
	json_q out.json ".kernels[0].resources.lds_bytes == 65536" &&
	json_q out.json ".kernels[0].resources.agprs == 0" &&
	json_q out.json ".kernels[0].resource_sources.agprs == \"arch\"" &&
	json_q out.json ".files[0].notes | map(select(test(\"next_free_vgpr 94\"))) | length == 1"
'

test_expect_success 'the DTK Triton file: Kernel info with NumSgprs, occupancy 10' '
	f=$D/gfx936_triton_hcu_buffer_ld_st_cluster16.amdgcn &&
	tko -q isa --json out.json "$f" &&
	json_q out.json ".kernels[0].arch == \"gfx936\"" &&
	json_q out.json ".kernels[0].resources.occupancy == $(sed -n "s/^; Occupancy: //p" "$f")" &&
	json_q out.json ".kernels[0].resources.arch_vgprs == $(sed -n "s/^; NumVgprs: //p" "$f")" &&
	json_q out.json ".kernels[0].families.buffer_load.by_width[\"128\"] == $(grep -c "buffer_load_dwordx4" "$f")" &&
	json_q out.json ".kernels[0].findings[] | select(.id == \"occupancy\") | .message | test(\"65 of 768 VGPRs per wave on gfx936\")"
'

test_expect_success 'the offload bundle: one kernel per device arch, host part skipped' '
	f=$D/gfx928_gfx926_gfx906_hip_offload_bundle_reduce.s &&
	tko -q isa --json out.json "$f" &&
	json_q out.json "[.kernels[] | select(.name == \"_Z6reducePfS_\") | .arch] == [\"gfx906\", \"gfx926\", \"gfx928\"]" &&
	json_q out.json "[.kernels[] | select(.kind == \"function\") | .name] | index(\"__softfloat_f64_add\") != null" &&
	json_q out.json ".files[0].format == \"offload bundle\"" &&
	json_q out.json ".files[0].notes | map(select(test(\"3 device parts scanned, 1 host part skipped\"))) | length == 1" &&
	for a in gfx906 gfx926 gfx928; do
		part=$(awk "/BUNDLE____START__ hip-amdgcn-amd-amdhsa-$a/,/BUNDLE____END__ hip-amdgcn-amd-amdhsa-$a/" "$f" |
			awk "/^_Z6reducePfS_:/,/s_endpgm/" | grep -cE "^[[:space:]]+global_load_dword ") &&
		json_q out.json "[.kernels[] | select(.name == \"_Z6reducePfS_\" and .arch == \"$a\")][0].families.global_load.by_width[\"32\"] == $part" || return 1
	done
'

# DTK links compiler-rt's __softfloat_f64_* into the gfx928 part; the
# reduce kernel calls none of them. Each function's scratch and spill
# comments are its own (its "; Function info:" ScratchSize, the "Folded
# Spill" lines between its label and its .size), and the spills rule
# judges the .amdhsa_kernel entry only: nothing in the file fires it.
test_expect_success 'the offload bundle: scratch per function, the spills rule on the entries only' '
	f=$D/gfx928_gfx926_gfx906_hip_offload_bundle_reduce.s &&
	tko -q isa --json out.json "$f" >/dev/null &&
	fns=$(sed -n "s/^\(__softfloat_[a-z0-9_]*\):.*/\1/p" "$f") &&
	test $(echo "$fns" | wc -l) -eq 4 &&
	test $(grep -c "^; ScratchSize: [1-9]" "$f") -eq 3 &&
	for fn in $fns; do
		body=$(awk "/^$fn:/,/^[[:space:]]*\.size[[:space:]]+$fn,/" "$f") &&
		sc=$(awk "/^$fn:/ { on = 1 } on && /^; ScratchSize:/ { print \$3; exit }" "$f") &&
		sp=$(echo "$body" | grep -c "Folded Spill" || :) &&
		json_q out.json "[.kernels[] | select(.name == \"$fn\")] | length == 1" &&
		json_q out.json ".kernels[] | select(.name == \"$fn\") | .kind == \"function\" and .arch == \"gfx928\"" &&
		json_q out.json ".kernels[] | select(.name == \"$fn\") | .resources.scratch_bytes == $sc" &&
		json_q out.json ".kernels[] | select(.name == \"$fn\") | .spill_comments.spills == $sp" &&
		json_q out.json ".kernels[] | select(.name == \"$fn\") | .findings[] | select(.id == \"spills\") | .severity == \"info\"" || { echo "in $fn"; return 1; }
	done &&
	json_q out.json "[.kernels[] | select(.kind == \"function\") | .resources.scratch_bytes | select(. > 0)] | length == 3" &&
	json_q out.json "[.kernels[] | select(.name == \"_Z6reducePfS_\") | .resources.scratch_bytes] == [0, 0, 0]" &&
	json_q out.json "[.kernels[] | .rules[]? | select(.rule == \"spills\")] | length == 0"
'

test_expect_success 'spills from the metadata of the gfx90a and gfx942 Triton files' '
	for f in "$D"/*spill*.amdgcn; do
		tko -q isa --json out.json "$f" &&
		s=$(awk "/^    \.vgpr_spill_count:/ { print \$2 }" "$f") &&
		p=$(awk "/^    \.private_segment_fixed_size:/ { print \$2 }" "$f") &&
		test "$s" -gt 0 &&
		json_q out.json ".kernels[0].resources.vgpr_spills == $s" &&
		json_q out.json ".kernels[0].resources.scratch_bytes == $p" &&
		json_q out.json ".kernels[0].findings[] | select(.id == \"spills\") | .severity == \"warning\"" || { echo "in $f"; return 1; }
	done &&
	f=$D/gfx942_triton_matmul_regalloc_tlp_sb1030_spill.amdgcn &&
	tko -q isa --json out.json "$f" &&
	json_q out.json ".kernels[0].spill_comments.spills == $(grep -c "Folded Spill" "$f")" &&
	json_q out.json ".kernels[0].spill_comments.reloads == $(grep -c "Folded Reload" "$f")"
'

test_expect_success 'the Markdown documents are skipped, not counted' '
	test_expect_code 1 tko isa "$D/gfx936_hsaco_metadata_json_dumps_spills.md" >out 2>err &&
	test_grep "skipped .*Markdown text, not assembly" err &&
	test_grep "no kernels found" err &&
	tko isa --json out.json "$D" 2>err &&
	json_q out.json "[.skipped[] | .kind] | sort == [\"markdown\", \"markdown\", \"markdown\"]"
'

test_done
