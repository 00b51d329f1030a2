#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko isa on GPU binaries: .hsaco through llvm-objdump (and what happens
# when that LLVM does not know the processor), dccobjdump for DCU code
# objects, and the messages (exit 3) when no disassembler is on PATH.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-isa.sh"

X=$CORPUS/amd-xcompile
IA=$CORPUS/h200-run1/cache/triton/VZOCIUMWPAPLYL7CE4G34I2D74EVAPJFGGB527M4SJMNTX35IMPQ/triton_poi_fused_index_add_zeros_1
unset TKO_LLVM_OBJDUMP TRITON_NVDISASM_PATH TRITON_CUOBJDUMP_PATH ROCM_PATH

test_expect_success_if llvm-objdump 'a gfx90a .hsaco is disassembled with llvm-objdump and its notes' '
	cp "$X/add_scale.gfx90a.buf0.hsaco" k.hsaco &&
	tko -q isa --json out.json k.hsaco &&
	json_q out.json ".files[0].format == \"disassembly\"" &&
	json_q out.json ".files[0].via | startswith(\"llvm-objdump\")" &&
	json_q out.json ".kernels[0].name == \"add_scale\" and .kernels[0].arch == \"gfx90a\"" &&
	llvm-objdump -d k.hsaco | awk -f "$ISA_AWK/isa-count.awk" | sort -k2 >expect &&
	ops_of out.json >actual &&
	test_cmp expect actual &&
	v=$(llvm-readelf --notes k.hsaco | awk "/^    \.vgpr_count:/ { print \$2 }") &&
	json_q out.json ".kernels[0].resources.vgprs == $v"
'

test_expect_success_if llvm-objdump 'an LLVM that does not know gfx942 is a clear tool error (exit 3)' '
	if llvm-objdump --version | grep -q "LLVM version 1[0-6]\."; then
		test_expect_code 3 tko isa "$X/add_scale.gfx942.buf0.hsaco" 2>err &&
		test_one_line_error err &&
		test_grep "cannot disassemble .*add_scale.gfx942.buf0.hsaco. \(gfx942\): llvm-objdump.* cannot disassemble gfx942" err &&
		test_grep "LLVM 17 or newer" err
	else
		tko -q isa --json out.json "$X/add_scale.gfx942.buf0.hsaco" &&
		json_q out.json ".kernels[0].arch == \"gfx942\""
	fi
'

test_expect_success 'with no disassembler on PATH a .hsaco is exit 3 naming llvm-objdump' '
	cp "$X/add_scale.gfx90a.buf0.hsaco" k.hsaco &&
	test_expect_code 3 env PATH=/nonexistent "$TKO" isa k.hsaco 2>err &&
	test_one_line_error err &&
	test_grep "no llvm-objdump on PATH" err
'

test_expect_success 'with no disassembler on PATH a .cubin is exit 3 naming nvdisasm and cuobjdump' '
	test_expect_code 3 env PATH=/nonexistent "$TKO" isa "$IA.cubin" 2>err &&
	test_one_line_error err &&
	test_grep "neither nvdisasm nor cuobjdump is on PATH" err
'

test_expect_success 'inside a directory a binary without its tool is skipped, the text is scanned' '
	mkdir d && cp "$IA.cubin" "$IA.ptx" "$IA.json" d/ &&
	env PATH=/nonexistent "$TKO" isa --json out.json d 2>err &&
	json_q out.json "[.kernels[].isa] == [\"ptx\"]" &&
	json_q out.json "[.skipped[] | select(.kind == \"tool\")] | length == 1" &&
	test_grep "skipped 2 files" err
'

test_expect_success 'an AMDGPU code object for an arch LLVM does not know goes to dccobjdump' '
	mkdir bin &&
	cat >bin/dccobjdump <<-\EOF &&
	#!/bin/sh
	# A stand-in for DTK dccobjdump: writes the ISA as a side file in the
	# working directory, as the real one does.
	for a in "$@"; do
		case $a in --inputs=*) in=${a#--inputs=} ;; esac
	done
	test -f "$in" || exit 2
	cat "$ISA_TEXT" >kernel.ISA
	echo "dccobjdump: wrote kernel.ISA"
	EOF
	chmod +x bin/dccobjdump &&
	cp "$X/add_scale.gfx942.buf0.hsaco" dcu.co &&
	printf "\172" | dd of=dcu.co bs=1 seek=48 conv=notrunc 2>/dev/null &&
	ISA_TEXT=$CORPUS/dcu/gfx936_triton_hcu_buffer_ld_st_cluster16.amdgcn &&
	export ISA_TEXT &&
	mkdir tmp &&
	TMPDIR=$PWD/tmp PATH="$PWD/bin:$PATH" tko -q isa --json out.json dcu.co &&
	json_q out.json ".files[0].via | startswith(\"dccobjdump\")" &&
	json_q out.json ".kernels[0].name == \"same_base_cluster_kernel\" and .kernels[0].arch == \"gfx936\"" &&
	json_q out.json ".kernels[0].families.buffer_load.count == $(grep -c buffer_load_dwordx4 "$ISA_TEXT")" &&
	json_q out.json "[.kernels[].name] == [\"same_base_cluster_kernel\"]" &&
	test -z "$(ls tmp)"
'

test_expect_success 'a CPU ELF file is not taken for a GPU code object' '
	cp /bin/true true.bin &&
	test_expect_code 1 tko isa true.bin 2>err &&
	test_one_line_error err &&
	test_grep "is an ELF file for a CPU" err
'

test_done
