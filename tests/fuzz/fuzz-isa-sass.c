/*
 * Fuzzes the ISA scanner on SASS listings (cuobjdump -sass, nvdisasm)
 * (isa/scan.c isa_scan_text), then the findings, the JSON document and the
 * terminal and Markdown renderings of what it found.
 */
#include "fuzz.h"
#include "isa/isa.h"
#include "isa/render.h"
#include "util/mem.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct isa_result res = ISA_RESULT_INIT;
	struct isa_file_result *f = xcalloc(1, sizeof(*f));
	struct buf err = BUF_INIT;

	isa_file_init(f, "fuzz.s");
	if (isa_scan_text("fuzz.s", (const char *)data, size, ISA_SASS, f, &err) < 0) {
		isa_file_release(f);
		free(f);
	} else {
		json_t *j;

		ALLOC_GROW(res.files, res.files_nr + 1, res.files_alloc);
		res.files[res.files_nr++] = f;
		j = isa_result_to_json(&res);
		json_decref(j);
		isa_render_text(fuzz_sink(), &res, 1);
		isa_render_md(fuzz_sink(), &res);
	}
	isa_result_release(&res);
	buf_release(&err);
	return 0;
}
