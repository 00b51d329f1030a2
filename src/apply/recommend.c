/*
 * Arms the RUN's analysis recommends (recommend.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply/pyqual.h"
#include "apply/recommend.h"
#include "json/jsonio.h"
#include "rundir/layout.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

/* The step rules whose advice is an arm: the rule, and the arm. */
static const struct {
	const char *rule;
	enum ab_arm arm;
} arm_rules[] = {
	{ "fp32_matmul", AB_TF32 },
};

static int fired(const json_t *group, const char *rule)
{
	const json_t *r;
	size_t i;

	json_array_foreach(json_object_get(group, "rules"), i, r)
		if (json_str(r, "rule") && !strcmp(json_str(r, "rule"), rule))
			return 1;
	return 0;
}

static int ran(enum ab_arm a, const enum ab_arm *arms, size_t narms)
{
	size_t i;

	for (i = 0; i < narms; i++)
		if (arms[i] == a)
			return 1;
	return 0;
}

static void add_groups(json_t *out, const json_t *doc, size_t k, const enum ab_arm *arms,
		       size_t narms)
{
	const json_t *g;
	size_t i;

	json_array_foreach(json_object_get(doc, "step_groups"), i, g) {
		if (!fired(g, arm_rules[k].rule))
			continue;
		json_array_append_new(out, json_pack("{s:s, s:s, s:O?, s:O?, s:O?, s:b}",
						     "arm", ab_arms[arm_rules[k].arm].name,
						     "rule", arm_rules[k].rule,
						     "op", json_object_get(g, "op"),
						     "kernel", json_object_get(g, "kernel"),
						     "share", json_object_get(g, "share"),
						     "in_ab", ran(arm_rules[k].arm, arms, narms)));
	}
}

/* "MODULE:QUALNAME" of the function around origin `o`, when its source can be read. */
static char *keep_off_of(const json_t *o)
{
	const char *file = json_str(o, "file");
	char *module = file ? py_module_of(file) : NULL, *qual = NULL, *spec = NULL;
	struct buf text = BUF_INIT, ignored = BUF_INIT;

	if (module && file_read(file, 16 << 20, &text, &ignored) == 0)
		qual = py_qualname_at(text.buf, text.len, json_int(o, "line", 0), json_str(o, "function"));
	if (qual)
		spec = xstrfmt("%s:%s", module, qual);
	free(module);
	free(qual);
	buf_release(&text);
	buf_release(&ignored);
	return spec;
}

/* `spec` is one of the comma-separated regions of `list`. */
static int listed(const char *list, const char *spec)
{
	size_t n = strlen(spec);
	const char *p = list;

	while (p && *p) {
		size_t len = strcspn(p, ",");

		if (len == n && !memcmp(p, spec, n))
			return 1;
		p += len + (p[len] == ',');
	}
	return 0;
}

static const char *keep_off_rule(const json_t *k)
{
	const json_t *r;
	size_t i;

	json_array_foreach(json_object_get(k, "rules"), i, r)
		if (json_str(r, "decision") && !strcmp(json_str(r, "decision"), "keep_off"))
			return json_str(r, "rule");
	return NULL;
}

/*
 * Kernels whose decision is to keep TorchInductor off their region: one
 * recommendation of the keep-off arm a region (the first origin's line).
 */
static void add_keep_off(json_t *out, const json_t *doc, const enum ab_arm *arms, size_t narms,
			 const char *keep_off)
{
	const json_t *k, *o;
	size_t i, j;

	int arm_ran = ran(AB_KEEP_OFF, arms, narms) || ran(AB_APPLIED_KEEP_OFF, arms, narms);

	json_array_foreach(json_object_get(doc, "kernels"), i, k) {
		const char *d = json_str(k, "decision");
		const json_t *had;
		char *where, *spec;
		int seen = 0;

		o = json_array_get(json_object_get(k, "origins"), 0);
		if (!d || strcmp(d, "keep_off") || !json_str(o, "file"))
			continue;
		where = xstrfmt("%s:%lld%s%s", json_str(o, "file"), json_int(o, "line", 0),
				json_str(o, "function") ? " in " : "",
				json_str(o, "function") ? json_str(o, "function") : "");
		json_array_foreach(out, j, had)
			seen |= json_str(had, "where") && !strcmp(json_str(had, "where"), where);
		spec = seen ? NULL : keep_off_of(o);
		if (!seen)
			json_array_append_new(out, json_pack("{s:s, s:s?, s:n, s:O?, s:O?, s:b, s:s, s:s?}",
				"arm", ab_arms[AB_KEEP_OFF].name, "rule", keep_off_rule(k), "op",
				"kernel", json_object_get(k, "name"), "share", json_object_get(k, "share"),
				"in_ab", arm_ran && (!spec || listed(keep_off, spec)),
				"where", where, "keep_off", spec));
		free(where);
		free(spec);
	}
}

json_t *apply_recommend(const char *run, const enum ab_arm *arms, size_t narms, const char *keep_off,
			struct buf *err)
{
	char *path = rd_path_in(run, RD_KERNELS_JSON);
	json_t *out = json_array(), *doc = NULL;
	size_t k;

	if (access(path, F_OK) < 0 && errno == ENOENT)
		goto done;
	doc = json_load_path(path, err);
	if (!doc) {
		json_decref(out);
		out = NULL;
		goto done;
	}
	for (k = 0; k < sizeof(arm_rules) / sizeof(arm_rules[0]); k++)
		add_groups(out, doc, k, arms, narms);
	add_keep_off(out, doc, arms, narms, keep_off);
done:
	json_decref(doc);
	free(path);
	return out;
}
