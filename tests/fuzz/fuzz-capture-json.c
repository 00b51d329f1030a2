/*
 * Fuzzes what tko run and tko tune read from a captured kernel's
 * capture.json: the arguments' byte footprint and the bytes a launch
 * moves (model/traffic.c, without a kernel source), the
 * argument types and constexprs a hand-written kernel gets from them
 * (tune/kernel.c), and the captured configs read over a search space
 * (tune/space.c), as tune/sweep.c does.
 */
#include "fuzz.h"
#include "model/traffic.h"
#include "target/target.h"
#include "tune/kernel.h"
#include "tune/space.h"
#include "util/jsonio.h"
#include "banned.h"

/* A describe entry naming the captured arguments, as the worker would. */
static json_t *describe_of(const json_t *args)
{
	json_t *params = json_array();
	const json_t *a;
	size_t i;

	json_array_foreach(args, i, a)
		if (json_str(a, "name"))
			json_array_append_new(params, json_pack("{s:s}", "name", json_str(a, "name")));
	return json_pack("{s:s, s:o}", "name", "k", "params", params);
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
	json_t *d;

	if (cap) {
		struct traffic t;

		traffic_footprint(args);
		traffic_count(&t, cap, NULL);
		traffic_release(&t);
		d = describe_of(args);
		tune_kernel_init(&k);
		if (!tune_kernel_from_describe(d, "kernel.py", &k, &err)) {
			tune_kernel_from_capture(&k, args);
			configs(&k, cap);
		}
		tune_kernel_release(&k);
		json_decref(d);
	}
	json_decref(cap);
	buf_release(&err);
	return 0;
}
