/*
 * tune/kernel.c builds a kernel from parse/triton_meta.h. Before it did,
 * tko asked the Python worker to read the source with `ast` ("describe").
 * tests/data/tune/describe/ holds that worker's replies for every kernel
 * module the tune tests use (README.md there says how they were made); the
 * reader of those replies is kept here, as it was in src/tune/kernel.c, and
 * both ways must give the same kernel, field by field.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "json/jsonio.h"
#include "parse/triton_meta.h"
#include "tune/kernel.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/walk.h"
#include "banned.h"

/* ---- the describe reply's reader (src/tune/kernel.c before meta) ---- */

static const struct {
	const char *decorator;
	enum tune_kind kind;
} old_kinds[] = {
	{ "pointwise", TUNE_KIND_POINTWISE },
	{ "reduction", TUNE_KIND_REDUCTION },
	{ "cooperative_reduction", TUNE_KIND_REDUCTION },
	{ "persistent_reduction", TUNE_KIND_PERSISTENT },
	{ "template", TUNE_KIND_TEMPLATE },
	{ "user_autotune", TUNE_KIND_USER },
	{ "autotune", TUNE_KIND_USER },
	{ "foreach", TUNE_KIND_FOREACH },
	{ "split_scan", TUNE_KIND_SPLIT_SCAN },
	{ "fixed_config", TUNE_KIND_FIXED },
};

static const char *const hint_keys[TUNE_NDIMS] = { "x", "y", "z", "r0_", "r1_" };

static enum tune_kind old_kind_of(const char *heuristic)
{
	size_t i;

	if (!heuristic)
		return TUNE_KIND_USER;
	for (i = 0; i < sizeof(old_kinds) / sizeof(old_kinds[0]); i++)
		if (!strcmp(old_kinds[i].decorator, heuristic))
			return old_kinds[i].kind;
	return TUNE_KIND_OTHER;
}

static void old_add_arg(struct tune_kernel *k, const char *name, const char *type)
{
	ALLOC_GROW(k->args, k->nargs + 1, k->alloc);
	memset(&k->args[k->nargs], 0, sizeof(k->args[0]));
	k->args[k->nargs].name = xstrdup(name);
	k->args[k->nargs].type = type ? xstrdup(type) : NULL;
	k->nargs++;
}

static void old_attrs(struct tune_kernel *k, const json_t *configs)
{
	const char *key;
	json_t *list, *pair;
	size_t i;

	json_object_foreach(json_array_get(configs, 0), key, list) {
		long idx = strtol(key, NULL, 10);

		assert_true(idx >= 0 && (size_t)idx < k->nargs);
		json_array_foreach(list, i, pair) {
			const char *what = json_string_value(json_array_get(pair, 0));
			int v = (int)json_integer_value(json_array_get(pair, 1));

			if (what && !strcmp(what, "tt.divisibility"))
				k->args[idx].divisibility = v;
			else if (what && !strcmp(what, "tt.pointer_range"))
				k->args[idx].pointer_range = v;
		}
	}
}

static void old_inductor_meta(struct tune_kernel *k, const json_t *im)
{
	json_t *mut = json_object_get(im, "mutated_arg_names");

	if (json_str(im, "grid_type"))
		k->grid_type = xstrdup(json_str(im, "grid_type"));
	if (json_is_array(mut)) {
		json_decref(k->mutated);
		k->mutated = json_deep_copy(mut);
	}
	if (json_is_number(json_object_get(im, "kernel_num_gb")))
		k->num_gb = json_number_value(json_object_get(im, "kernel_num_gb"));
	if (json_is_object(im))
		k->assert_indexing = !json_is_false(json_object_get(im, "assert_indirect_indexing"));
}

static void old_decorator(struct tune_kernel *k, const json_t *dec)
{
	const json_t *tm = json_object_get(dec, "triton_meta");
	const json_t *sig = json_object_get(tm, "signature");
	const json_t *consts = json_object_get(tm, "constants");
	const json_t *fusion = json_object_get(tm, "enable_fp_fusion");
	size_t i;
	int d;

	for (i = 0; i < k->nargs; i++)
		if (json_str(sig, k->args[i].name) && !k->args[i].type)
			k->args[i].type = xstrdup(json_str(sig, k->args[i].name));
	if (json_is_object(consts)) {
		json_decref(k->constants);
		k->constants = json_deep_copy(consts);
	}
	if (json_is_boolean(fusion))
		k->fp_fusion = json_is_true(fusion);
	k->launch_pdl = json_is_true(json_object_get(tm, "launch_pdl"));
	k->disable_ftz = json_is_true(json_object_get(tm, "disable_ftz"));
	for (d = 0; d < TUNE_NDIMS; d++)
		k->size_hint[d] = (long)json_integer_value(
			json_object_get(json_object_get(dec, "size_hints"), hint_keys[d]));
	old_inductor_meta(k, json_object_get(dec, "inductor_meta"));
	k->num_warps = (int)json_int(dec, "num_warps", 0);
	k->num_stages = (int)json_int(dec, "num_stages", 0);
	old_attrs(k, json_object_get(tm, "configs"));
}

