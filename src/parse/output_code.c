/* Kernel paths from Inductor output modules (see output_code.h). */
#include <stdlib.h>
#include <string.h>

#include "parse/output_code.h"
#include "rundir/layout.h"
#include "util/file.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

#define KERNEL_PATH "# kernel path: "
#define ASSIGN " = async_compile.triton('"

/* "NAME = async_compile.triton('NAME', ...": the name, or len 0. */
static size_t assigned_name(const char *s, size_t n)
{
	const char *eq = span_find(s, n, ASSIGN);
	size_t i;

	if (!eq || eq == s)
		return 0;
	for (i = 0; s + i < eq; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return i;
}

size_t output_code_scan(struct oc_module *m, const char *data, size_t len)
{
	struct lines it = LINES_INIT(data, len);
	const char *s, *path = NULL;
	size_t n, path_len = 0, path_line = 0, name_len;

	while (lines_next(&it, &s, &n)) {
		if (span_starts(s, n, KERNEL_PATH)) {
			path = s + strlen(KERNEL_PATH);
			path_len = n - strlen(KERNEL_PATH);
			span_trim(&path, &path_len);
			path_line = it.lineno;
		} else if (path && (name_len = assigned_name(s, n))) {
			ALLOC_GROW(m->k, m->nr + 1, m->alloc);
			m->k[m->nr].name = xstrndup(s, name_len);
			m->k[m->nr].path = xstrndup(path, path_len);
			m->k[m->nr].line = path_line;
			m->nr++;
			path = NULL;
		}
	}
	return it.lineno;
}

static void read_module(struct oc_module *m, struct autotune_set *set,
			const char *local)
{
	struct mapped_file f;
	struct buf err = BUF_INIT;
	struct at_input *in;

	m->input = at_input_add(set, local);
	in = &set->inputs[m->input];
	in->format = AT_FMT_OUTPUT_CODE;
	in->formats = 1u << AT_FMT_OUTPUT_CODE;
	if (file_map(local, 0, &f, &err) < 0 ||
	    text_input_check(local, f.data, f.len, &err) < 0) {
		in->note = buf_detach(&err, NULL);
		file_unmap(&f);
		return;
	}
	in->bytes = f.len;
	in->lines = output_code_scan(m, f.data, f.len);
	in->used = 2 * m->nr;	/* its "# kernel path:" and assignment lines */
	in->ignored = in->lines - in->used;
	m->found = 1;
	file_unmap(&f);
}

const struct oc_module *output_code_get(struct output_code_cache *c,
					struct autotune_set *set,
					const char *root, const char *path,
					size_t len)
{
	struct oc_module *m;
	char *local;
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (strlen(c->m[i]->logged) == len &&
		    !memcmp(c->m[i]->logged, path, len))
			return c->m[i];
	m = xcalloc(1, sizeof(*m));
	m->logged = xstrndup(path, len);
	local = rd_resolve_logged(root, path, len);
	if (local)
		read_module(m, set, local);
	free(local);
	ALLOC_GROW(c->m, c->nr + 1, c->alloc);
	c->m[c->nr++] = m;
	return m;
}

void output_code_cache_release(struct output_code_cache *c)
{
	size_t i, j;

	for (i = 0; i < c->nr; i++) {
		for (j = 0; j < c->m[i]->nr; j++) {
			free(c->m[i]->k[j].name);
			free(c->m[i]->k[j].path);
		}
		free(c->m[i]->k);
		free(c->m[i]->logged);
		free(c->m[i]);
	}
	free(c->m);
	memset(c, 0, sizeof(*c));
}
