/*
 * Indexing and matching Triton cache entries (tcache.h). A RUN's cache
 * holds one entry per config compiled (corpus/h200-run1: 133 entries for
 * 51 kernel modules), and, after cross-compiles, the same module for
 * other targets (gfx942 and gfx90a beside sm_90a), so the match narrows
 * by arch first.
 */
#include <stdlib.h>
#include <string.h>

#include "analyse/tcache.h"
#include "target/target.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

/* The kernel module among the file's sources: a .py outside site-packages. */
static char *module_key_of(const struct isa_file_result *f)
{
	size_t i;

	for (i = 0; i < f->srcfiles_nr; i++) {
		const char *p = f->srcfiles[i], *b = path_base(p);
		size_t n = strlen(b);

		if (n > 3 && !strcmp(b + n - 3, ".py") && !strstr(p, "-packages/"))
			return xstrndup(b, n - 3);
	}
	return NULL;
}

static char *dir_name_of(const char *path)
{
	const char *slash = strrchr(path, '/'), *start;

	if (!slash)
		return xstrdup(".");
	start = slash;
	while (start > path && start[-1] != '/')
		start--;
	return xstrndup(start, (size_t)(slash - start));
}

void tcache_build(struct tcache *tc, const struct isa_result *res)
{
	size_t i, j;

	for (i = 0; i < res->files_nr; i++) {
		const struct isa_file_result *f = res->files[i];

		for (j = 0; j < f->kernels_nr; j++) {
			struct tc_entry *e;

			if (!f->kernels[j]->is_kernel)
				continue;
			ALLOC_GROW(tc->v, tc->nr + 1, tc->alloc);
			e = &tc->v[tc->nr++];
			e->file = f;
			e->kernel = f->kernels[j];
			e->cache_dir = dir_name_of(f->path);
			e->module_key = module_key_of(f);
			e->arch = e->kernel->arch ? target_norm_dup(e->kernel->arch, strlen(e->kernel->arch)) : NULL;
		}
	}
}

void tcache_release(struct tcache *tc)
{
	size_t i;

	for (i = 0; i < tc->nr; i++) {
		free(tc->v[i].cache_dir);
		free(tc->v[i].module_key);
		free(tc->v[i].arch);
	}
	free(tc->v);
	tc->v = NULL;
	tc->nr = tc->alloc = 0;
}

static int arch_ok(const struct tc_entry *e, const struct tc_query *q)
{
	return !q->arch || !e->arch || !strcmp(e->arch, q->arch);
}

static int res_ok(const struct tc_entry *e, enum isa_res r, long want)
{
	const struct isa_value *v = &e->kernel->res[r];

	return want < 0 || v->src == ISA_SRC_NONE || v->value == want;
}

/* Entries passing `keep`, narrowed to the chosen num_warps/num_stages when several. */
static void pick(const struct tcache *tc, const struct tc_query *q,
		 int (*keep)(const struct tc_entry *, const struct tc_query *),
		 const char *how, const char *how_narrowed, struct tc_match *m)
{
	const struct tc_entry *first = NULL, *narrow = NULL;
	size_t i, n = 0, nn = 0;

	for (i = 0; i < tc->nr; i++) {
		const struct tc_entry *e = &tc->v[i];

		/* the cheap tests first: keep() may compare whole files */
		if (strcmp(e->kernel->name, q->name) || !arch_ok(e, q) || !keep(e, q))
			continue;
		if (!n++)
			first = e;
		if (res_ok(e, ISA_RES_NUM_WARPS, q->num_warps) &&
		    res_ok(e, ISA_RES_NUM_STAGES, q->num_stages) && !nn++)
			narrow = e;
	}
	if (!n)
		return;
	m->candidates = n;
	if (n == 1) {
		m->entry = first;
		m->how = how;
	} else if (nn == 1) {
		m->entry = narrow;
		m->how = how_narrowed;
	} else {
		m->how = "ambiguous";
	}
}

static int by_hash(const struct tc_entry *e, const struct tc_query *q)
{
	return q->cache_hash && !strcmp(e->cache_dir, q->cache_hash);
}

static int by_module(const struct tc_entry *e, const struct tc_query *q)
{
	return q->module_key && e->module_key && !strcmp(e->module_key, q->module_key);
}

static int by_same_source(const struct tc_entry *e, const struct tc_query *q)
{
	return q->same_source && e->module_key && !by_module(e, q) &&
	       q->same_source(q->data, e->module_key);
}

void tcache_match(const struct tcache *tc, const struct tc_query *q, struct tc_match *m)
{
	m->entry = NULL;
	m->how = "none";
	m->candidates = 0;
	pick(tc, q, by_hash, "cache_hash", "cache_hash", m);
	if (!m->candidates)
		pick(tc, q, by_module, "module", "module+warps/stages", m);
	if (!m->candidates)
		pick(tc, q, by_same_source, "same_source", "same_source+warps/stages", m);
}
