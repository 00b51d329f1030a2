/*
 * Triton configs stored as JSON (capture events' "configs" entries,
 * Inductor's .best_config records) into struct at_config, spelled as the
 * logs spell them, so a config reads the same whichever input gave it.
 */
#ifndef TKO_PARSE_CONFIG_JSON_H
#define TKO_PARSE_CONFIG_JSON_H

#include <jansson.h>

#include "parse/autotune.h"

/* A JSON value in Python's spelling: 1024, 0.5, True, None, 'x'. Caller frees. */
char *py_value_new(const json_t *v);

/*
 * Takes kwargs from the members of `kwargs` (those `skip` rejects are not
 * kwargs; skip may be NULL) and num_warps, num_stages, num_ctas, maxnreg
 * from the members of `fields` (null or missing: unknown).
 */
void at_config_from_json(struct at_config *c, json_t *kwargs,
			 int (*skip)(const char *key), const json_t *fields);

#endif
