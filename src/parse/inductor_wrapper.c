/*
 * TorchInductor wrapper modules: their async_compile.triton blocks and the
 * comments above each (see inductor_wrapper.h).
 */
#include <stdlib.h>
#include <string.h>

#include "parse/inductor_wrapper.h"
#include "parse/pylex.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

/* The sections of the comment block above a kernel. */
enum section {
	SEC_NONE,
	SEC_MAPPING,	/* "Source node to ATen node mapping:" lines "  node => aten, aten" */
	SEC_GRAPH,	/* "Graph fragment:" lines with call_function[target=...] */
};

/* Appends the names of "[a, b, c]" in s[0..n) (from its '[') to arr. */
static void add_bracket_list(json_t *arr, const char *s, size_t n)
{
	const char *open = memchr(s, '[', n), *close;
	const char *p;

	if (!open)
		return;
	close = memchr(open, ']', n - (size_t)(open - s));
	if (!close)
		return;
	for (p = open + 1; p < close;) {
		const char *comma = memchr(p, ',', (size_t)(close - p));
		const char *e = comma ? comma : close;
		const char *a = p;
		size_t len = (size_t)(e - p);

		span_trim(&a, &len);
		if (len)
			json_array_append_new(arr, json_stringn(a, len));
		p = e + 1;
	}
}

/* Appends s to the array unless it is there already. */
static void add_unique(json_t *arr, const char *s, size_t n)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (json_string_length(v) == n && !memcmp(json_string_value(v), s, n))
			return;
	json_array_append_new(arr, json_stringn(s, n));
}

/* "  index_add_ => index_put, full_default" */
static void add_mapping(json_t *aten, const char *s, size_t n)
{
	const char *arrow = span_find(s, n, "=>");
	json_t *targets, *nodes = json_object_get(aten, "aten_nodes");
	const char *node = s, *p;
	size_t len;

	if (!arrow)
		return;
	len = (size_t)(arrow - s);
	span_trim(&node, &len);
	targets = json_array();
	for (p = arrow + 2; p < s + n;) {
		const char *comma = memchr(p, ',', (size_t)(s + n - p));
		const char *e = comma ? comma : s + n, *a = p;
		size_t alen = (size_t)(e - p);

		span_trim(&a, &alen);
		if (alen) {
			json_array_append_new(targets, json_stringn(a, alen));
			add_unique(nodes, a, alen);
		}
		p = e + 1;
	}
	json_object_setn_new(json_object_get(aten, "node_mapping"), node, len, targets);
}

/* "%x : ... = call_function[target=torch.ops.aten.full.default](...)" */
static void add_graph_target(json_t *aten, const char *s, size_t n)
{
	const char *t = span_find(s, n, "call_function[target=");
	const char *end;

	if (!t)
		return;
	t += strlen("call_function[target=");
	end = memchr(t, ']', (size_t)(s + n - t));
	if (end && end > t)
		add_unique(json_object_get(aten, "graph_targets"), t, (size_t)(end - t));
}

static json_t *aten_new(const char *path, size_t line)
{
	json_t *aten = json_object();

	json_object_set_new(aten, "wrapper", json_string(path));
	json_object_set_new(aten, "line", json_integer((json_int_t)line));
	json_object_set_new(aten, "kernel_path", json_null());
	json_object_set_new(aten, "source_nodes", json_array());
	json_object_set_new(aten, "original_aten", json_array());
	json_object_set_new(aten, "node_mapping", json_object());
	json_object_set_new(aten, "aten_nodes", json_array());
	json_object_set_new(aten, "graph_targets", json_array());
	return aten;
}

