/*
 * A streaming JSON writer: values go straight to a FILE, so a document of
 * hundreds of thousands of values (the summary of a 100 MB log) costs no
 * tree of allocations to build, dump and free. The layout is jansson's
 * JSON_INDENT(2) (two spaces per level, "[]" and "{}" when empty), so
 * files look the same whichever way tko wrote them.
 *
 *	struct jsonw w;
 *	jsonw_init(&w, fp);
 *	jsonw_object(&w);
 *	jsonw_key(&w, "schema_version"); jsonw_int(&w, 1);
 *	jsonw_key(&w, "kernels"); jsonw_array(&w); ... jsonw_end(&w);
 *	jsonw_end(&w);
 *	jsonw_finish(&w);	(final newline; returns -1 if writing failed)
 *
 * Containers nest at most JSONW_MAX_DEPTH deep (deeper is a programming
 * error and aborts). Strings must be UTF-8 (tko checks its text inputs); they are escaped as
 * JSON requires. Non-finite numbers are written as null.
 */
#ifndef TKO_REPORT_JSONW_H
#define TKO_REPORT_JSONW_H

#include <stddef.h>
#include <stdio.h>

#define JSONW_MAX_DEPTH 32

struct jsonw {
	FILE *fp;			/* where the text goes */
	int depth;			/* open containers */
	int count[JSONW_MAX_DEPTH];	/* values written in each open container */
	char close[JSONW_MAX_DEPTH];	/* the character that closes each: '}' or ']' */
	int after_key;			/* a key was written; its value comes next */
};

void jsonw_init(struct jsonw *w, FILE *fp);
void jsonw_object(struct jsonw *w);
void jsonw_array(struct jsonw *w);
/* Closes the innermost object or array. */
void jsonw_end(struct jsonw *w);
void jsonw_key(struct jsonw *w, const char *key);
void jsonw_str(struct jsonw *w, const char *s);
void jsonw_strn(struct jsonw *w, const char *s, size_t n);
/* A string, or null when s is NULL. */
void jsonw_str_or_null(struct jsonw *w, const char *s);
void jsonw_int(struct jsonw *w, long long v);
void jsonw_real(struct jsonw *w, double v);
void jsonw_bool(struct jsonw *w, int v);
void jsonw_null(struct jsonw *w);
/* Ends the document with a newline; 0, or -1 when a write failed. */
int jsonw_finish(struct jsonw *w);

#endif
