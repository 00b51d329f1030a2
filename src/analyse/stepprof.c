/* The whole-step profile in the analysis (stepprof.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyse/share.h"
#include "analyse/stepprof.h"
#include "profile/attrib.h"
#include "profile/prof.h"
#include "profile/tojson.h"
#include "rundir/index.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/plural.h"
#include "util/walk.h"
#include "banned.h"

static char *dup_or_null(const char *s)
{
	return s && *s ? xstrdup(s) : NULL;
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_size : 0;
}

/* The RUN's profile: the largest file of profile/ (the others noted), or NULL. */
static char *run_profile(struct an_run *r, const char *run_dir)
{
	struct strlist files = STRLIST_INIT;
	char *best = NULL;
	size_t i;

	rd_profile_files(run_dir, &files);
	for (i = 0; i < files.nr; i++)
		if (!best || file_size(files.v[i]) > file_size(best))
			best = (char *)files.v[i];
	if (files.nr > 1)
		an_run_note(r, "profile/ holds %zu profiles; the largest, '%s', was used (give another"
			    " with --profile)", files.nr, path_base(best));
	best = best ? xstrdup(best) : NULL;
	walk_release(&files);
	return best;
}

static void copy_accounting(struct an_run *r, const struct prof *p, const char *shown)
{
	struct an_profile *o = &r->profile;
	double busy[PROF_CLASS_COUNT];
	long calls[PROF_CLASS_COUNT];
	size_t i;

	o->file = xstrdup(shown);
	o->format = xstrdup(prof_format_names[p->format]);
	o->device = dup_or_null(p->device);
	o->partial = p->partial;
	o->timeline = p->timeline;
	o->activities = (long)p->nacts;
	o->steps = (long)p->nsteps;
	o->busy_ms = p->busy / 1e3;
	o->span_ms = p->timeline ? (p->last - p->first) / 1e3 : NAN;
	o->idle_ms = p->timeline ? p->idle / 1e3 : NAN;
	o->kernel_ms = p->total / 1e3;
	o->step_ms = p->step_time / 1e3;
	prof_class_totals(p, busy, calls);
	for (i = 0; i < PROF_CLASS_COUNT; i++) {
		struct an_evidence *e;

		if (!calls[i])
			continue;
		o->classes = xrealloc(o->classes, (o->nclasses + 1) * sizeof(*o->classes));
		e = &o->classes[o->nclasses++];
		e->key = xstrdup(prof_class_names[i]);
		e->value = p->busy > 0 ? busy[i] / p->busy : NAN;
	}
	for (i = 0; i < p->nnotes; i++)
		an_add_str(&o->notes, &o->nnotes, p->notes[i]);
}

/* The model kernel a Triton group is: same module key, else the only kernel of that name. */
static struct an_kernel *match_kernel(struct an_run *r, const struct prof *p,
				      const struct prof_group *g)
{
	const char *name = prof_str(p, g->key), *hash = prof_str(p, g->kernel_hash);
	struct an_kernel *byname = NULL;
	size_t i, n = 0;

	for (i = 0; i < r->nkernels; i++) {
		struct an_kernel *k = &r->kernels[i];

		if (*hash && k->module_key && !strcmp(k->module_key, hash))
			return k;
		if (k->name && !strcmp(k->name, name)) {
			byname = k;
			n++;
		}
	}
	return n == 1 ? byname : NULL;
}

static void take_time(struct an_kernel *k, const struct prof_group *g, const char *file)
{
	free(k->time_note);
	k->launches = g->calls;
	k->launch_basis = LAUNCH_TRACE;
	k->time_ms = g->calls ? g->total / (double)g->calls / 1e3 : NAN;
	k->time_basis = TIME_TRACE;
	k->time_note = xstrfmt("the profile %s: mean of %ld launch%s in the profiled window", file,
			       g->calls, plural_word(g->calls, "", "es"));
	k->total_ms = g->busy / 1e3;
	k->share = g->share;
}

