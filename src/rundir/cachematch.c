/* Which Triton cache entries a kernel was compiled into (cachematch.h). */
#include <stdlib.h>
#include <string.h>

#include "rundir/cachematch.h"
#include "rundir/layout.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

const char *const rd_how_names[RD_HOW_NR] = {
	[RD_HOW_NONE] = "none",
	[RD_HOW_CACHE_HASH] = "cache_hash",
	[RD_HOW_MODULE] = "module",
	[RD_HOW_MODULE_WS] = "module+warps/stages",
	[RD_HOW_SAME_SOURCE] = "same_source",
	[RD_HOW_SAME_SOURCE_WS] = "same_source+warps/stages",
	[RD_HOW_AMBIGUOUS] = "ambiguous",
};

static int arch_ok(const struct rd_centry *e, const struct rd_cquery *q)
{
	return !q->arch || !e->arch || !strcmp(e->arch, q->arch);
}

static int value_ok(long have, long want)
{
	return want < 0 || have < 0 || have == want;
}

static int by_hash(const struct rd_centry *e, const struct rd_cquery *q)
{
	return q->cache_hash && !strcmp(e->dir, q->cache_hash);
}

static int by_module(const struct rd_centry *e, const struct rd_cquery *q)
{
	return q->module_key && e->module_key && !strcmp(e->module_key, q->module_key);
}

static int by_same_source(const struct rd_centry *e, const struct rd_cquery *q)
{
	return q->same_source && e->module_key && !by_module(e, q) &&
	       q->same_source(q->data, e->module_key);
}

/* Entries passing `keep`, narrowed to the chosen num_warps/num_stages when several. */
static void pick(const struct rd_centry *v, size_t n, const struct rd_cquery *q,
		 int (*keep)(const struct rd_centry *, const struct rd_cquery *),
		 enum rd_how how, enum rd_how how_narrowed, struct rd_cmatch *m)
{
	const struct rd_centry *first = NULL, *narrow = NULL;
	size_t i, nk = 0, nn = 0;

	for (i = 0; i < n; i++) {
		const struct rd_centry *e = &v[i];

		/* the cheap tests first: keep() may compare whole files */
		if (strcmp(e->name, q->name) || !arch_ok(e, q) || !keep(e, q))
			continue;
		if (!nk++)
			first = e;
		if (value_ok(e->num_warps, q->num_warps) && value_ok(e->num_stages, q->num_stages) &&
		    !nn++)
			narrow = e;
	}
	if (!nk)
		return;
	m->candidates = nk;
	if (nk == 1) {
		m->entry = first;
		m->how = how;
	} else if (nn == 1) {
		m->entry = narrow;
		m->how = how_narrowed;
	} else {
		m->how = RD_HOW_AMBIGUOUS;
	}
}

void rd_cache_pick(const struct rd_centry *v, size_t n, const struct rd_cquery *q,
		   struct rd_cmatch *m)
{
	m->entry = NULL;
	m->how = RD_HOW_NONE;
	m->candidates = 0;
	pick(v, n, q, by_hash, RD_HOW_CACHE_HASH, RD_HOW_CACHE_HASH, m);
	if (!m->candidates)
		pick(v, n, q, by_module, RD_HOW_MODULE, RD_HOW_MODULE_WS, m);
	if (!m->candidates)
		pick(v, n, q, by_same_source, RD_HOW_SAME_SOURCE, RD_HOW_SAME_SOURCE_WS, m);
}

static int recorded(const struct rd_centry *e, const struct rd_cquery *q)
{
	size_t i;

	for (i = 0; q->recorded_hashes && i < q->recorded_hashes->nr; i++)
		if (!strcmp(q->recorded_hashes->v[i], e->dir))
			return 1;
	return 0;
}

size_t rd_cache_all(const struct rd_centry *v, size_t n, const struct rd_cquery *q,
		    int name_unique, const struct rd_centry **out)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		const struct rd_centry *e = &v[i];

		if (strcmp(e->name, q->name) || !arch_ok(e, q))
			continue;
		if (name_unique || recorded(e, q) || by_module(e, q) || by_same_source(e, q))
			out[k++] = e;
	}
	return k;
}

char *rd_module_key_of_text(const char *p, size_t n)
{
	static const char ext[] = ".py\"";
	const char *end = p + n, *at = p;

	while ((at = memmem(at, (size_t)(end - at), ext, 4))) {
		const char *open = at;
		char *path, *key;

		while (open > p && open[-1] != '"' && open[-1] != '\n')
			open--;
		at += 4;
		if (open == p || open[-1] != '"' || open == at - 4)
			continue;
		path = xstrndup(open, (size_t)(at - 1 - open));
		if (strstr(path, "-packages/")) {
			free(path);
			continue;
		}
		key = rd_module_key(path);
		free(path);
		return key;
	}
	return NULL;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

int rd_same_source_files(const char *a_path, const char *b_path)
{
	struct mapped_file a = MAPPED_FILE_INIT, b = MAPPED_FILE_INIT;
	struct buf err = BUF_INIT;
	size_t i = 0, j = 0;
	int same = 0;

	if (file_map(a_path, RD_MODULE_MAX, &a, &err) < 0 ||
	    file_map(b_path, RD_MODULE_MAX, &b, &err) < 0)
		goto out;
	for (;;) {
		while (i < a.len && is_space(a.data[i]))
			i++;
		while (j < b.len && is_space(b.data[j]))
			j++;
		if (i == a.len || j == b.len || a.data[i] != b.data[j])
			break;
		i++;
		j++;
	}
	same = i == a.len && j == b.len;
out:
	file_unmap(&a);
	file_unmap(&b);
	buf_release(&err);
	return same;
}
