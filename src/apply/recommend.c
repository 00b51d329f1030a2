/*
 * Arms the RUN's analysis recommends (recommend.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply/pyqual.h"
#include "apply/recommend.h"
#include "model/analysis_store.h"
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

static int fired(const struct an_step_group *g, const char *rule)
{
	size_t i;

	for (i = 0; i < g->nfired; i++)
		if (g->fired[i].rule && !strcmp(g->fired[i].rule, rule))
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

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void add_groups(struct apply_recommended_list *out, const struct an_run *r, size_t k,
		       const enum ab_arm *arms, size_t narms)
{
	size_t i;

	for (i = 0; i < r->nstep_groups; i++) {
		const struct an_step_group *g = &r->step_groups[i];
		struct apply_recommended *a;

		if (!fired(g, arm_rules[k].rule))
			continue;
		a = apply_recommended_add(out);
		a->arm = xstrdup(ab_arms[arm_rules[k].arm].name);
		a->rule = xstrdup(arm_rules[k].rule);
		a->op = dup_or_null(g->op);
		a->kernel = dup_or_null(g->kernel);
		a->share = isfinite(g->share) ? g->share : NAN;	/* NAN: null, as the analysis had none */
		a->in_ab = ran(arm_rules[k].arm, arms, narms);
	}
}

/* The first origin's line, 0 where the analysis has none (as "FILE:0"). */
static long line_of(const struct an_origin *o)
{
	return o->line >= 0 ? o->line : 0;
}

/* `file` is `script` itself (both resolve to one path). */
static int same_file(const char *file, const char *script)
{
	char *a = script ? realpath(file, NULL) : NULL, *b = script ? realpath(script, NULL) : NULL;
	int same = a && b && !strcmp(a, b);

	free(a);
	free(b);
	return same;
}

/*
 * "MODULE:QUALNAME" of the function around origin `o`, when its source can
 * be read; MODULE is __main__ when the file is the command's script.
 */
static char *keep_off_of(const struct an_origin *o, const char *script)
{
	char *module = same_file(o->file, script) ? xstrdup("__main__") : py_module_of(o->file);
	char *qual = NULL, *spec = NULL;
	struct buf text = BUF_INIT, ignored = BUF_INIT;

	if (module && file_read(o->file, 16 << 20, &text, &ignored) == 0)
		qual = py_qualname_at(text.buf, text.len, line_of(o), o->function);
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

static const char *keep_off_rule(const struct an_kernel *k)
{
	size_t i;

	for (i = 0; i < k->nfired; i++)
		if (k->fired[i].decision == DECISION_KEEP_OFF)
			return k->fired[i].rule;
	return NULL;
}

/* A recommendation for the region `where` is already in `out`. */
static int have_where(const struct apply_recommended_list *out, const char *where)
{
	size_t i;

	for (i = 0; i < out->nr; i++)
		if (out->v[i].where && !strcmp(out->v[i].where, where))
			return 1;
	return 0;
}

/* One recommendation of the keep-off arm, for region `where` of kernel k. */
static void keep_off_one(struct apply_recommended_list *out, const struct an_kernel *k,
			 char *where, char *spec, int in_ab)
{
	struct apply_recommended *a = apply_recommended_add(out);

	a->arm = xstrdup(ab_arms[AB_KEEP_OFF].name);
	a->rule = dup_or_null(keep_off_rule(k));
	a->kernel = xstrdup(k->name);
	a->share = isfinite(k->share) ? k->share : NAN;
	a->in_ab = in_ab;
	a->where = where;
	a->has_where = 1;
	a->keep_off = spec;
	a->has_keep_off = 1;
}

/*
 * Kernels whose decision is to keep TorchInductor off their region: one
 * recommendation of the keep-off arm a region (the first origin's line).
 */
static void add_keep_off(struct apply_recommended_list *out, const struct an_run *r,
			 const enum ab_arm *arms, size_t narms, const char *keep_off,
			 const char *script)
{
	int arm_ran = ran(AB_KEEP_OFF, arms, narms) || ran(AB_APPLIED_KEEP_OFF, arms, narms);
	size_t i;

	for (i = 0; i < r->nkernels; i++) {
		const struct an_kernel *k = &r->kernels[i];
		const struct an_origin *o = k->norigins ? &k->origins[0] : NULL;
		char *where, *spec;

		if (k->decision != DECISION_KEEP_OFF || !o || !o->file)
			continue;
		where = xstrfmt("%s:%ld%s%s", o->file, line_of(o), o->function ? " in " : "",
				o->function ? o->function : "");
		if (have_where(out, where)) {
			free(where);
			continue;
		}
		spec = keep_off_of(o, script);
		keep_off_one(out, k, where, spec, arm_ran && (!spec || listed(keep_off, spec)));
	}
}

/*
 * The analysis is read through its typed model (model/analysis_store.h),
 * which refuses another schema_version: a RUN analysed by another tko then
 * gets the caller's warning and no recommendation, as a damaged file does.
 */
int apply_recommend(const char *run, const enum ab_arm *arms, size_t narms, const char *keep_off,
		    const char *const *cmd, struct apply_recommended_list *out, struct buf *err)
{
	char *path = rd_path_in(run, RD_KERNELS_JSON);
	struct an_run r;
	int ret = 0;
	size_t k;

	an_run_init(&r);
	if (access(path, F_OK) < 0 && errno == ENOENT)
		goto done;
	if (an_store_load(&r, path, err) < 0) {
		ret = -1;
		goto done;
	}
	for (k = 0; k < sizeof(arm_rules) / sizeof(arm_rules[0]); k++)
		add_groups(out, &r, k, arms, narms);
	add_keep_off(out, &r, arms, narms, keep_off, py_script_in(cmd));
done:
	an_run_release(&r);
	free(path);
	return ret;
}
