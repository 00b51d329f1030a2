/*
 * A streaming JSON writer: values go straight to a FILE, so a document of
 * hundreds of thousands of values (the summary of a 100 MB log) costs no
 * tree of allocations to build, dump and free. Its bytes are jansson's:
 * jsonw_init_prec(w, fp, 10) writes what json_dumpf(JSON_INDENT(2) |
 * JSON_REAL_PRECISION(10)) writes (two spaces per level, "[]" and "{}" when
 * empty), jsonw_init_compact() what JSON_COMPACT writes; so files look the
 * same whichever way tko wrote them, and a jansson tree can be written
 * inside a streamed document (jsonw_value).
 *
 *	struct jsonw w;
 *	jsonw_init_prec(&w, fp, 10);
 *	jsonw_object(&w);
 *	jsonw_key(&w, "schema_version"); jsonw_int(&w, 1);
 *	jsonw_key(&w, "kernels"); jsonw_array(&w); ... jsonw_end(&w);
 *	jsonw_end(&w);
 *	jsonw_finish(&w);	(final newline; returns -1 if writing failed)
 *
 * Containers nest at most JSONW_MAX_DEPTH deep (deeper is a programming
 * error and aborts; it is jansson's own parsing limit, so any tree jansson
 * read fits). Strings must be UTF-8 (tko checks its text inputs); they are
 * escaped as jansson escapes them. Non-finite numbers are written as null.
 */
#ifndef TKO_JSON_JSONW_H
#define TKO_JSON_JSONW_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#define JSONW_MAX_DEPTH 2048

struct jsonw {
	FILE *fp;			/* where the text goes */
	int depth;			/* open containers */
	int after_key;			/* a key was written; its value comes next */
	int precision;			/* significant digits of reals (jansson's REAL_PRECISION) */
	int compact;			/* one line, no spaces (jansson's JSON_COMPACT) */
	int count[JSONW_MAX_DEPTH];	/* values written in each open container */
	char close[JSONW_MAX_DEPTH];	/* the character that closes each: '}' or ']' */
};

/* Indented, reals to `precision` digits (1-30; kernels.json uses 17). */
void jsonw_init_prec(struct jsonw *w, FILE *fp, int precision);
/* One line, no spaces, reals to 17 digits: json_dumps(v, JSON_COMPACT). */
void jsonw_init_compact(struct jsonw *w, FILE *fp);
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
/* A jansson tree, in the writer's layout; NULL is written as null. */
void jsonw_value(struct jsonw *w, const json_t *v);
/* Ends the document with a newline; 0, or -1 when a write failed. */
int jsonw_finish(struct jsonw *w);

/*
 * A whole document: v indented with reals to `precision` digits, then a
 * newline; json_dumpf(v, fp, JSON_INDENT(2) | JSON_REAL_PRECISION(p)) and
 * "\n", byte for byte. 0, or -1 when a write failed.
 */
int jsonw_write_doc(FILE *fp, const json_t *v, int precision);

/*
 * json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY), byte for byte: a new
 * string (free it), or NULL when v is NULL or memory ran out.
 */
char *jsonw_compact_string(const json_t *v);

#endif