static void add_group(struct an_run *r, const struct prof *p, const struct prof_group *g,
		      const struct an_kernel *k)
{
	struct an_step_group *s;

	r->step_groups = xrealloc(r->step_groups, (r->nstep_groups + 1) * sizeof(*r->step_groups));
	s = &r->step_groups[r->nstep_groups++];
	memset(s, 0, sizeof(*s));
	s->decision = DECISION_NONE;
	s->rank = (long)r->nstep_groups;
	s->cls = (enum prof_class)g->cls;
	s->op = g->cls == PROF_CLASS_TRITON ? NULL : dup_or_null(prof_str(p, g->op));
	s->kernel = dup_or_null(prof_str(p, g->top));
	s->dtype = dup_or_null(prof_str(p, g->dtype));
	s->kernel_id = k ? xstrdup(k->id) : NULL;
	s->calls = g->calls;
	s->kernels = g->kernels;
	s->total_ms = g->total / 1e3;
	s->busy_ms = g->busy / 1e3;
	s->share = g->share;
}

/* Kernels the window never launched: no share of it, and said so. */
static void untouched(struct an_run *r, const char *file)
{
	size_t i;

	for (i = 0; i < r->nkernels; i++) {
		struct an_kernel *k = &r->kernels[i];

		if (k->time_basis == TIME_TRACE)
			continue;
		k->total_ms = 0;
		k->share = 0;
		free(k->time_note);
		k->time_note = xstrfmt("not launched in the profiled window of %s (share 0);"
				       " time_ms is the %s time", file,
				       k->time_basis != TIME_NONE ? time_basis_names[k->time_basis] :
				       "unknown");
	}
}

static void set_method(struct an_run *r, const struct prof *p, const char *file, long matched)
{
	free(r->share_method);
	r->share_method = xstrfmt(
		"share = part of the GPU busy time in the profile %s (%s, %.3f ms busy%s%s), library"
		" kernels included (step_groups); %ld of %zu Triton kernels matched by Inductor's"
		" kernel hash or name", file, prof_format_names[p->format], p->busy / 1e3,
		p->nsteps ? ", steps from ProfilerStep ranges" : "",
		p->partial ? ", PARTIAL: the file ends early" : "", matched, r->nkernels);
	r->measured_ms = p->busy / 1e3;
}

static void apply(struct an_run *r, const struct prof *p, const char *shown)
{
	size_t i;
	long matched = 0;

	copy_accounting(r, p, shown);
	for (i = 0; i < p->ngroups; i++) {
		const struct prof_group *g = &p->groups[i];
		struct an_kernel *k = g->cls == PROF_CLASS_TRITON ? match_kernel(r, p, g) : NULL;

		if (k && k->time_basis == TIME_TRACE) {
			/* a second group for the same kernel (another stream): add it up */
			k->launches += g->calls;
			k->total_ms += g->busy / 1e3;
			k->share += g->share;
		} else if (k) {
			take_time(k, g, shown);
			matched++;
		}
		add_group(r, p, g, k);
	}
	untouched(r, shown);
	set_method(r, p, shown, matched);
	share_rank(r);
}

/* path relative to the RUN when inside it, for display. */
static char *shown_path(const char *run_dir, const char *path)
{
	size_t n = strlen(run_dir);

	while (n > 1 && run_dir[n - 1] == '/')
		n--;
	if (!strncmp(path, run_dir, n) && path[n] == '/')
		return xstrdup(path + n + 1);
	return xstrdup(path);
}

int stepprof_apply(struct an_run *r, const char *run_dir, const char *explicit_path,
		   struct buf *err)
{
	char *path = explicit_path ? xstrdup(explicit_path) : run_profile(r, run_dir), *shown;
	struct buf perr = BUF_INIT;
	struct prof p;
	int ret = 0;

	if (!path)
		return 0;
	prof_init(&p);
	if (prof_read_path(&p, path, &perr) < 0) {
		if (explicit_path) {
			buf_addf(err, "%s", perr.buf);
			ret = -1;
		} else {
			an_run_note(r, "the RUN's profile could not be used: %s", perr.buf);
		}
	} else {
		prof_attribute(&p);
		shown = shown_path(run_dir, path);
		apply(r, &p, shown);
		free(shown);
	}
	prof_release(&p);
	buf_release(&perr);
	free(path);
	return ret;
}
