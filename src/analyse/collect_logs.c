/* One kernel's lines of the RUN's logs (collect_logs.h). */
#include <stdlib.h>
#include <string.h>

#include "analyse/collect_logs.h"
#include "parse/autotune_launch.h"
#include "parse/summarize.h"
#include "util/file.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

/* Lines to keep, per input of the summarize set. */
struct marks {
	unsigned char **line;	/* line[file][lineno], sized by the input's line count + 1 */
	size_t *n;		/* their sizes */
	size_t nfiles;
};

static void mark(struct marks *m, struct at_src src)
{
	if (src.fmt == AT_FMT_NONE || src.fmt == AT_FMT_NAME || src.file >= m->nfiles ||
	    !src.line || src.line >= m->n[src.file])
		return;
	m->line[src.file][src.line] = 1;
}

static void mark_configs(struct marks *m, const struct at_config *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		mark(m, c[i].src);
}

static void mark_kernel(struct marks *m, const struct at_kernel *k)
{
	size_t i, l;

	mark(m, k->name_src);
	mark(m, k->kind_src);
	mark(m, k->source_src);
	mark(m, k->num_configs_src);
	mark(m, k->launches_src);
	mark_configs(m, k->declared, k->ndeclared);
	for (i = 0; i < k->ntunings; i++) {
		const struct at_tuning *t = k->tunings[i];

		mark(m, t->src);
		mark(m, t->best_src);
		mark(m, t->elapsed_src);
		mark(m, t->twin_src);
		mark_configs(m, t->configs, t->nr);
	}
	for (i = 0; i < k->nerrors; i++)
		mark(m, k->errors[i].src);
	if (k->launch && k->launch->src.file < m->nfiles)
		for (l = k->launch->src.line; l <= k->launch->end_line; l++)
			mark(m, (struct at_src){ k->launch->src.file, l, k->launch->src.fmt });
}

/* The kernel's summarize instance: by module, by capture dir, else the only one. */
static const struct at_kernel *instance_of(const struct autotune_set *s, const char *name,
					   const char *module, const char *capture_dir)
{
	const struct at_kernel *k, *first;

	if (!autotune_set_find(s, name, &first) || !first)
		return NULL;
	for (k = first; k; k = k->next_instance) {
		const char *src = k->source_local ? k->source_local : k->source_file;

		if (module && src && !strcmp(path_base(src), path_base(module)))
			return k;
		if (capture_dir && k->kernel_dir &&
		    !strcmp(path_base(k->kernel_dir), path_base(capture_dir)))
			return k;
	}
	return at_kernel_instances(first) == 1 ? first : NULL;
}

static int is_word(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static int names(const char *s, size_t n, const char *name)
{
	size_t k = strlen(name);
	const char *at = s, *end = s + n;

	while ((at = memmem(at, (size_t)(end - at), name, k))) {
		if ((at == s || !is_word(at[-1])) && (at + k == end || !is_word(at[k])))
			return 1;
		at++;
	}
	return 0;
}

static int is_log(const struct at_input *in)
{
	return in->lines && in->format != AT_FMT_OUTPUT_CODE && in->format != AT_FMT_BEST_CONFIG;
}

/*
 * The lines of input `in` to keep: those marked, and with `name`, those
 * naming it as a whole word. Appended to k->logs when there are any.
 */
static void keep_lines(struct rd_kernel *k, const struct at_input *in, const unsigned char *keep,
		       size_t nkeep, const char *name)
{
	struct buf why = BUF_INIT;
	struct mapped_file m;
	struct lines it;
	const char *line;
	size_t len, nr = 0, alloc = 0, *v = NULL;
	struct rd_loglines *l;

	if (file_map(in->path, 0, &m, &why) < 0) {
		buf_release(&why);
		return;
	}
	it = (struct lines)LINES_INIT(m.data, m.len);
	while (lines_next(&it, &line, &len))
		if ((it.lineno < nkeep && keep[it.lineno]) || (name && names(line, len, name))) {
			ALLOC_GROW(v, nr + 1, alloc);
			v[nr++] = it.lineno;
		}
	file_unmap(&m);
	if (!nr)
		return;
	k->logs = xrealloc(k->logs, (k->nlogs + 1) * sizeof(*k->logs));
	l = &k->logs[k->nlogs++];
	l->path = xstrdup(in->path);
	l->line = v;
	l->nr = nr;
}

void collect_logs_fill(struct rd_index *ix, struct rd_kernel *kernel)
{
	struct autotune_set set;
	struct buf why = BUF_INIT;
	struct marks m = { NULL, NULL, 0 };
	const struct at_kernel *k;
	const char *paths[1] = { ix->root }, *name = kernel->name;
	int shared = rd_index_find(ix, name, NULL, NULL, 0) > 1, unique;
	size_t i;

	autotune_set_init(&set);
	summarize_paths(paths, 1, &set, &why);
	k = instance_of(&set, name, kernel->module, kernel->capture_dir);
	unique = !shared && (k ? at_kernel_instances(k) == 1 : !autotune_set_find(&set, name, &k));
	m.nfiles = set.ninputs;
	m.line = xcalloc(m.nfiles + 1, sizeof(*m.line));
	m.n = xcalloc(m.nfiles + 1, sizeof(*m.n));
	for (i = 0; i < m.nfiles; i++) {
		m.n[i] = set.inputs[i].lines + 1;
		m.line[i] = xcalloc(m.n[i], 1);
	}
	if (k)
		mark_kernel(&m, k);
	for (i = 0; i < set.ninputs; i++)
		if (is_log(&set.inputs[i]))
			keep_lines(kernel, &set.inputs[i], m.line[i], m.n[i], unique ? name : NULL);
	for (i = 0; i < m.nfiles; i++)
		free(m.line[i]);
	free(m.line);
	free(m.n);
	autotune_set_release(&set);
	buf_release(&why);
	ix->built |= RD_IX_LOGS;
}
