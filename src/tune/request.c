/*
 * Building worker requests (see request.h).
 *
 * Tolerances: a variant may sum in another order (another R0_BLOCK, more
 * warps), so floating outputs are compared with torch.allclose at about
 * the rounding of a reordered sum, looser for 16-bit types; integers and
 * booleans must be equal.
 */
#include <string.h>

#include "json/jsonio.h"
#include "tune/grid.h"
#include "tune/request.h"
#include "tune/sweep.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

static const struct {
	const char *dtype;	/* torch dtype name */
	double rtol, atol;
} tolerances[] = {
	{ "float64", 1e-7, 1e-7 },
	{ "float32", 1e-4, 1e-5 },
	{ "float16", 1e-2, 1e-3 },
	{ "bfloat16", 2e-2, 1e-2 },
	{ "default", 0, 0 },
};

/* Timing repetitions: enough for a stable median of short kernels. */
#define BENCH_REPS 50
#define BENCH_WARMUP 5

json_t *tune_tolerances(void)
{
	json_t *j = json_object();
	size_t i;

	for (i = 0; i < sizeof(tolerances) / sizeof(tolerances[0]); i++)
		json_object_set_new(j, tolerances[i].dtype,
				    json_pack("[f, f]", tolerances[i].rtol, tolerances[i].atol));
	return j;
}

int tune_request_check(const struct tune_kernel *k, const struct tune_space *s,
		       struct buf *err)
{
	size_t i;

	for (i = 0; i < k->nargs; i++) {
		const struct tune_arg *a = &k->args[i];
		int j = tune_space_find(s, a->name);

		if (strcmp(a->type, "constexpr") || json_object_get(k->constants, a->name) ||
		    (j >= 0 && s->p[j].at == TUNE_AT_CONSTEXPR))
			continue;
		buf_addf(err, "constexpr '%s' of '%s' has no value (give --const %s=VALUE)",
			 a->name, k->name, a->name);
		return -1;
	}
	return 0;
}

static json_t *signature(const struct tune_kernel *k)
{
	json_t *sig = json_object();
	size_t i;

	for (i = 0; i < k->nargs; i++) {
		const char *t = k->args[i].type;

		if (json_object_get(k->constants, k->args[i].name))
			t = "constexpr";
		json_object_set_new(sig, k->args[i].name, json_string(t));
	}
	return sig;
}

static json_t *attrs(const struct tune_kernel *k, unsigned src)
{
	json_t *a = json_object();
	size_t i;

	for (i = 0; i < k->nargs; i++) {
		const struct tune_arg *arg = &k->args[i];
		int range = arg->pointer_range ? arg->pointer_range
			: (src & TUNE_SRC_PTR32) && tune_arg_is_ptr(arg) ? 32 : 0;
		json_t *list = json_array();
		char key[24];

		if (arg->divisibility)
			json_array_append_new(list, json_pack("[s, i]", "tt.divisibility",
							      arg->divisibility));
		if (range)
			json_array_append_new(list, json_pack("[s, i]", "tt.pointer_range", range));
		snprintf(key, sizeof(key), "%zu", i);
		if (json_array_size(list))
			json_object_set_new(a, key, list);
		else
			json_decref(list);
	}
	return a;
}

/*
 * Inductor compiles its kernels with debug = assert_indirect_indexing and
 * not HIP (_precompile_config), which keeps their tl.device_assert index
 * checks; a variant is compiled the same way, so that it is timed with the
 * same checks as the config it is compared with.
 */
static int inductor_debug(const struct tune_sweep *s)
{
	return s->k.kind != TUNE_KIND_USER && s->k.assert_indexing > 0 &&
	       s->arch->backend == TARGET_CUDA;
}

/* Inductor's CUDA-only options (torch 2.11 _precompile_config). */
static void cuda_options(const struct tune_sweep *s, json_t *opts)
{
	if (s->arch->backend != TARGET_CUDA)
		return;
	if (s->k.launch_pdl)
		json_set_bool(opts, "launch_pdl", 1);
	if (s->k.disable_ftz)
		json_set_bool(opts, "enable_reflect_ftz", 0);
}

/* Arguments the kernel writes: Inductor's mutated ones, its out_ptr* and a
 * mix-order reduction's ws_ptr (partial sums the wrapper reads after it);
 * for a hand-written kernel without that knowledge, every pointer. */
