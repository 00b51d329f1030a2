/*
 * Fuzzes what tko tune reads from its Python worker (py/worker.c hands
 * each reply line to these): a describe reply's kernels (tune/kernel.c),
 * the search space built from them on a HIP and a CUDA target
 * (tune/space.c) with a config read from the reply, and a compile or bench
 * reply's result (tune/result.c).
 */
#include "fuzz.h"
#include "target/target.h"
#include "tune/kernel.h"
#include "tune/result.h"
#include "tune/space.h"
#include "util/jsonio.h"
#include "banned.h"

static void space_of(const struct tune_kernel *k, const json_t *rep)
{
	static const char *const archs[] = { "gfx936", "sm_90" };
	size_t i;

	for (i = 0; i < sizeof(archs) / sizeof(archs[0]); i++) {
		struct tune_space s;
		struct tune_config cfg;
		struct buf out = BUF_INIT;
		json_t *j;

		tune_space_build(&s, k, target_find(archs[i]));
		tune_config_default(&s, k, &cfg);
		tune_config_from_json(&s, json_object_get(rep, "config"), &cfg);
		tune_config_valid(&s, &cfg, &out);
		tune_config_diff(&s, &cfg, NULL, &out);
		j = tune_config_to_json(&s, &cfg);
		json_decref(j);
		buf_release(&out);
	}
}

static void describe(const json_t *d, const json_t *rep)
{
	struct tune_kernel k;
	struct buf err = BUF_INIT;

	tune_kernel_init(&k);
	if (!tune_kernel_from_describe(d, "fuzz.py", &k, &err)) {
		tune_kernel_from_capture(&k, json_object_get(rep, "args"));
		space_of(&k, rep);
	}
	tune_kernel_release(&k);
	buf_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf err = BUF_INIT;
	json_t *rep = json_load_span("tune worker reply", (const char *)data, size, &err);
	struct tune_results rs = TUNE_RESULTS_INIT;
	const json_t *d;
	size_t i;

	if (rep) {
		json_array_foreach(json_object_get(rep, "kernels"), i, d)
			describe(d, rep);
		tune_result_from_reply(tune_results_at(&rs, 0), rep);
		tune_results_release(&rs);
	}
	json_decref(rep);
	buf_release(&err);
	return 0;
}
