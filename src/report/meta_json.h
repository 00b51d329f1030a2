/*
 * The `tko meta` JSON document (docs/json.md, "tko meta") of a struct
 * meta_set (parse/meta.h).
 */
#ifndef TKO_REPORT_META_JSON_H
#define TKO_REPORT_META_JSON_H

#include <stdio.h>

#include <jansson.h>

#include "parse/meta.h"

/*
 * The `tko meta` JSON document (docs/json.md, "tko meta"), a new
 * reference: every kernel, or only sel[0..nsel) when sel is not NULL.
 */
json_t *meta_to_json(const struct meta_set *set, const struct meta_kernel *const *sel,
		     size_t nsel);

/*
 * Writes the same document to fp, one kernel object at a time, so memory
 * stays that of one kernel however large the RUN (the whole tree for
 * thousands of kernels takes hundreds of MB). Returns 0, or -1 when a
 * write fails (errno set).
 */
int meta_write_json(FILE *fp, const struct meta_set *set,
		    const struct meta_kernel *const *sel, size_t nsel);

/* One kernel's JSON object, as in the document's "kernels" array. */
json_t *meta_kernel_to_json(const struct meta_kernel *k);

#endif
