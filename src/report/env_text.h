/*
 * The terminal view of the `tko env` document (docs/json.md, "tko env";
 * also RUN/env.json): a what|found table of versions, the copy bandwidth
 * and the GPUs, a tool|version|path table, the environment flags that
 * change code generation, what tko has checked for each Hygon arch, then
 * the document's notes and warnings.
 */
#ifndef TKO_REPORT_ENV_TEXT_H
#define TKO_REPORT_ENV_TEXT_H

#include <stdio.h>

#include "model/env.h"

void env_text_print(FILE *fp, const struct env_doc *doc);

#endif
