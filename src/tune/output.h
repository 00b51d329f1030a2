/*
 * A sweep's tune.json entry (docs/json.md, "tko tune") as the typed model:
 * the base's time, GB/s and their doubt, the ISA against the base, worked
 * out once here for the JSON and the text (report/tune_text.h renders the
 * entry). The winner's files are tune/winner.h's.
 */
#ifndef TKO_TUNE_OUTPUT_H
#define TKO_TUNE_OUTPUT_H

#include <jansson.h>

#include "model/tune.h"
#include "tune/sweep.h"

/*
 * The kernel's entry of the "kernels" list as the typed model
 * (model/tune.h), d initialised. 0, or -1 with a line in err.
 */
int tune_output_fill(const struct tune_sweep *s, struct tune_doc_kernel *d, struct buf *err);

#endif
