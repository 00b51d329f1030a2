/*
 * Python literal trees (pylit.h) turned into JSON for tko's outputs, and
 * into Python's repr() for dict keys JSON cannot hold (`(0,)`).
 */
#ifndef TKO_PYLIT_JSON_H
#define TKO_PYLIT_JSON_H

#include <jansson.h>

#include "parse/pylit.h"
#include "util/buf.h"

/*
 * Appends Python's repr() of v: `(0,)`, `1`, `True`, `'x'`, `{'a': [1]}`.
 * Floats use the shortest "%g" form that reads back to the same double,
 * with ".0" added to whole numbers as Python does.
 */
void pylit_repr(struct buf *out, const struct pylit *v);

/*
 * The value as JSON (a new reference): None null, bools, ints, floats
 * (inf/nan become null), STR string; LIST, TUPLE and SET arrays; DICT an
 * object whose string keys stay and other keys become their repr ("(0,)");
 * NAME {"$name": "x.y"}; EXPR {"$expr": "text"}; CALL {"$call": "f",
 * "args": [...], "kwargs": {...}}; BYTES {"$bytes": "..."} (one code point
 * per byte). A string that is not UTF-8 becomes {"$bytes": ...} too.
 */
json_t *pylit_to_json(const struct pylit *v);

#endif
