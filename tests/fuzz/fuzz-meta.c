/*
 * Fuzzes `tko meta` on one file (parse/meta.c): the module read as a
 * kernel file or an Inductor wrapper (inductor_wrapper.c, whose embedded
 * kernel sources are read too), linked, and written as JSON, streamed JSON
 * and the terminal pages.
 */
#include "fuzz.h"
#include "parse/meta.h"
#include "report/meta_json.h"
#include "report/meta_text.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct meta_set set = META_SET_INIT;
	struct buf err = BUF_INIT;
	json_t *j;

	meta_scan_span(&set, "fuzz.py", (const char *)data, size, &err);
	meta_link(&set);
	j = meta_to_json(&set, NULL, 0);
	json_decref(j);
	meta_write_json(fuzz_sink(), &set, NULL, 0);
	meta_print_summary(fuzz_sink(), (const struct meta_kernel *const *)set.kernels.v,
			   set.kernels.nr);
	if (set.kernels.nr)
		meta_print_kernel(fuzz_sink(), set.kernels.v[0]);
	meta_set_release(&set);
	buf_release(&err);
	return 0;
}
