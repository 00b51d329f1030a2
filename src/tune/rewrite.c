/*
 * Source rewriting for tko tune's source variants (see rewrite.h).
 *
 * The rewriters match whole physical lines with POSIX regular expressions,
 * which fits the code Inductor generates (one statement per line, fixed
 * spellings: "xoffset = tl.program_id(0) * XBLOCK", "xindex = xoffset +
 * tl.arange(0, XBLOCK)[:]") and the common hand-written forms ("pid =
 * tl.program_id(0)", "offs = pid * BLOCK + tl.arange(0, BLOCK)"). A line
 * that does not match is left alone: a rewrite that finds nothing reports
 * 0 edits and the variant is skipped, never guessed at.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "tune/rewrite.h"
#include "tune/srclines.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

void srclines_split(const char *src, size_t len, struct srclines *s)
{
	struct lines it = LINES_INIT(src, len);
	const char *line;
	size_t n;

	memset(s, 0, sizeof(*s));
	while (lines_next(&it, &line, &n)) {
		ALLOC_GROW(s->l, s->n + 1, s->alloc);
		s->l[s->n++] = xstrndup(line, n);
	}
}

void srclines_release(struct srclines *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->l[i]);
	free(s->l);
}

void rewrite_release(struct rewrite *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++)
		free(r->e[i].text);
	free(r->e);
	r->e = NULL;
	r->nr = r->alloc = 0;
}

void rewrite_add_edit(struct rewrite *r, size_t line, int replace, char *text)
{
	size_t pos = r->nr, i;

	for (i = 0; i < r->nr; i++)
		if (r->e[i].line > line || (replace && r->e[i].line == line)) {
			pos = i;
			break;
		}
	ALLOC_GROW(r->e, r->nr + 1, r->alloc);
	memmove(r->e + pos + 1, r->e + pos, (r->nr - pos) * sizeof(*r->e));
	r->e[pos].line = line;
	r->e[pos].replace = replace;
	r->e[pos].text = text;
	r->nr++;
}

int rewrite_replace_line(struct rewrite *r, const struct srclines *s, size_t i, char *text)
{
	if (!strcmp(text, s->l[i - 1])) {
		free(text);
		return 0;
	}
	rewrite_add_edit(r, i, 1, text);
	return 1;
}

char *rewrite_group(const char *s, const regmatch_t *m)
{
	return xstrndup(s + m->rm_so, (size_t)(m->rm_eo - m->rm_so));
}

void rewrite_kernel_range(const struct tune_kernel *k, const struct srclines *s,
			  size_t *first, size_t *last)
{
	*first = k->def_line > 0 ? (size_t)k->def_line : 1;
	*last = k->end_line > 0 && (size_t)k->end_line <= s->n ? (size_t)k->end_line : s->n;
}

size_t rewrite_body_start(const struct tune_kernel *k, const struct srclines *s)
{
	size_t first, last, i;
	int in_def = 0;

	rewrite_kernel_range(k, s, &first, &last);
	for (i = first; i <= last; i++) {
		const char *t = s->l[i - 1];
		size_t n;

		while (*t == ' ' || *t == '\t')
			t++;
		if (!in_def && !strncmp(t, "def ", 4))
			in_def = 1;
		n = strlen(t);
		while (n && (t[n - 1] == ' ' || t[n - 1] == '\t'))
			n--;
		if (in_def && n && t[n - 1] == ':')
			return i + 1 <= last ? i + 1 : 0;
	}
	return 0;
}

static int next_line_is(const struct srclines *s, size_t line, const char *text)
{
	return line < s->n && !strcmp(s->l[line], text);
}

#define BLOCK_ID "[A-Z0-9_]*BLOCK[A-Z0-9_]*"

/* An offset is a program id (or an expression of them) times a block. */
static const char offset_re[] =
	"^(" SP ")(" ID ") = (.*program_id.*) \\* (" BLOCK_ID ")" SP "$";
static const char index_re[] =
	"^(" SP ")(" ID ") = (.+) \\+ tl\\.arange\\(0, (" ID ")\\)(\\[:\\])?" SP "$";
static const char pid_re[] = "^(" SP ")(" ID ") = tl\\.program_id\\([0-2]\\)" SP "$";

