/*
 * Text tables for the terminal and for Markdown, from the same rows.
 *
 *	struct table t = TABLE_INIT;
 *	table_columns(&t, "kernel|time ms|GB/s", "lrr");
 *	table_row(&t);
 *	table_cell(&t, "%s", name);
 *	table_cell(&t, "%.4f", ms);
 *	...
 *	table_print(&t, stdout);	(aligned columns)
 *	table_print_md(&t, stdout);	(a GitHub-flavoured Markdown table)
 *	table_release(&t);
 *
 * Widths count UTF-8 code points, so non-ASCII names still line up.
 */
#ifndef TKO_TABLE_H
#define TKO_TABLE_H

#include <stddef.h>
#include <stdio.h>

struct table {
	size_t ncols;	/* columns, set by table_columns */
	char **cells;	/* row-major: header row first, then each row */
	size_t ncells, alloc;
	char *align;	/* one 'l' or 'r' per column */
};
#define TABLE_INIT { 0, NULL, 0, 0, NULL }

/* Header names separated by '|'; align is "l"/"r" per column (missing: 'l'). */
void table_columns(struct table *t, const char *heads, const char *align);
void table_row(struct table *t);
void table_cell(struct table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
size_t table_rows(const struct table *t);
void table_print(const struct table *t, FILE *fp);
void table_print_md(const struct table *t, FILE *fp);
void table_release(struct table *t);

/* Writes s to fp with Markdown table metacharacters ('|', newlines) escaped. */
void md_escape(FILE *fp, const char *s);

#endif
