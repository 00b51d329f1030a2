/* Streaming JSON writer (see jsonw.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/jsonw.h"
#include "banned.h"

void jsonw_init(struct jsonw *w, FILE *fp)
{
	memset(w, 0, sizeof(*w));
	w->fp = fp;
}

static void newline(struct jsonw *w)
{
	int i;

	fputc('\n', w->fp);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->fp);
}

/* What goes before a value: a key's ": " was written, or a separator. */
static void before_value(struct jsonw *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (!w->depth)
		return;
	if (w->count[w->depth - 1]++)
		fputc(',', w->fp);
	newline(w);
}

static void open_container(struct jsonw *w, int ch)
{
	if (w->depth >= JSONW_MAX_DEPTH)
		abort();
	before_value(w);
	fputc(ch, w->fp);
	w->count[w->depth] = 0;
	w->close[w->depth] = ch == '{' ? '}' : ']';
	w->depth++;
}

void jsonw_object(struct jsonw *w)
{
	open_container(w, '{');
}

void jsonw_array(struct jsonw *w)
{
	open_container(w, '[');
}

void jsonw_end(struct jsonw *w)
{
	int had = w->count[w->depth - 1];

	w->depth--;
	if (had)
		newline(w);
	fputc(w->close[w->depth], w->fp);
}

static void escaped(FILE *fp, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const char *run = s, *end = s + n;

	fputc('"', fp);
	for (; s < end; s++) {
		unsigned char c = (unsigned char)*s;
		const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n" :
				  c == '\t' ? "\\t" : c == '\r' ? "\\r" : c == '\b' ? "\\b" :
				  c == '\f' ? "\\f" : NULL;

		if (!esc && c >= 0x20)
			continue;
		fwrite(run, 1, (size_t)(s - run), fp);
		if (esc) {
			fputs(esc, fp);
		} else {
			fputs("\\u00", fp);
			fputc(hex[c >> 4], fp);
			fputc(hex[c & 15], fp);
		}
		run = s + 1;
	}
	fwrite(run, 1, (size_t)(end - run), fp);
	fputc('"', fp);
}

void jsonw_key(struct jsonw *w, const char *key)
{
	before_value(w);
	escaped(w->fp, key, strlen(key));
	fputs(": ", w->fp);
	w->after_key = 1;
}

void jsonw_strn(struct jsonw *w, const char *s, size_t n)
{
	before_value(w);
	escaped(w->fp, s, n);
}

void jsonw_str(struct jsonw *w, const char *s)
{
	jsonw_strn(w, s, strlen(s));
}

void jsonw_str_or_null(struct jsonw *w, const char *s)
{
	if (s)
		jsonw_str(w, s);
	else
		jsonw_null(w);
}

void jsonw_int(struct jsonw *w, long long v)
{
	before_value(w);
	fprintf(w->fp, "%lld", v);
}

/* As jansson prints reals: %.10g, with ".0" when that looks like an integer. */
void jsonw_real(struct jsonw *w, double v)
{
	char tmp[64];

	if (isnan(v) || isinf(v)) {
		jsonw_null(w);
		return;
	}
	before_value(w);
	snprintf(tmp, sizeof(tmp), "%.10g", v);
	fputs(tmp, w->fp);
	if (!strpbrk(tmp, ".e"))
		fputs(".0", w->fp);
}

void jsonw_bool(struct jsonw *w, int v)
{
	before_value(w);
	fputs(v ? "true" : "false", w->fp);
}

void jsonw_null(struct jsonw *w)
{
	before_value(w);
	fputs("null", w->fp);
}

int jsonw_finish(struct jsonw *w)
{
	fputc('\n', w->fp);
	return ferror(w->fp) ? -1 : 0;
}
