/*
 * The profile's JSON document (docs/json.md, "tko profile"): the file and
 * format, the busy/idle accounting, steps, a summary per class, and every
 * group with its share of the busy time. Written as a stream (jsonw), so a
 * profile of thousands of groups costs no tree.
 */
#ifndef TKO_PROFILE_TOJSON_H
#define TKO_PROFILE_TOJSON_H

#include <stdio.h>

#include "profile/prof.h"

#define PROF_SCHEMA_VERSION 1

/* Writes the document; 0, or -1 when writing failed. `top` groups at most (0: all). */
int prof_write_json(FILE *fp, const struct prof *p, size_t top);

/* Busy time per class (us) and activities per class, over all groups. */
void prof_class_totals(const struct prof *p, double busy[PROF_CLASS_COUNT],
		       long calls[PROF_CLASS_COUNT]);

#endif
