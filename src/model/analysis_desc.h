/*
 * The field tables of the analysis model (analysis.h): the JSON schema of
 * RUN/analysis/kernels.json and of the report's JSON (docs/json.md,
 * "tko investigate"), and what `tko diff` compares.
 */
#ifndef TKO_MODEL_ANALYSIS_DESC_H
#define TKO_MODEL_ANALYSIS_DESC_H

#include <jansson.h>

#include "json/reflect.h"
#include "model/analysis.h"
#include "util/buf.h"

/*
 * Raised when a field changes meaning or disappears (docs/json.md, "tko
 * investigate": what 2 changed).
 */
#define AN_SCHEMA_VERSION 2

extern const struct rf_struct an_run_desc;
extern const struct rf_struct an_kernel_desc;
extern const struct rf_struct an_isa_desc;
extern const struct rf_struct an_res_desc;
extern const struct rf_struct an_config_desc;

/* The run as a JSON document: schema_version, tool, then the fields (new reference). */
json_t *an_run_to_json(const struct an_run *r, const char *tool);

/*
 * Reads a document written by an_run_to_json into an initialised run;
 * `what` names the file. Checks schema_version. 0, or -1 with one line in err.
 */
int an_run_from_json(struct an_run *r, const json_t *doc, const char *what,
		     struct buf *err);

#endif