/* One comment line, without its '#'; returns the section that follows. */
static enum section read_comment(struct wrapped_kernel *w, enum section sec,
				 const char *s, size_t n)
{
	const char *nodes = span_find(s, n, "Source Nodes:");
	const char *orig = span_find(s, n, "Original ATen:");
	int indented = n >= 2 && s[0] == ' ' && s[1] == ' ';

	span_trim(&s, &n);
	if (span_starts(s, n, "kernel path:")) {
		const char *p = s + 12;
		size_t len = n - 12;

		span_trim(&p, &len);
		free(w->kernel_path);
		w->kernel_path = xstrndup(p, len);
		json_object_set_new(w->aten, "kernel_path", json_stringn(p, len));
		return SEC_NONE;
	}
	if (nodes && !indented) {
		add_bracket_list(json_object_get(w->aten, "source_nodes"), nodes,
				 (size_t)((orig ? orig : s + n) - nodes));
		if (orig)
			add_bracket_list(json_object_get(w->aten, "original_aten"), orig,
					 (size_t)(s + n - orig));
		return SEC_NONE;
	}
	if (span_starts(s, n, "Source node to ATen node mapping:"))
		return SEC_MAPPING;
	if (span_starts(s, n, "Graph fragment:"))
		return SEC_GRAPH;
	if (!indented)
		return SEC_NONE;
	if (sec == SEC_MAPPING)
		add_mapping(w->aten, s, n);
	else if (sec == SEC_GRAPH)
		add_graph_target(w->aten, s, n);
	return sec;
}

static void read_comments(struct wrapped_kernel *w, const char *s, const struct pysrc_stmt *st)
{
	struct lines it = LINES_INIT(s + st->comment_off, st->comment_end - st->comment_off);
	enum section sec = SEC_NONE;
	const char *line;
	size_t n;

	while (lines_next(&it, &line, &n)) {
		span_trim(&line, &n);
		if (n && line[0] == '#')
			sec = read_comment(w, sec, line + 1, n - 1);
	}
}

/* The offset of "async_compile.triton" in `name = async_compile.triton(`, or 0. */
static size_t call_start(const char *s, const struct pysrc_stmt *st)
{
	size_t q;

	if (st->indent || !pylex_ident_start((unsigned char)s[st->off]))
		return 0;
	q = pysrc_skip_blanks(s, pylex_ident_end(s, st->end, st->off), st->end);
	if (q >= st->end || s[q] != '=' || (q + 1 < st->end && s[q + 1] == '='))
		return 0;
	q = pysrc_skip_blanks(s, q + 1, st->end);
	if (!span_starts(s + q, st->end - q, "async_compile.triton"))
		return 0;
	return q;
}

int wrapper_scan(struct wrapped_list *out, const char *path,
		 const struct pysrc *src, struct buf *err)
{
	size_t i;
	int found = 0;

	for (i = 0; i < src->nstmts; i++) {
		const struct pysrc_stmt *st = &src->stmts[i];
		size_t pos = call_start(src->s, st);
		struct wrapped_kernel *w;
		struct pylit *call;
		const struct pylit *name, *code;

		if (!pos)
			continue;
		if (pylit_parse(src->s, st->end, &pos, PYLIT_LENIENT, &call, err) < 0)
			return -1;
		name = pylit_arg(call, 0);
		code = pylit_arg(call, 1);
		if (call->kind != PYLIT_CALL || !pylit_str(name) || !pylit_str(code)) {
			pylit_free(call);
			continue;
		}
		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		w = &out->v[out->nr++];
		memset(w, 0, sizeof(*w));
		w->name = xstrdup(name->s);
		w->wrapper = xstrdup(path);
		w->line = st->line;
		w->source_line = st->line + pylex_count_lines(src->s, st->off, code->off);
		w->call = call;
		w->aten = aten_new(path, st->comment_off < st->comment_end ? st->comment_line : st->line);
		read_comments(w, src->s, st);
		found++;
	}
	return found;
}

const char *wrapped_source(const struct wrapped_kernel *w, size_t *len)
{
	const struct pylit *code = pylit_arg(w->call, 1);

	*len = code->slen;
	return code->s;
}

void wrapped_list_release(struct wrapped_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		struct wrapped_kernel *w = &l->v[i];

		free(w->name);
		free(w->wrapper);
		free(w->kernel_path);
		free(w->resolved);
		pylit_free(w->call);
		json_decref(w->aten);
	}
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}
