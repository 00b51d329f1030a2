/*
 * Fuzzes what tko run and tko tune read from a captured kernel's
 * capture.json: the arguments' byte footprint and the bytes a launch
 * moves (model/traffic.c, without a kernel source: fuzz-kernel-uses.c
 * counts with one), the
 * argument types and constexprs a hand-written kernel gets from them
 * (tune/kernel.c), and the captured configs read over a search space
 * (tune/space.c), as tune/sweep.c does.
 */
#include <string.h>

#include "fuzz.h"
#include "json/jsonio.h"
#include "model/traffic.h"
#include "parse/triton_meta.h"
#include "target/target.h"
#include "tune/kernel.h"
#include "tune/space.h"
#include "banned.h"

/* A hand-written kernel whose parameters are the captured arguments' names. */
static void kernel_of(const json_t *args, struct tune_kernel *k)
{
	struct meta_kernel_list l = META_KERNEL_LIST_INIT;
	struct buf src = BUF_INIT, err = BUF_INIT;
	const json_t *a;
	size_t i, n = 0;

	buf_adds(&src, "@triton.jit\ndef k(");
	json_array_foreach(args, i, a) {
		const char *name = json_str(a, "name");

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

static void configs(const struct tune_kernel *k, const json_t *cap)
{
	struct tune_space s;
	struct tune_config cfg;
	const json_t *c;
	size_t i;

	tune_space_build(&s, k, target_find("gfx942"));
	json_array_foreach(json_object_get(cap, "configs"), i, c) {
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
	const json_t *args = json_object_get(cap, "args");
	struct tune_kernel k;

	if (cap) {
		struct traffic t;

		traffic_footprint(args);
		traffic_count(&t, cap, NULL);
		traffic_release(&t);
		tune_kernel_init(&k);
		kernel_of(args, &k);
		if (k.name) {
			tune_kernel_from_capture(&k, args);
			configs(&k, cap);
		}
		tune_kernel_release(&k);
	}
	json_decref(cap);
	buf_release(&err);
	return 0;
}
