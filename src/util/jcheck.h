/*
 * Checking a JSON document read from a file against a table of the fields
 * tko reads from it, before anything reads them: a field of the wrong type
 * is one line naming the file and the field's path ("'r/analysis/
 * replay.json': kernels[2].configs[0].time_ms: not a time (a number >= 0)")
 * instead of a silent fallback or a crash further on.
 *
 *	static const struct jc_field cfg[] = {
 *		{ "time_ms", JC_TIME, JC_NULL, NULL },
 *		{ NULL, 0, 0, NULL },
 *	};
 *	static const struct jc_field top[] = {
 *		{ "configs", JC_LIST, JC_NEED, cfg },
 *		{ NULL, 0, 0, NULL },
 *	};
 *	if (jc_check(doc, top, "replay.json", &err) < 0) ...
 *
 * Fields not in the table are not looked at; a missing field is fine
 * unless JC_NEED, a null one unless it lacks JC_NULL.
 */
#ifndef TKO_UTIL_JCHECK_H
#define TKO_UTIL_JCHECK_H

#include <jansson.h>

#include "util/buf.h"

enum jc_type {
	JC_STR,		/* a string */
	JC_NUM,		/* any number */
	JC_TIME,	/* a finite number >= 0 (milliseconds, seconds) */
	JC_COUNT,	/* an integer >= 0 */
	JC_BOOL,	/* true or false */
	JC_OBJ,		/* an object, its fields checked against `sub` (may be NULL) */
	JC_LIST,	/* a list of objects, each checked against `sub` */
	JC_STRS,	/* a list of strings */
	JC_MAP,		/* an object whose every value is an object checked against `sub` */
	JC_COUNTS,	/* an object whose every value is a count or null */
	JC_RATE,	/* a finite number >= 0 that is not a time (GB/s, a speedup, a fraction) */
};

#define JC_NEED 1	/* must be there */
#define JC_NULL 2	/* may be null */

struct jc_field {
	const char *key;		/* NULL ends a table */
	enum jc_type type;
	int flags;			/* JC_NEED, JC_NULL */
	const struct jc_field *sub;	/* JC_OBJ, JC_LIST: the fields of the object(s) */
};

/* Whether v is of type t, its own members aside (a JC_LIST: a list of objects). */
int jc_type_ok(const json_t *v, enum jc_type t);

/* 0, or -1 with one line in err naming `file` and the first bad field. */
int jc_check(const json_t *doc, const struct jc_field *fields, const char *file,
	     struct buf *err);

#endif
