/*
 * A JSON reader built for profiles of gigabytes: it never builds a tree.
 *
 * Two parts. jscan_extent() finds where one JSON value ends in a buffer
 * that may hold only its beginning; it keeps its state, so after more
 * bytes arrive it carries on where it stopped instead of starting over.
 * A caller (chrome.c) uses it to hold one trace event at a time in the
 * input window. The cursor functions (jc_*) then read that complete value
 * in place: keys and strings are spans into the buffer, numbers are
 * parsed without a copy, and everything not asked for is skipped.
 *
 * Why not a library: the Chrome traces tko reads are one array of
 * millions of small objects, of which it keeps a dozen fields. A tree
 * parser (jansson) holds the whole document, gigabytes for a large
 * trace; an event-callback parser (yajl) would do, but is not among the
 * dependencies tko already has, and its callbacks still turn every key
 * and value into a call. Finding each event's end and then picking
 * fields from it costs two byte loops over the event and no allocation.
 *
 * The cursor checks syntax as far as it reads: a malformed value is an
 * error (-1), never a crash, and strings are checked for control bytes.
 */
#ifndef TKO_PROFILE_JSCAN_H
#define TKO_PROFILE_JSCAN_H

#include <stddef.h>

#include "util/buf.h"

/* Where jscan_extent() stopped inside a value. */
struct jscan {
	size_t off;		/* bytes of the value already scanned */
	int depth;		/* open objects and arrays */
	int in_str;		/* inside a string */
	int esc;		/* after a backslash inside a string */
	int started;		/* the first byte has been seen */
	int scalar;		/* the value is a number or literal */
};
#define JSCAN_INIT { 0, 0, 0, 0, 0, 0 }

/*
 * Scans the value that starts at p[0] (no leading whitespace). Returns 1
 * when it is complete (s->off is its length), 0 when p[0..len) ends
 * inside it (call again with the same start and more bytes; at end of
 * input a number ends there), -1 when it is not JSON.
 */
int jscan_extent(struct jscan *s, const char *p, size_t len, int at_eof);

/* A cursor over a complete value. */
struct jcur {
	const char *p, *end;
};

enum jtype { JT_ERROR, JT_OBJECT, JT_ARRAY, JT_STRING, JT_NUMBER, JT_TRUE, JT_FALSE, JT_NULL };

/* The type of the value at the cursor (after whitespace). */
enum jtype jc_peek(struct jcur *c);
/* Skips one value. 0, or -1 when malformed. */
int jc_skip(struct jcur *c);

/*
 * Objects: jc_object() enters one (0, or -1 if none is there); each
 * jc_key() gives the next key's raw span and leaves the cursor on its
 * value, which the caller reads or skips; it returns 1, 0 after the
 * closing brace, -1 when malformed.
 */
int jc_object(struct jcur *c);
int jc_key(struct jcur *c, const char **k, size_t *n);
/* Arrays the same way: jc_item() returns 1 with the cursor on the next item. */
int jc_array(struct jcur *c);
int jc_item(struct jcur *c);

/*
 * A string's raw span (between the quotes, escapes not undone) and
 * whether it has escapes. 0, or -1 when the value is not a string.
 */
int jc_string(struct jcur *c, const char **s, size_t *n, int *escaped);
/* A number (an integer or a decimal fraction, exponent allowed); 0 or -1. */
int jc_number(struct jcur *c, double *v);
/* A number, or a string holding one ("3"): 0, or -1. */
int jc_number_or_string(struct jcur *c, double *v);

/* Undoes the escapes of a raw string span into out (appending); 0 or -1. */
int json_unescape(const char *s, size_t n, struct buf *out);

#endif
