/*
 * Finding launch sites in a wrapper module (wrapper_calls.h) with the
 * Python name walker of pysrc.h, which skips strings and comments, so the
 * kernel sources embedded in the module never count.
 */
#include <stdlib.h>
#include <string.h>

#include "parse/pysrc.h"
#include "parse/wrapper_calls.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

static const char extern_prefix[] = "extern_kernels.";

static void add_call(struct wcall_list *out, const char *name, size_t len,
		     size_t line, int library)
{
	struct wcall *c;

	ALLOC_GROW(out->v, out->nr + 1, out->alloc);
	c = &out->v[out->nr++];
	c->name = xstrndup(name, len);
	c->line = line;
	c->library = library;
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
			add_call(out, name, t.len - 4, t.line, 0);
		else if (span_starts(name, t.len, extern_prefix) &&
			 t.len > sizeof(extern_prefix) - 1)
			add_call(out, name, t.len, t.line, 1);
	}
	return out->nr - before;
}

void wcall_list_release(struct wcall_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->v[i].name);
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}