static void from_describe(const json_t *d, const char *source, struct tune_kernel *k)
{
	const json_t *dec = json_object_get(d, "decorator"), *bc = json_object_get(d, "body_constexprs");
	const char *heur = json_str(d, "heuristic");
	json_t *p;
	size_t i;

	k->name = xstrdup(json_str(d, "name"));
	k->source = xstrdup(source);
	k->kind = old_kind_of(heur);
	k->heuristic = heur ? xstrdup(heur) : NULL;
	k->def_line = (long)json_int(d, "def_line", 0);
	k->end_line = (long)json_int(d, "end_line", 0);
	json_array_foreach(json_object_get(d, "params"), i, p) {
		const char *ann = json_str(p, "annotation");

		old_add_arg(k, json_str(p, "name"), ann && strstr(ann, "constexpr") ? "constexpr" : NULL);
	}
	if (json_is_object(bc)) {
		json_decref(k->body_consts);
		k->body_consts = json_deep_copy(bc);
		k->even_k = json_is_true(json_object_get(bc, "EVEN_K"));
	}
	if (json_is_object(dec))
		old_decorator(k, dec);
}

/* ---- the comparison ---- */

static void same_str(const char *a, const char *b, const char *what, const char *kernel)
{
	if ((a == NULL) != (b == NULL) || (a && strcmp(a, b)))
		fail_msg("%s: %s is '%s' from meta, '%s' from describe", kernel, what,
			 a ? a : "(null)", b ? b : "(null)");
}

static void same_json(const json_t *a, const json_t *b, const char *what, const char *kernel)
{
	if (!json_equal((json_t *)a, (json_t *)b)) {
		char *x = json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS);
		char *y = json_dumps(b, JSON_COMPACT | JSON_SORT_KEYS);

		fail_msg("%s: %s is %s from meta, %s from describe", kernel, what, x, y);
	}
}

static void same_kernel(const struct tune_kernel *m, const struct tune_kernel *d)
{
	const char *n = d->name;
	size_t i;
	int j;

	same_str(m->name, d->name, "name", n);
	same_str(m->source, d->source, "source", n);
	assert_int_equal(m->kind, d->kind);
	same_str(m->heuristic, d->heuristic, "heuristic", n);
	assert_int_equal(m->nargs, d->nargs);
	for (i = 0; i < d->nargs; i++) {
		same_str(m->args[i].name, d->args[i].name, "argument name", n);
		same_str(m->args[i].type, d->args[i].type, m->args[i].name, n);
		assert_int_equal(m->args[i].divisibility, d->args[i].divisibility);
		assert_int_equal(m->args[i].pointer_range, d->args[i].pointer_range);
	}
	same_json(m->constants, d->constants, "constants", n);
	for (j = 0; j < TUNE_NDIMS; j++)
		assert_int_equal(m->size_hint[j], d->size_hint[j]);
	same_json(m->body_consts, d->body_consts, "body constexprs", n);
	same_str(m->grid_type, d->grid_type, "grid_type", n);
	same_json(m->mutated, d->mutated, "mutated_arg_names", n);
	assert_true(m->num_gb == d->num_gb);
	assert_int_equal(m->num_warps, d->num_warps);
	assert_int_equal(m->num_stages, d->num_stages);
	assert_int_equal(m->fp_fusion, d->fp_fusion);
	assert_int_equal(m->assert_indexing, d->assert_indexing);
	assert_int_equal(m->launch_pdl, d->launch_pdl);
	assert_int_equal(m->disable_ftz, d->disable_ftz);
	assert_int_equal(m->even_k, d->even_k);
	if (m->def_line != d->def_line || m->end_line != d->end_line)
		fail_msg("%s: lines %ld-%ld from meta, %ld-%ld from describe", n, m->def_line,
			 m->end_line, d->def_line, d->end_line);
}

