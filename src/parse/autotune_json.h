/*
 * The autotune model as JSON: the document `tko summarize --json` writes,
 * schema in docs/json.md ("tko summarize", schema_version 1). Unknown
 * numbers are null; a config's "from" (and each kernel's "from" map) says
 * which input file, line and format stated it.
 */
#ifndef TKO_PARSE_AUTOTUNE_JSON_H
#define TKO_PARSE_AUTOTUNE_JSON_H

#include <jansson.h>

#include "parse/autotune.h"

#define AUTOTUNE_JSON_SCHEMA 1

/*
 * The whole document; with `only` set, "kernels" holds that kernel alone.
 * Returns a new reference.
 */
json_t *autotune_set_to_json(const struct autotune_set *s,
			     const struct at_kernel *only);

/* One kernel's object (an element of "kernels"). A new reference. */
json_t *at_kernel_to_json(const struct autotune_set *s,
			  const struct at_kernel *k);

/* A kwarg's printed value as JSON: 1024, true, null, "tl.float32". */
json_t *at_value_to_json(const char *text);

#endif
