/*
 * The "tko isa" JSON document (docs/json.md, section "tko isa") of an
 * isa_result.
 */
#ifndef TKO_REPORT_ISA_JSON_H
#define TKO_REPORT_ISA_JSON_H

#include <jansson.h>

#include "isa/isa.h"

/* The whole result as a "tko isa" JSON document (new reference). */
json_t *isa_result_to_json(const struct isa_result *res);
/* One kernel, as it appears in that document's "kernels" array. */
json_t *isa_kernel_to_json(const struct isa_file_result *f,
			   const struct isa_kernel *k);

#endif
