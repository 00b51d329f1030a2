/* CSV rows (csv.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profile/csv.h"
#include "profile/input.h"
#include "util/mem.h"
#include "banned.h"

static void start_field(struct csv_row *r)
{
	if (r->n == r->alloc) {
		r->alloc = r->alloc ? r->alloc * 2 : 32;
		r->off = xrealloc(r->off, r->alloc * sizeof(*r->off));
	}
	r->off[r->n++] = r->text.len;
}

/* A quoted field from after its opening quote; returns the index past it, or n+1 if unclosed. */
static size_t quoted(struct csv_row *r, const char *s, size_t i, size_t n)
{
	while (i < n) {
		const char *q = memchr(s + i, '"', n - i);

		if (!q)
			return n + 1;
		buf_add(&r->text, s + i, (size_t)(q - (s + i)));
		i = (size_t)(q - s) + 1;
		if (i < n && s[i] == '"') {
			buf_addch(&r->text, '"');
			i++;
			continue;
		}
		return i;
	}
	return n + 1;
}

int csv_split(struct csv_row *r, const char *s, size_t n)
{
	size_t i = 0;

	buf_reset(&r->text);
	r->n = 0;
	for (;;) {
		const char *comma;
		size_t end;

		start_field(r);
		while (i < n && s[i] == ' ')
			i++;
		if (i < n && s[i] == '"') {
			i = quoted(r, s, i + 1, n);
			if (i > n)
				return -1;
		}
		/* the field up to the next comma (a whole field can be 1 MiB: no byte loop) */
		comma = memchr(s + i, ',', n - i);
		end = comma ? (size_t)(comma - s) : n;
		buf_add(&r->text, s + i, end - i);
		i = end;
		buf_rtrim(&r->text);
		buf_addch(&r->text, '\0');
		if (i >= n)
			return 0;
		i++;
	}
}

void csv_row_release(struct csv_row *r)
{
	buf_release(&r->text);
	free(r->off);
	r->off = NULL;
	r->n = r->alloc = 0;
}

const char *csv_field(const struct csv_row *r, int i)
{
	return i >= 0 && (size_t)i < r->n ? r->text.buf + r->off[i] : "";
}

int csv_col(const struct csv_row *hdr, const char *name)
{
	size_t i;

	for (i = 0; i < hdr->n; i++)
		if (!strcasecmp(csv_field(hdr, (int)i), name))
			return (int)i;
	return -1;
}

int csv_col_prefix(const struct csv_row *hdr, const char *prefix)
{
	size_t i, n = strlen(prefix);

	for (i = 0; i < hdr->n; i++)
		if (!strncasecmp(csv_field(hdr, (int)i), prefix, n))
			return (int)i;
	return -1;
}

int csv_num(const struct csv_row *r, int i, double *v)
{
	const char *s = csv_field(r, i);
	char *end;

	if (!*s)
		return -1;
	*v = strtod(s, &end);
	return *end || !isfinite(*v) ? -1 : 0;	/* "nan" and "inf" are no times or counts */
}

int csv_trailing_int(const struct csv_row *r, int i, long *v)
{
	const char *s = csv_field(r, i), *e = s + strlen(s), *d;

	while (e > s && (e[-1] == ')' || e[-1] == ' '))
		e--;
	d = e;
	while (d > s && d[-1] >= '0' && d[-1] <= '9')
		d--;
	if (d == e)
		return -1;
	*v = strtol(d, NULL, 10);
	return 0;
}

static int has_all(const struct csv_row *hdr, const char *const *required)
{
	for (; *required; required++)
		if (csv_col(hdr, *required) < 0)
			return 0;
	return 1;
}

long csv_read_table(struct prof_input *in, const char *const *required,
		    int (*row_fn)(void *ctx, const struct csv_row *hdr, const struct csv_row *row),
		    void *ctx, long *skipped, struct buf *err)
{
	struct csv_row hdr = CSV_ROW_INIT, row = CSV_ROW_INIT;
	const char *line;
	size_t n;
	long rows = 0, seen = 0;
	int r, found = 0;

	while (!found && seen++ < CSV_HEADER_SEARCH && (r = input_line(in, &line, &n, err)) == 1)
		found = csv_split(&hdr, line, n) == 0 && has_all(&hdr, required);
	if (!found) {
		if (!err->len)
			buf_addf(err, "'%s': no header naming %s in its first %d lines", in->path,
				 required[0], CSV_HEADER_SEARCH);
		rows = -1;
		goto done;
	}
	while ((r = input_line(in, &line, &n, err)) == 1) {
		if (!n)
			continue;
		if (csv_split(&row, line, n) < 0 || row_fn(ctx, &hdr, &row) < 0)
			(*skipped)++;
		else
			rows++;
	}
	if (r < 0)
		rows = -1;
done:
	csv_row_release(&hdr);
	csv_row_release(&row);
	return rows;
}
