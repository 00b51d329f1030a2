/* Aligned text and Markdown tables (see table.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/mem.h"
#include "util/table.h"
#include "util/textout.h"
#include "banned.h"

static void push_cell(struct table *t, char *s)
{
	ALLOC_GROW(t->cells, t->ncells + 1, t->alloc);
	t->cells[t->ncells++] = s;
}

void table_columns(struct table *t, const char *heads, const char *align)
{
	const char *p = heads;
	size_t i;

	for (;;) {
		const char *bar = strchr(p, '|');
		size_t n = bar ? (size_t)(bar - p) : strlen(p);

		push_cell(t, xstrndup(p, n));
		t->ncols++;
		if (!bar)
			break;
		p = bar + 1;
	}
	t->align = xmalloc(t->ncols + 1);
	for (i = 0; i < t->ncols; i++)
		t->align[i] = align && i < strlen(align) ? align[i] : 'l';
	t->align[t->ncols] = '\0';
}

/* Pads the current row, if incomplete, so every row has ncols cells. */
static void finish_row(struct table *t)
{
	while (t->ncols && t->ncells % t->ncols)
		push_cell(t, xstrdup(""));
}

void table_row(struct table *t)
{
	finish_row(t);
}

/* A cell holds one line: control characters and newlines are escaped here, so widths count them. */
void table_cell(struct table *t, const char *fmt, ...)
{
	struct buf b = BUF_INIT, e = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (text_needs_escape(b.buf, b.len, 0)) {
		text_escape(&e, b.buf, b.len, 0);
		buf_release(&b);
		b = e;
	}
	push_cell(t, buf_detach(&b, NULL));
}

size_t table_rows(const struct table *t)
{
	size_t cells = t->ncells;

	if (!t->ncols)
		return 0;
	cells = (cells + t->ncols - 1) / t->ncols;
	return cells ? cells - 1 : 0;
}

static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

static const char *cell(const struct table *t, size_t row, size_t col)
{
	size_t i = row * t->ncols + col;

	return i < t->ncells ? t->cells[i] : "";
}

void table_print(const struct table *t, FILE *fp)
{
	size_t *w = xcalloc(t->ncols, sizeof(*w));
	size_t r, c, rows = table_rows(t) + 1;

	for (r = 0; r < rows; r++)
		for (c = 0; c < t->ncols; c++)
			if (width(cell(t, r, c)) > w[c])
				w[c] = width(cell(t, r, c));
	for (r = 0; r < rows; r++) {
		for (c = 0; c < t->ncols; c++) {
			const char *s = cell(t, r, c);
			size_t pad = w[c] - width(s);
			int last = c + 1 == t->ncols;

			if (t->align[c] == 'r')
				fprintf(fp, "%*s%s", (int)pad, "", s);
			else
				fprintf(fp, "%s%*s", s, last ? 0 : (int)pad, "");
			if (!last)
				fputs("  ", fp);
		}
		fputc('\n', fp);
	}
	free(w);
}

void md_escape(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", fp);
		else if (*s == '\n')
			fputs("<br>", fp);
		else
			fputc(*s, fp);
	}
}

void table_print_md(const struct table *t, FILE *fp)
{
	size_t r, c, rows = table_rows(t) + 1;

	for (r = 0; r < rows; r++) {
		fputc('|', fp);
		for (c = 0; c < t->ncols; c++) {
			fputc(' ', fp);
			md_escape(fp, cell(t, r, c));
			fputs(" |", fp);
		}
		fputc('\n', fp);
		if (r == 0) {
			fputc('|', fp);
			for (c = 0; c < t->ncols; c++)
				fputs(t->align[c] == 'r' ? " ---: |" : " --- |", fp);
			fputc('\n', fp);
		}
	}
}

void table_release(struct table *t)
{
	size_t i;

	for (i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->align);
	*t = (struct table)TABLE_INIT;
}
