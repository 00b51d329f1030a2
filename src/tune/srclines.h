/*
 * The line helpers the source rewriters share (rewrite.c, twopass.c):
 * the file as an array of lines, the kernel's line range, and adding
 * edits to a struct rewrite. Internal to src/tune/.
 */
#ifndef TKO_TUNE_SRCLINES_H
#define TKO_TUNE_SRCLINES_H

#include <regex.h>
#include <stddef.h>

#include "tune/rewrite.h"

#define ID "[A-Za-z_][A-Za-z_0-9]*"
#define SP "[ \t]*"

/* The file as an array of lines. */
struct srclines {
	char **l;	/* NUL-terminated copies, without the newline */
	size_t n, alloc;
};

void srclines_split(const char *src, size_t len, struct srclines *s);
void srclines_release(struct srclines *s);

/* Adds an edit, keeping them sorted: by line, a replace before the inserts after it. */
void rewrite_add_edit(struct rewrite *r, size_t line, int replace, char *text);
/* Replaces line i by `text` (taken) unless they are equal; 1 when it did. */
int rewrite_replace_line(struct rewrite *r, const struct srclines *s, size_t i, char *text);
/* The text of a regex group, as a new string. */
char *rewrite_group(const char *s, const regmatch_t *m);
/* The kernel's line range, 1-based, clipped to the file. */
void rewrite_kernel_range(const struct tune_kernel *k, const struct srclines *s,
			  size_t *first, size_t *last);
/* The line after the def's closing "):" (1-based), or 0. */
size_t rewrite_body_start(const struct tune_kernel *k, const struct srclines *s);

#endif