/* One recorded reply: the same kernels, in the same order, each the same. */
static size_t check_reply(const char *root, const char *path)
{
	struct buf err = BUF_INIT, text = BUF_INIT;
	struct meta_kernel_list l = META_KERNEL_LIST_INIT;
	json_t *rec = json_load_path(path, &err), *d;
	const char *src;
	char *file;
	size_t i;

	assert_non_null(rec);
	src = json_str(json_object_get(rec, "request"), "source");
	assert_non_null(src);
	file = path_join(root, src);
	assert_int_equal(file_read(file, 64u << 20, &text, &err), 0);
	assert_true(triton_meta_scan(&l, src, text.buf, text.len, 0, &err) >= 0);
	d = json_object_get(json_object_get(rec, "reply"), "kernels");
	assert_int_equal(l.nr, json_array_size(d));
	for (i = 0; i < l.nr; i++) {
		struct tune_kernel km, kd;

		tune_kernel_init(&km);
		tune_kernel_init(&kd);
		tune_kernel_from_meta(l.v[i], src, &km);
		from_describe(json_array_get(d, i), src, &kd);
		same_kernel(&km, &kd);
		tune_kernel_release(&km);
		tune_kernel_release(&kd);
	}
	meta_kernel_list_release(&l);
	json_decref(rec);
	free(file);
	buf_release(&text);
	buf_release(&err);
	return i;
}

/* Every recorded module: 61 replies (ls | wc -l) holding 56 kernels (jq .reply.kernels | length). */
static void test_meta_equals_describe(void **state)
{
	const char *data = getenv("TESTDATA");
	struct strlist files = STRLIST_INIT;
	struct buf err = BUF_INIT;
	char *dir, *root;
	size_t i, replies = 0, kernels = 0;

	(void)state;
	if (!data)
		skip();
	dir = path_join(data, "tune/describe");
	root = path_join(data, "../..");
	assert_int_equal(walk_files(dir, &files, &err), 0);
	for (i = 0; i < files.nr; i++) {
		size_t n = strlen(files.v[i]);

		if (n < 5 || strcmp(files.v[i] + n - 5, ".json"))
			continue;
		kernels += check_reply(root, files.v[i]);
		replies++;
	}
	assert_int_equal(replies, 61);
	assert_int_equal(kernels, 56);
	walk_release(&files);
	buf_release(&err);
	free(dir);
	free(root);
}

/*
 * Kinds come from model/names.h: each Inductor heuristic, the user's, and
 * one tko does not know, whose triton_meta still types the arguments.
 */
static void test_kinds(void **state)
{
	static const struct {
		const char *src;
		enum tune_kind kind;
		const char *heuristic;
	} rows[] = {
		{ "@triton_heuristics.pointwise(size_hints={'x': 8})\n@triton.jit\ndef k(x):\n    pass\n",
		  TUNE_KIND_POINTWISE, "pointwise" },
		{ "@triton_heuristics.cooperative_reduction(size_hints={})\n@triton.jit\ndef k(x):\n    pass\n",
		  TUNE_KIND_REDUCTION, "cooperative_reduction" },
		{ "@triton_heuristics.foreach(num_warps=8)\n@triton.jit\ndef k(x):\n    pass\n",
		  TUNE_KIND_FOREACH, "foreach" },
		{ "@triton.autotune(configs=[], key=[])\n@triton.jit\ndef k(x):\n    pass\n",
		  TUNE_KIND_USER, "autotune" },
		{ "@triton.jit\ndef k(x):\n    pass\n", TUNE_KIND_USER, NULL },
		{ "@triton.autotune(configs=[], key=[])\n@triton.heuristics({})\n@triton.jit\n"
		  "def k(x):\n    pass\n", TUNE_KIND_OTHER, "heuristics" },
		{ "@triton_heuristics.newfangled(triton_meta={'signature': {'x': '*fp32'}})\n"
		  "@triton.jit\ndef k(x):\n    pass\n", TUNE_KIND_OTHER, "newfangled" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct meta_kernel_list l = META_KERNEL_LIST_INIT;
		struct buf err = BUF_INIT;
		struct tune_kernel k;

		assert_int_equal(triton_meta_scan(&l, "k.py", rows[i].src, strlen(rows[i].src), 0,
						  &err), 1);
		tune_kernel_init(&k);
		tune_kernel_from_meta(l.v[0], "k.py", &k);
		assert_int_equal(k.kind, rows[i].kind);
		same_str(k.heuristic, rows[i].heuristic, "heuristic", rows[i].src);
		assert_int_equal(k.def_line, 1);
		same_str(k.args[0].type, i + 1 == sizeof(rows) / sizeof(rows[0]) ? "*fp32" : NULL,
			 "type of x", rows[i].src);
		tune_kernel_release(&k);
		meta_kernel_list_release(&l);
		buf_release(&err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meta_equals_describe),
		cmocka_unit_test(test_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
