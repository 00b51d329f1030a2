#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko isa --kernel NAME [--arch ARCH]: an exact symbol match; none or
# several matches list the candidates and exit 4.
. "$(dirname "$0")/lib.sh"

B=$CORPUS/dcu/gfx928_gfx926_gfx906_hip_offload_bundle_reduce.s
X=$CORPUS/amd-xcompile

test_expect_success 'an exact name in a file shows that kernel in full' '
	tko isa --kernel triton_poi_fused_index_add_zeros_1 \
		"$X/inductor.triton_poi_fused_index_add_zeros_1.gfx942.amdgcn" >out &&
	test_grep "^triton_poi_fused_index_add_zeros_1 \(kernel, amdgcn, gfx942\)" out &&
	test_grep "^Instruction families" out
'

test_expect_success 'an exact name and arch select one kernel of several' '
	tko isa --json out.json --kernel triton_poi_fused_index_add_zeros_1 --arch gfx90a "$X" &&
	json_q out.json "[.kernels[] | [.name, .arch]] == [[\"triton_poi_fused_index_add_zeros_1\", \"gfx90a\"]]" &&
	json_q out.json ".files | length == 1"
'

test_expect_success 'a name that several kernels have lists them and exits 4' '
	test_expect_code 4 tko isa --kernel _Z6reducePfS_ "$B" >out 2>err &&
	test_grep "^tko isa: 3 kernels are named ._Z6reducePfS_.; name a file or add --arch:" err &&
	test_grep "^  _Z6reducePfS_ \(amdgcn, gfx906, " err &&
	test_grep "^  _Z6reducePfS_ \(amdgcn, gfx928, " err &&
	test_line_count = 4 err &&
	test_line_count = 0 out
'

test_expect_success '--arch picks one of them' '
	tko isa --kernel _Z6reducePfS_ --arch gfx926 "$B" >out &&
	test_grep "^_Z6reducePfS_ \(kernel, amdgcn, gfx926\)" out
'

test_expect_success 'a prefix is not a match: exit 4 with all candidates' '
	test_expect_code 4 tko isa --kernel _Z6reduce "$B" 2>err &&
	test_grep "^tko isa: no kernel named ._Z6reduce.; the kernels are:" err &&
	test_grep "^  __softfloat_f64_add \(amdgcn, gfx928, " err
'

test_done
