/*
 * Reading post-grad FX graphs and their "# File:" comments from an
 * Inductor log (fx_graph.h). One pass over the lines; only lines whose
 * glog message starts with the [__post_grad_graphs] tag or says "Output
 * code written to:" are looked at.
 */
#include <stdlib.h>
#include <string.h>

#include "parse/fx_graph.h"
#include "parse/glog.h"
#include "parse/pylex.h"
#include "rundir/layout.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

static const char post_tag[] = "[__post_grad_graphs]";
static const char output_tag[] = "Output code written to:";

struct fx_scan {
	struct fx_graphs *g;
	struct fx_graph *cur;	/* the graph being read, or NULL */
	size_t origin;		/* 1 + origin of the nodes that follow, 0: none */
};

static struct fx_graph *graph_new(struct fx_graphs *g, const struct glog_line *gl)
{
	struct fx_graph *gr;

	ALLOC_GROW(g->v, g->nr + 1, g->alloc);
	gr = &g->v[g->nr++];
	memset(gr, 0, sizeof(*gr));
	if (gl->compile_id_len)
		gr->compile_id = xstrndup(gl->compile_id, gl->compile_id_len);
	return gr;
}

/* The last occurrence of needle in s[0..n), or NULL. */
static const char *span_rfind(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	const char *last = NULL, *p = s;

	while (k <= n - (size_t)(p - s)) {
		const char *hit = span_find(p, n - (size_t)(p - s), needle);

		if (!hit)
			break;
		last = hit;
		p = hit + 1;
	}
	return last;
}

/* "PATH:LINE in FUNC, code: CODE" -> a new origin; 0 when malformed. */
static size_t add_origin(struct fx_graph *gr, const char *s, size_t n)
{
	const char *code = span_find(s, n, ", code: ");
	size_t head = code ? (size_t)(code - s) : n;
	const char *in = span_rfind(s, head, " in ");
	size_t loc = in ? (size_t)(in - s) : head;
	const char *colon = span_rfind(s, loc, ":");
	struct fx_origin *o;
	long line = 0;
	const char *d;

	if (!colon || colon + 1 == s + loc)
		return 0;
	for (d = colon + 1; d < s + loc; d++) {
		if (*d < '0' || *d > '9')
			return 0;
		line = line * 10 + (*d - '0');
	}
	ALLOC_GROW(gr->origins, gr->norigins + 1, gr->origins_alloc);
	o = &gr->origins[gr->norigins++];
	o->file = xstrndup(s, (size_t)(colon - s));
	o->line = line;
	o->function = in ? xstrndup(in + 4, head - loc - 4) : NULL;
	o->code = code ? xstrndup(code + 8, n - head - 8) : NULL;
	return gr->norigins;
}

/* A node definition "name: "type" = ..." or "name = ..."; records the name. */
static void node_line(struct fx_scan *sc, const char *s, size_t n)
{
	size_t end;
	void **slot;

	if (!n || !pylex_ident_start((unsigned char)s[0]))
		return;
	end = pylex_ident_end(s, n, 0);
	if (!(span_starts(s + end, n - end, ": \"") || span_starts(s + end, n - end, " = ")))
		return;
	slot = strmap_put_ptr(&sc->cur->nodes, s, end);
	if (!*slot)
		*slot = (void *)(sc->origin + 1);
}

static void graph_line(struct fx_scan *sc, const struct glog_line *gl, const char *s, size_t n)
{
	span_trim(&s, &n);
	if (span_starts(s, n, "TRACED GRAPH")) {
		sc->cur = graph_new(sc->g, gl);
		sc->origin = 0;
		return;
	}
	if (!sc->cur)
		return;
	if (span_starts(s, n, "# File: "))
		sc->origin = add_origin(sc->cur, s + 8, n - 8);
	else if (span_starts(s, n, "# No stacktrace found"))
		sc->origin = 0;
	else if (s[0] != '#')
		node_line(sc, s, n);
}

/* "Output code written to: PATH" names the wrapper of the latest graph without one. */
static void output_line(struct fx_scan *sc, const char *s, size_t n)
{
	size_t i = sc->g->nr;

	span_trim(&s, &n);
	while (i > 0 && !sc->g->v[i - 1].wrapper)
		i--;
	if (i < sc->g->nr)
		sc->g->v[i].wrapper = xstrndup(s, n);
	sc->cur = NULL;
}

size_t fx_graphs_scan(struct fx_graphs *g, const char *s, size_t n)
{
	struct lines it = LINES_INIT(s, n);
	struct fx_scan sc = { g, NULL, 0 };
	size_t before = g->nr, len;
	const char *line;

	while (lines_next(&it, &line, &len)) {
		struct glog_line gl;
		const char *m;
		size_t mn;

		if (!glog_split(line, len, &gl))
			continue;
		m = gl.msg;
		mn = gl.msg_len;
		span_trim(&m, &mn);
		if (span_starts(m, mn, post_tag))
			graph_line(&sc, &gl, m + sizeof(post_tag) - 1, mn - (sizeof(post_tag) - 1));
		else if (span_starts(m, mn, output_tag))
			output_line(&sc, m + sizeof(output_tag) - 1, mn - (sizeof(output_tag) - 1));
	}
	return g->nr - before;
}

const struct fx_graph *fx_graphs_find(const struct fx_graphs *g, const char *wrapper)
{
	const char *want = rd_tail2(wrapper, strlen(wrapper));
	size_t i;

	for (i = g->nr; i-- > 0;) {
		const char *w = g->v[i].wrapper;

		if (w && !strcmp(rd_tail2(w, strlen(w)), want))
			return &g->v[i];
	}
	return NULL;
}

const struct fx_origin *fx_graph_origin(const struct fx_graph *gr, const char *name)
{
	size_t v = (size_t)strmap_get_ptr(&gr->nodes, name, strlen(name));

	return v > 1 ? &gr->origins[v - 2] : NULL;
}

void fx_graphs_release(struct fx_graphs *g)
{
	size_t i, j;

	for (i = 0; i < g->nr; i++) {
		struct fx_graph *gr = &g->v[i];

		for (j = 0; j < gr->norigins; j++) {
			free(gr->origins[j].file);
			free(gr->origins[j].function);
			free(gr->origins[j].code);
		}
		free(gr->origins);
		free(gr->compile_id);
		free(gr->wrapper);
		strmap_release(&gr->nodes);
	}
	free(g->v);
	g->v = NULL;
	g->nr = g->alloc = 0;
}
