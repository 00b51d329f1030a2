/*
 * Fuzzes the kernel-source scanner (parse/triton_meta.c, with tl_uses.c
 * and the decorator literals through pylit.c): one Python module in, its
 * Triton kernels out, each turned into `tko meta` JSON.
 */
#include "fuzz.h"
#include "parse/meta.h"
#include "parse/triton_meta.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct meta_kernel_list l = META_KERNEL_LIST_INIT;
	struct buf err = BUF_INIT;
	size_t i;

	triton_meta_scan(&l, "fuzz.py", (const char *)data, size, 0, &err);
	for (i = 0; i < l.nr; i++) {
		json_t *j = meta_kernel_to_json(l.v[i]);

		json_decref(j);
		meta_kernel_arg(l.v[i], "x_ptr");
	}
	meta_kernel_list_release(&l);
	buf_release(&err);
	return 0;
}
