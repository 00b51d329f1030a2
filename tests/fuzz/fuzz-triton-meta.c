/*
 * Fuzzes the kernel-source scanner (parse/triton_meta.c, with tl_uses.c
 * and the decorator literals through pylit.c): one Python module in, its
 * Triton kernels out, each turned into `tko meta` JSON and into tko tune's
 * kernel (tune/kernel.c) with its search space on a HIP and a CUDA target
 * (tune/space.c).
 */
#include "fuzz.h"
#include "parse/meta.h"
#include "parse/triton_meta.h"
#include "report/meta_json.h"
#include "target/target.h"
#include "tune/kernel.h"
#include "tune/space.h"
#include "banned.h"

static void tune_of(const struct meta_kernel *mk)
{
	static const char *const archs[] = { "gfx936", "sm_90" };
	struct tune_kernel k;
	size_t i;

	tune_kernel_init(&k);
	tune_kernel_from_meta(mk, "fuzz.py", &k);
	for (i = 0; i < sizeof(archs) / sizeof(archs[0]); i++) {
		struct tune_space s;
		struct tune_config cfg;
		struct buf out = BUF_INIT;
		json_t *j;

		tune_space_build(&s, &k, target_find(archs[i]));
		tune_config_default(&s, &k, &cfg);
		tune_config_valid(&s, &cfg, &out);
		j = tune_config_to_json(&s, &cfg);
		json_decref(j);
		buf_release(&out);
	}
	tune_kernel_release(&k);
}

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
		tune_of(l.v[i]);
	}
	meta_kernel_list_release(&l);
	buf_release(&err);
	return 0;
}
