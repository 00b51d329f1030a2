#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko isa on the Inductor index_add kernel compiled for gfx942: families
# with widths, resources, source lines and findings, each checked against
# a grep or awk of the same file (never against tko's own output).
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-isa.sh"

F=$CORPUS/amd-xcompile/inductor.triton_poi_fused_index_add_zeros_1.gfx942.amdgcn

# count MNEMONIC: statements of the file whose first word is MNEMONIC
count() {
	grep -cE "^[[:space:]]+$1([[:space:]]|\$)" "$F" || :
}

test_expect_success 'setup: scan the file once as text and as JSON' '
	tko isa "$F" >out 2>err &&
	tko isa --json out.json "$F" &&
	json_q out.json ".schema_version == 1" &&
	json_q out.json ".kernels | length == 1"
'

test_expect_success 'the kernel, its arch and ISA head the text' '
	test_grep "^triton_poi_fused_index_add_zeros_1 \(kernel, amdgcn, gfx942\)" out
'

test_expect_success 'global_load shows its 64- and 128-bit counts' '
	x2=$(count global_load_dwordx2) && x4=$(count global_load_dwordx4) &&
	test "$x2" -ge 1 && test "$x4" -ge 1 &&
	test_grep "^global_load +$((x2 + x4)) +64-bit: $x2, 128-bit: $x4\$" out &&
	json_q out.json ".kernels[0].families.global_load.by_width[\"64\"] == $x2" &&
	json_q out.json ".kernels[0].families.global_load.by_width[\"128\"] == $x4"
'

test_expect_success 'atomics, scalar loads and waits match the grep' '
	a=$(count global_atomic_add_f32) &&
	test_grep "^global_atomic +$a +32-bit: $a; 0 return a value\$" out &&
	json_q out.json ".kernels[0].families.scalar_load.by_width[\"256\"] == $(count s_load_dwordx8)" &&
	json_q out.json ".kernels[0].families.scalar_load.by_width[\"64\"] == $(count s_load_dwordx2)" &&
	v=$(grep -c "s_waitcnt.*vmcnt" "$F") && l=$(grep -c "s_waitcnt.*lgkmcnt" "$F") &&
	json_q out.json ".kernels[0].families.waitcnt.by_counter == {\"vmcnt\": $v, \"lgkmcnt\": $l}"
'

test_expect_success 'every family and width equals the awk count' '
	awk -f "$AWK/isa-count.awk" "$F" | awk -f "$AWK/isa-families.awk" | sort >expect &&
	families_of out.json >actual &&
	test_cmp expect actual
'

test_expect_success 'resources are the metadata and Kernel info numbers' '
	v=$(awk "/\.vgpr_count:/ { print \$2 }" "$F") &&
	s=$(awk "/\.sgpr_count:/ { print \$2 }" "$F") &&
	o=$(sed -n "s/^; Occupancy: //p" "$F") &&
	test_grep "^VGPRs +$v +amdgpu_metadata\$" out &&
	test_grep "^SGPRs +$s +amdgpu_metadata\$" out &&
	test_grep "^occupancy \(waves/SIMD\) +$o +kernel_info\$" out &&
	json_q out.json ".kernels[0].resources.vgpr_spills == 0" &&
	json_q out.json ".kernels[0].resources.wavefront_size == 64" &&
	json_q out.json ".kernels[0].resource_sources.occupancy == \"kernel_info\""
'

test_expect_success 'num_warps comes from the Triton metadata beside the file' '
	w=$(jq .num_warps "${F%.amdgcn}.json") &&
	json_q out.json ".kernels[0].resources.num_warps == $w"
'

test_expect_success 'source lines are those of the .loc directives' '
	awk -f "$AWK/isa-lines.awk" "$F" | sort >expect &&
	lines_of out.json >actual &&
	test_cmp expect actual &&
	x4line=$(awk "\$2 == \"global_load_dwordx4\" { print \$1 }" expect) &&
	test_grep "^  line $x4line: 1 global_load_dwordx4\$" out &&
	aline=$(awk "\$2 == \"global_atomic_add_f32\" { print \$1 }" expect) &&
	test_grep "^  line $aline: 4 global_atomic_add_f32\$" out
'

test_expect_success 'findings name the numbers they came from' '
	x2=$(count global_load_dwordx2) && x4=$(count global_load_dwordx4) &&
	test_grep "vector_width: $x4 of $((x2 + x4)) global/buffer memory instructions move 128 bits" out &&
	test "$(grep -c buffer_ "$F")" -eq 0 &&
	test_grep "buffer_ops: no buffer ops: $((x2 + x4)) global_load" out &&
	test_grep "atomics: $(count global_atomic_add_f32) atomic instructions" out &&
	test_grep "spills: no spills: 0 VGPRs spilled \(amdgpu_metadata\)" out &&
	test_grep "occupancy: occupancy 8 waves per SIMD \(kernel_info\); 12 of 512 VGPRs" out &&
	json_q out.json "[.kernels[0].findings[].id] == [\"vector_width\", \"buffer_ops\", \"atomics\", \"spills\", \"occupancy\"]" &&
	json_q out.json ".kernels[0].findings[0].evidence.ops_128bit == $x4"
'

test_done
