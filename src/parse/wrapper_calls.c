/*
 * Finding launch sites in a wrapper module (wrapper_calls.h) with the
 * Python name walker of pysrc.h, which skips strings and comments, so the
 * kernel sources embedded in the module never count.
 */
#include <stdlib.h>
#include <string.h>

#include "parse/pylex.h"
#include "parse/pysrc.h"
#include "parse/wrapper_calls.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

static const char extern_prefix[] = "extern_kernels.";

/* The call's argument texts, positional ones first. */
static void read_args(struct wcall *c, const char *s, size_t n, size_t open)
{
	struct pysrc_args args = PYSRC_ARGS_INIT;
	size_t close, i, k, pass;

	if (pysrc_split_args(s, n, open, &args, &close) < 0) {
		pysrc_args_release(&args);
		return;
	}
	c->args = xcalloc(args.nr ? args.nr : 1, sizeof(*c->args));
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < args.nr; i++) {
			if ((args.v[i].kw_len != 0) != pass)
				continue;
			k = c->nargs++;
			c->args[k] = xstrndup(s + args.v[i].off, args.v[i].len);
			c->npos += !pass;
		}
	pysrc_args_release(&args);
}

static void add_call(struct wcall_list *out, const char *name, size_t len,
		     size_t line, int library, const char *s, size_t n, size_t open)
{
	struct wcall *c;

	ALLOC_GROW(out->v, out->nr + 1, out->alloc);
	c = &out->v[out->nr++];
	memset(c, 0, sizeof(*c));
	c->name = xstrndup(name, len);
	c->line = line;
	c->library = library;
	read_args(c, s, n, open);
}

size_t wrapper_calls_scan(struct wcall_list *out, const char *s, size_t n,
			  const struct strmap *kernels)
{
	struct pysrc_cursor c = { s, 0, n, 1 };
	struct pysrc_tok t;
	size_t before = out->nr, dummy;

	while (pysrc_next_name(&c, &t)) {
		const char *name = s + t.off;
		size_t after = pysrc_skip_blanks(s, t.off + t.len, n);

		if (t.after_dot || after >= n || s[after] != '(')
			continue;
		if (t.len > 4 && !memcmp(name + t.len - 4, ".run", 4) &&
		    strmap_get(kernels, name, t.len - 4, &dummy))
			add_call(out, name, t.len - 4, t.line, 0, s, n, after);
		else if (span_starts(name, t.len, extern_prefix) &&
			 t.len > sizeof(extern_prefix) - 1)
			add_call(out, name, t.len, t.line, 1, s, n, after);
	}
	return out->nr - before;
}

void wcall_list_release(struct wcall_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		size_t k;

		for (k = 0; k < l->v[i].nargs; k++)
			free(l->v[i].args[k]);
		free(l->v[i].args);
		free(l->v[i].name);
	}
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}

/* Whether `word` occurs in text as a whole name. */
static int names_word(const char *text, const char *word)
{
	size_t k = strlen(word);
	const char *at = text;

	while ((at = strstr(at, word))) {
		if ((at == text || !pylex_ident_char((unsigned char)at[-1])) &&
		    !pylex_ident_char((unsigned char)at[k]))
			return 1;
		at++;
	}
	return 0;
}

const struct wcall *wcall_next_use(const struct wcall_list *l, size_t i, const char *buf)
{
	size_t j, k;

	for (j = i + 1; j < l->nr; j++)
		for (k = 0; k < l->v[j].nargs; k++)
			if (names_word(l->v[j].args[k], buf))
				return &l->v[j];
	return NULL;
}
