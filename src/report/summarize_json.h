/*
 * The autotune model as JSON: the document `tko summarize --json` writes,
 * schema in docs/json.md ("tko summarize", schema_version 1). Unknown
 * numbers are null; a config's "from" (and each kernel's "from" map) says
 * which input file, line and format stated it.
 *
 * The document is streamed (autotune_set_write_json): the summary of a
 * 100 MB log holds hundreds of thousands of values, and building them as
 * a jansson tree first would cost more than reading the log. The jansson
 * forms are for in-process readers that want to query it.
 */
#ifndef TKO_REPORT_SUMMARIZE_JSON_H
#define TKO_REPORT_SUMMARIZE_JSON_H

#include <stdio.h>

#include <jansson.h>

#include "json/jsonw.h"
#include "parse/autotune.h"

#define AUTOTUNE_JSON_SCHEMA 1

/*
 * Writes the whole document to fp; with `only` set, "kernels" holds that
 * kernel alone. 0, or -1 when writing failed.
 */
int autotune_set_write_json(FILE *fp, const struct autotune_set *s,
			    const struct at_kernel *only);

/* Writes one kernel's object (an element of "kernels"). */
void at_kernel_write_json(struct jsonw *w, const struct autotune_set *s,
			  const struct at_kernel *k);

/* The same document, or one kernel's object, as a new jansson reference. */
json_t *autotune_set_to_json(const struct autotune_set *s,
			     const struct at_kernel *only);
json_t *at_kernel_to_json(const struct autotune_set *s,
			  const struct at_kernel *k);

/* A kwarg's printed value as JSON: 1024, true, null, "tl.float32". */
void at_value_write(struct jsonw *w, const char *text);

#endif
