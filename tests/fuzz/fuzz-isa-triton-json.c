/*
 * Fuzzes the Triton metadata JSON that tko isa reads beside an assembly
 * file (<name>.json: num_warps, num_stages, shared, target; isa/scan.c):
 * the input is written as that JSON beside a fixed PTX kernel in a
 * private directory, and the pair is scanned as `tko isa FILE` does.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "report/isa_json.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

/* The kernel name of corpus/h200-run1's index_add seed JSON. */
static const char ptx[] =
	".version 8.7\n.target sm_90a\n.address_size 64\n"
	".visible .entry triton_poi_fused_index_add_zeros_1(\n"
	"\t.param .u64 .ptr .global .align 1 p0\n)\n{\n"
	"\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [p0];\n\tld.global.b32 %r1, [%rd1];\n"
	"\tst.global.b32 [%rd1], %r1;\n\tret;\n}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *asm_path, *json_path;
	struct isa_options opts = ISA_OPTIONS_INIT;
	struct isa_result res = ISA_RESULT_INIT;
	struct buf err = BUF_INIT;
	json_t *j;

	if (!asm_path) {
		asm_path = path_join(fuzz_tmpdir(), "k.ptx");
		json_path = path_join(fuzz_tmpdir(), "k.json");
		if (write_file_atomic(asm_path, ptx, sizeof(ptx) - 1, &err) < 0)
			abort();
	}
	if (write_file_atomic(json_path, data, size, &err) < 0)
		abort();
	opts.no_tools = 1;
	isa_scan_path(asm_path, &opts, &res, &err);
	j = isa_result_to_json(&res);
	json_decref(j);
	isa_result_release(&res);
	buf_release(&err);
	return 0;
}
