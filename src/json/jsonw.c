/* Streaming JSON writer (see jsonw.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json/jsonw.h"
#include "banned.h"

void jsonw_init_prec(struct jsonw *w, FILE *fp, int precision)
{
	w->fp = fp;
	w->depth = 0;
	w->after_key = 0;
	w->precision = precision;
	w->compact = 0;
}

/* jansson's precision when JSON_REAL_PRECISION is not given. */
void jsonw_init_compact(struct jsonw *w, FILE *fp)
{
	jsonw_init_prec(w, fp, 17);
	w->compact = 1;
}

static void newline(struct jsonw *w)
{
	int i;

	if (w->compact)
		return;
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

/* jansson's escapes: the short ones, else \u00XX in capitals; UTF-8 as it is. */
static void escaped(const struct jsonw *w, const char *s, size_t n)
{
	const char *hex = "0123456789ABCDEF";
	const char *run = s, *end = s + n;
	FILE *fp = w->fp;

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
	escaped(w, key, strlen(key));
	fputs(w->compact ? ":" : ": ", w->fp);
	w->after_key = 1;
}

void jsonw_strn(struct jsonw *w, const char *s, size_t n)
{
	before_value(w);
	escaped(w, s, n);
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

/*
 * As jansson's jsonp_dtostr(): %.<precision>g, and ".0" when that reads as
 * an integer; then no '+' and no leading zeros in the exponent ("1e20",
 * "1e-7").
 */
static void real_text(char *buf, size_t size, double v, int precision)
{
	char *e, *digits;
	size_t len;

	snprintf(buf, size, "%.*g", precision, v);
	if (!strpbrk(buf, ".e")) {
		len = strlen(buf);
		if (len + 3 <= size)
			memcpy(buf + len, ".0", 3);
	}
	e = strchr(buf, 'e');
	if (!e)
		return;
	e++;
	if (*e == '-')
		e++;
	digits = e;
	while (*digits == '+' || *digits == '0')
		digits++;
	memmove(e, digits, strlen(digits) + 1);
}

void jsonw_real(struct jsonw *w, double v)
{
	char tmp[64];

	if (isnan(v) || isinf(v)) {
		jsonw_null(w);
		return;
	}
	before_value(w);
	real_text(tmp, sizeof(tmp), v, w->precision);
	fputs(tmp, w->fp);
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

void jsonw_value(struct jsonw *w, const json_t *v)
{
	const char *key;
	json_t *x;
	size_t i;

	if (!v) {
		jsonw_null(w);
		return;
	}
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		jsonw_object(w);
		json_object_foreach((json_t *)v, key, x) {
			jsonw_key(w, key);
			jsonw_value(w, x);
		}
		jsonw_end(w);
		break;
	case JSON_ARRAY:
		jsonw_array(w);
		json_array_foreach(v, i, x)
			jsonw_value(w, x);
		jsonw_end(w);
		break;
	case JSON_STRING:
		jsonw_strn(w, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		jsonw_int(w, (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		jsonw_real(w, json_real_value(v));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		jsonw_bool(w, json_is_true(v));
		break;
	default:
		jsonw_null(w);
		break;
	}
}

int jsonw_finish(struct jsonw *w)
{
	fputc('\n', w->fp);
	return ferror(w->fp) ? -1 : 0;
}

int jsonw_write_doc(FILE *fp, const json_t *v, int precision)
{
	struct jsonw w;

	jsonw_init_prec(&w, fp, precision);
	jsonw_value(&w, v);
	return jsonw_finish(&w);
}

char *jsonw_compact_string(const json_t *v)
{
	char *s = NULL;
	size_t n = 0;
	FILE *fp;
	struct jsonw w;
	int bad;

	if (!v)
		return NULL;
	fp = open_memstream(&s, &n);
	if (!fp)
		return NULL;
	jsonw_init_compact(&w, fp);
	jsonw_value(&w, v);
	bad = ferror(fp);
	if (fclose(fp) || bad) {
		free(s);
		return NULL;
	}
	return s;
}
