/*
 * Fuzzes what tko run and tko tune read from a captured kernel's
 * capture.json: its typed read (model/capture.c), the arguments' byte
 * footprint and the bytes a launch moves (model/traffic.c, without a
 * kernel source: fuzz-kernel-uses.c counts with one), the argument types
 * and constexprs a hand-written kernel gets from them (tune/kernel.c),
 * and the captured configs read over a search space (tune/space.c), as
 * tune/sweep.c does.
 */
#include <string.h>

#include "fuzz.h"
#include "json/jsonio.h"
#include "model/capture.h"
#include "model/traffic.h"
#include "parse/triton_meta.h"
#include "target/target.h"
#include "tune/kernel.h"
#include "tune/space.h"
#include "banned.h"

/* A hand-written kernel whose parameters are the captured arguments' names. */
static void kernel_of(const struct capture_doc *cap, struct tune_kernel *k)
{
	struct meta_kernel_list l = META_KERNEL_LIST_INIT;
	struct buf src = BUF_INIT, err = BUF_INIT;
	size_t i, n = 0;

	buf_adds(&src, "@triton.jit\ndef k(");
	for (i = 0; i < cap->nargs; i++) {
		const char *name = cap->args[i].name;

		if (name && *name && strspn(name, "abcdefghijklmnopqrstuvwxyz_0123456789") ==
		    strlen(name) && !(*name >= '0' && *name <= '9'))
			buf_addf(&src, "%s%s", n++ ? ", " : "", name);
	}
	buf_adds(&src, "):\n    pass\n");
	if (triton_meta_scan(&l, "kernel.py", src.buf, src.len, 0, &err) == 1)
		tune_kernel_from_meta(l.v[0], "kernel.py", k);
	meta_kernel_list_release(&l);
	buf_release(&src);
	buf_release(&err);
}

static void configs(const struct tune_kernel *k, const struct capture_doc *cap)
{
	struct tune_space s;
	struct tune_config cfg;
	size_t i;

	tune_space_build(&s, k, target_find("gfx942"));
	for (i = 0; i < cap->nconfigs; i++) {
		const json_t *c = cap->configs[i].kept;
		json_t *j;

		tune_config_default(&s, k, &cfg);
		tune_config_from_json(&s, c, &cfg);
		j = tune_config_to_json(&s, &cfg);
		json_decref(j);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf err = BUF_INIT;
	json_t *cap = json_load_span("capture.json", (const char *)data, size, &err);
	struct capture_doc doc;
	struct tune_kernel k;

	capture_init(&doc);
	if (cap && capture_read(&doc, cap, "capture.json", &err) == 0) {
		struct traffic t;

		traffic_footprint(&doc);
		traffic_count(&t, &doc, NULL);
		traffic_release(&t);
		tune_kernel_init(&k);
		kernel_of(&doc, &k);
		if (k.name) {
			tune_kernel_from_capture(&k, &doc);
			configs(&k, &doc);
		}
		tune_kernel_release(&k);
	}
	capture_release(&doc);
	json_decref(cap);
	buf_release(&err);
	return 0;
}