static json_t *outputs(const struct tune_sweep *s)
{
	/* capture.json's list when it has one (even empty), else the kernel's */
	const struct capture_doc *cap = s->capture && s->capture->have_mutated ? s->capture : NULL;
	const json_t *mut = s->k.mutated;
	size_t nmut = cap ? cap->nmutated : json_array_size(mut);
	json_t *out = json_array();
	size_t i, j;
	int known = json_array_size(s->k.mutated) || s->k.kind != TUNE_KIND_USER;

	for (i = 0; i < s->k.nargs; i++) {
		const char *n = s->k.args[i].name;
		int w = !strncmp(n, "out_ptr", 7) || !strncmp(n, "in_out_ptr", 10) ||
			(s->k.kind != TUNE_KIND_USER && !strcmp(n, "ws_ptr")) ||
			(!known && !nmut && tune_arg_is_ptr(&s->k.args[i]));

		if (cap)
			w = w || capture_mutates(cap, n);
		for (j = 0; !cap && !w && j < nmut; j++)
			w = !strcmp(json_string_value(json_array_get(mut, j)) ?
				    json_string_value(json_array_get(mut, j)) : "", n);
		if (w)
			json_array_append_new(out, json_integer((json_int_t)i));
	}
	return out;
}

static void add_bench(const struct tune_sweep *s, const struct tune_variant *v, json_t *req)
{
	long grid[3] = { 1, 1, 1 };
	struct buf err = BUF_INIT;
	json_t *params = json_array();
	char ref[24], *rf;
	size_t i;

	snprintf(ref, sizeof(ref), "v%03ld", s->plan.base);
	if (tune_grid(s, &v->cfg, grid, &err) < 0)
		json_set_str(req, "grid_error", err.buf);
	json_object_set_new(req, "grid", json_pack("[I, I, I]", (json_int_t)grid[0],
						   (json_int_t)grid[1], (json_int_t)grid[2]));
	for (i = 0; i < s->k.nargs; i++)
		json_array_append_new(params, json_string(s->k.args[i].name));
	json_object_set_new(req, "params", params);
	/* the edge: the worker loads the inputs from capture.json's lists as written */
	json_object_set_new(req, "inputs", json_pack("{s:s, s:O?, s:O?}", "dir", s->input,
		"args", s->capture ? capture_args_json(s->capture) : NULL,
		"storages", s->capture ? s->capture->storages : NULL));
	json_object_set_new(req, "outputs", outputs(s));
	json_object_set_new(req, "mutated", outputs(s));
	json_set_str(req, "reference", ref);
	rf = path_join(s->out_dir, TUNE_REFERENCE_FILE);
	json_set_str(req, "reference_file", rf);
	free(rf);
	json_set_bool(req, "is_reference", (long)v->index == s->plan.base);
	json_object_set_new(req, "tolerances", tune_tolerances());
	json_set_int(req, "reps", BENCH_REPS);
	json_set_int(req, "warmup", BENCH_WARMUP);
	json_set_bool(req, "random_inputs", 1);
	if (s->ws.arg >= 0)
		json_object_set_new(req, "workspace", tune_workspace_json(&s->ws,
			v->cfg.v[tune_space_find(&s->plan.space, "RSPLIT_SIZE")]));
	buf_release(&err);
}

json_t *tune_request_new(const struct tune_sweep *s, const struct tune_variant *v,
			 const char *source, const char *dir)
{
	json_t *cfg = tune_config_to_json(&s->plan.space, &v->cfg);
	json_t *consts = json_deep_copy(s->k.constants);
	json_t *opts = json_deep_copy(json_object_get(cfg, "options"));
	json_t *req = json_object();
	char id[24];

	snprintf(id, sizeof(id), "v%03zu", v->index);
	json_object_update(consts, json_object_get(cfg, "kwargs"));
	if (s->k.fp_fusion >= 0)
		json_set_bool(opts, "enable_fp_fusion", s->k.fp_fusion);
	json_set_bool(opts, "debug", inductor_debug(s));
	cuda_options(s, opts);
	json_set_str(req, "op", s->o->compile_only ? "compile" : "bench");
	json_set_str(req, "id", id);
	json_set_str(req, "source", source);
	json_set_str(req, "kernel", s->k.name);
	json_object_set_new(req, "signature", signature(&s->k));
	json_object_set_new(req, "constants", consts);
	json_object_set_new(req, "attrs", attrs(&s->k, v->src));
	json_object_set(req, "num_warps", json_object_get(cfg, "num_warps"));
	json_object_set(req, "num_stages", json_object_get(cfg, "num_stages"));
	json_object_set_new(req, "options", opts);
	json_object_set_new(req, "target", target_compile_json(s->arch));
	json_set_str(req, "out_dir", dir);
	if (!s->o->compile_only)
		add_bench(s, v, req);
	json_decref(cfg);
	return req;
}