/* Names of offsets seen so far with their block: "xoffset*XBLOCK". */
struct seen {
	char **v;
	size_t n, alloc;
};

static void seen_add(struct seen *s, const char *name, const char *block)
{
	ALLOC_GROW(s->v, s->n + 1, s->alloc);
	s->v[s->n++] = xstrfmt("%s*%s", name, block);
}

static int seen_has(const struct seen *s, const char *name, const char *block)
{
	char *want = xstrfmt("%s*%s", name, block);
	size_t i;
	int found = 0;

	for (i = 0; i < s->n && !found; i++)
		found = !strcmp(s->v[i], want);
	free(want);
	return found;
}

static void seen_release(struct seen *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

/* The offset expression of an index is a multiple of B: a known offset
 * variable, or "<expr> * B". */
static int offset_multiple(const struct seen *seen, const char *expr, const char *b)
{
	size_t n = strlen(expr), nb = strlen(b);

	if (seen_has(seen, expr, b))
		return 1;
	return n > nb + 3 && !strcmp(expr + n - nb, b) && !strncmp(expr + n - nb - 3, " * ", 3);
}

static int hint_line(const struct srclines *s, size_t i, regex_t *off, regex_t *idx,
		     struct seen *seen, struct rewrite *r)
{
	const char *t = s->l[i - 1];
	regmatch_t m[6];
	char *ind, *name, *expr, *b, *text = NULL;

	if (!regexec(off, t, 5, m, 0)) {
		ind = rewrite_group(t, &m[1]), name = rewrite_group(t, &m[2]), b = rewrite_group(t, &m[4]);
		seen_add(seen, name, b);
		text = xstrfmt("%s%s = tl.multiple_of(%s, %s)", ind, name, name, b);
		free(ind), free(name), free(b);
	} else if (!regexec(idx, t, 6, m, 0)) {
		ind = rewrite_group(t, &m[1]), name = rewrite_group(t, &m[2]);
		expr = rewrite_group(t, &m[3]), b = rewrite_group(t, &m[4]);
		if (offset_multiple(seen, expr, b))
			text = xstrfmt("%s%s = tl.max_contiguous(tl.multiple_of(%s, %s), %s)",
				       ind, name, name, b, b);
		free(ind), free(name), free(expr), free(b);
	}
	if (!text)
		return 0;
	if (next_line_is(s, i, text)) {
		free(text);
		return 0;
	}
	rewrite_add_edit(r, i, 0, text);
	return 1;
}

int rewrite_hints(const char *src, size_t len, const struct tune_kernel *k,
		  struct rewrite *r)
{
	struct srclines s;
	struct seen seen = { NULL, 0, 0 };
	regex_t off, idx;
	size_t first, last, i;
	int added = 0;

	srclines_split(src, len, &s);
	regcomp(&off, offset_re, REG_EXTENDED);
	regcomp(&idx, index_re, REG_EXTENDED);
	rewrite_kernel_range(k, &s, &first, &last);
	for (i = rewrite_body_start(k, &s); i && i <= last; i++)
		added += hint_line(&s, i, &off, &idx, &seen, r);
	regfree(&off);
	regfree(&idx);
	seen_release(&seen);
	srclines_release(&s);
	return added;
}

static int is_int_type(const char *t)
{
	return t && (!strcmp(t, "i32") || !strcmp(t, "i64"));
}

static char *indent_of_body(const struct srclines *s, size_t line)
{
	size_t i;

	for (i = line; i <= s->n; i++) {
		const char *t = s->l[i - 1];
		size_t n = strspn(t, " \t");

		if (t[n] && t[n] != '#')
			return xstrndup(t, n);
	}
	return xstrdup("    ");
}

/* tl.assume(arg >= 0) for integer arguments, at the top of the body. */
static int assume_args(const struct tune_kernel *k, const struct srclines *s,
		       size_t body, struct rewrite *r)
{
	char *ind = indent_of_body(s, body);
	size_t i;
	int added = 0;

	for (i = 0; i < k->nargs; i++)
		if (is_int_type(k->args[i].type)) {
			rewrite_add_edit(r, body - 1, 0, xstrfmt("%stl.assume(%s >= 0)", ind,
							 k->args[i].name));
			added++;
		}
	free(ind);
	return added;
}

int rewrite_assume(const char *src, size_t len, const struct tune_kernel *k,
		   struct rewrite *r)
{
	struct srclines s;
	regex_t off, pid;
	regmatch_t m[5];
	size_t first, last, i, body;
	int added = 0;

	srclines_split(src, len, &s);
	body = rewrite_body_start(k, &s);
	if (!body) {
		srclines_release(&s);
		return 0;
	}
	regcomp(&off, offset_re, REG_EXTENDED);
	regcomp(&pid, pid_re, REG_EXTENDED);
	added += assume_args(k, &s, body, r);
	rewrite_kernel_range(k, &s, &first, &last);
	for (i = body; i <= last; i++) {
		const char *t = s.l[i - 1];

		if (!regexec(&off, t, 5, m, 0)) {
			char *ind = rewrite_group(t, &m[1]), *name = rewrite_group(t, &m[2]);

			rewrite_add_edit(r, i, 0, xstrfmt("%stl.assume(%s >= 0)", ind, name));
			free(ind), free(name);
			added++;
		} else if (!regexec(&pid, t, 3, m, 0)) {
			char *ind = rewrite_group(t, &m[1]), *name = rewrite_group(t, &m[2]);

			rewrite_add_edit(r, i, 0, xstrfmt("%stl.assume(%s >= 0)", ind, name));
			free(ind), free(name);
			added++;
		}
	}
	regfree(&off);
	regfree(&pid);
	srclines_release(&s);
	return added;
}

int rewrite_body_const(const char *src, size_t len, const struct tune_kernel *k,
		       const char *name, long value, struct rewrite *r)
{
	struct srclines s;
	regex_t re;
	regmatch_t m[2];
	char *pat = xstrfmt("^(" SP ")%s" SP ":" SP "tl\\.constexpr" SP "=" SP "[^ \t].*$", name);
	size_t first, last, i;
	int added = 0;

	srclines_split(src, len, &s);
	regcomp(&re, pat, REG_EXTENDED);
	rewrite_kernel_range(k, &s, &first, &last);
	for (i = first; i <= last && !added; i++)
		if (!regexec(&re, s.l[i - 1], 2, m, 0)) {
			char *ind = rewrite_group(s.l[i - 1], &m[1]);
			char *text = xstrfmt("%s%s : tl.constexpr = %ld", ind, name, value);

			free(ind);
			added = rewrite_replace_line(r, &s, i, text);
		}
	regfree(&re);
	free(pat);
	srclines_release(&s);
	return added;
}

/* The decorator line's configs with pointer_range added for pointer args. */
static char *ptr32_line(const struct tune_kernel *k, const char *line)
{
	struct buf b = BUF_INIT, missing = BUF_INIT;
	const char *open = strstr(line, "'configs': [{");
	size_t i;

	buf_adds(&b, line);
	for (i = 0; i < k->nargs; i++) {
		char *from, *to, *at;

		if (!tune_arg_is_ptr(&k->args[i]) || k->args[i].pointer_range)
			continue;
		from = xstrfmt("(%zu,): [['tt.divisibility', 16]]", i);
		to = xstrfmt("(%zu,): [['tt.divisibility', 16], ['tt.pointer_range', 32]]", i);
		at = strstr(b.buf, from);
		if (at) {
			struct buf nb = BUF_INIT;

			buf_add(&nb, b.buf, (size_t)(at - b.buf));
			buf_adds(&nb, to);
			buf_adds(&nb, at + strlen(from));
			buf_release(&b);
			b = nb;
		} else {
			buf_addf(&missing, "(%zu,): [['tt.pointer_range', 32]], ", i);
		}
		free(from), free(to);
	}
	if (missing.len && open) {
		struct buf nb = BUF_INIT;
		size_t cut = (size_t)(strstr(b.buf, "'configs': [{") - b.buf) + 13;

		buf_add(&nb, b.buf, cut);
		buf_add(&nb, missing.buf, missing.len);
		buf_adds(&nb, b.buf + cut);
		buf_release(&b);
		b = nb;
	}
	buf_release(&missing);
	return buf_detach(&b, NULL);
}

int rewrite_pointer_range(const char *src, size_t len, const struct tune_kernel *k,
			  struct rewrite *r)
{
	struct srclines s;
	size_t first, last, i;
	int added = 0;

	srclines_split(src, len, &s);
	rewrite_kernel_range(k, &s, &first, &last);
	for (i = first; i <= last && !added; i++)
		if (strstr(s.l[i - 1], "'configs': [{"))
			added = rewrite_replace_line(r, &s, i, ptr32_line(k, s.l[i - 1]));
	srclines_release(&s);
	return added;
}

int rewrite_find_int(const char *src, size_t len, const struct tune_kernel *k,
		     const char *name, long *value)
{
	struct srclines s;
	regex_t re;
	regmatch_t m[2];
	char *pat = xstrfmt("^" SP "%s = ([0-9]+)" SP "$", name);
	size_t first, last, i;
	int ret = -1;

	srclines_split(src, len, &s);
	regcomp(&re, pat, REG_EXTENDED);
	rewrite_kernel_range(k, &s, &first, &last);
	for (i = first; i <= last && ret < 0; i++)
		if (!regexec(&re, s.l[i - 1], 2, m, 0)) {
			*value = strtol(s.l[i - 1] + m[1].rm_so, NULL, 10);
			ret = 0;
		}
	regfree(&re);
	free(pat);
	srclines_release(&s);
	return ret;
}

void rewrite_apply(const char *src, size_t len, const struct rewrite *r,
		   struct buf *out)
{
	struct srclines s;
	size_t i, e = 0;

	srclines_split(src, len, &s);
	for (i = 1; i <= s.n; i++) {
		int replaced = e < r->nr && r->e[e].line == i && r->e[e].replace;

		buf_adds(out, replaced ? r->e[e].text : s.l[i - 1]);
		buf_addch(out, '\n');
		if (replaced)
			e++;
		for (; e < r->nr && r->e[e].line == i; e++) {
			buf_adds(out, r->e[e].text);
			buf_addch(out, '\n');
		}
	}
	srclines_release(&s);
}

#define CONTEXT 3

/* Emits one hunk over old lines [a, b] with edits e[from, to). */
static void hunk(const struct srclines *s, const struct rewrite *r, size_t from,
		 size_t to, size_t a, size_t b, long shift, struct buf *out)
{
	size_t i, e = from, added = 0;
	struct buf body = BUF_INIT;

	for (i = a; i <= b; i++) {
		if (e < to && r->e[e].line == i && r->e[e].replace) {
			buf_addf(&body, "-%s\n+%s\n", s->l[i - 1], r->e[e].text);
			e++;
		} else {
			buf_addf(&body, " %s\n", s->l[i - 1]);
		}
		for (; e < to && r->e[e].line == i; e++) {
			buf_addf(&body, "+%s\n", r->e[e].text);
			added++;
		}
	}
	buf_addf(out, "@@ -%zu,%zu +%ld,%zu @@\n", a, b - a + 1,
		 (long)a + shift, b - a + 1 + added);
	buf_add(out, body.buf, body.len);
	buf_release(&body);
}

static size_t inserts(const struct rewrite *r, size_t from, size_t to)
{
	size_t n = 0;

	for (; from < to; from++)
		n += !r->e[from].replace;
	return n;
}

void rewrite_diff(const char *src, size_t len, const struct rewrite *r,
		  const char *path, struct buf *out)
{
	struct srclines s;
	size_t from = 0;
	long shift = 0;

	if (!r->nr)
		return;
	srclines_split(src, len, &s);
	buf_addf(out, "--- a/%s\n+++ b/%s\n", path, path);
	while (from < r->nr) {
		size_t to = from + 1, a, b;

		while (to < r->nr && r->e[to].line <= r->e[to - 1].line + 2 * CONTEXT + 1)
			to++;
		a = r->e[from].line > CONTEXT ? r->e[from].line - CONTEXT : 1;
		b = r->e[to - 1].line + CONTEXT <= s.n ? r->e[to - 1].line + CONTEXT : s.n;
		hunk(&s, r, from, to, a, b, shift, out);
		shift += (long)inserts(r, from, to);
		from = to;
	}
	srclines_release(&s);
}
