/*
 * A sweep's tune.json entry (docs/json.md, "tko tune") and the figures it
 * shares with the text (report/tune_text.h): the base's time, GB/s and
 * their doubt, the ISA against the base. The winner's files are
 * tune/winner.h's.
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

/* The base variant's time in ms, or -1 when it has none. */
double tune_output_base_ms(const struct tune_sweep *s);
/* The GB/s of a time in ms: the bytes the launch moves (model/traffic.h), or Inductor's. */
double tune_output_gbps(const struct tune_sweep *s, double ms);
/* Why a rate g is no fact (a new string), or NULL (model/traffic.h, traffic_rate_doubt). */
char *tune_output_doubt(const struct tune_sweep *s, double g);
/* The ISA cell of r: the base's summary, else what changed from it ("same"). */
void tune_output_isa_cell(const struct tune_sweep *s, const struct tune_result *r,
			  struct buf *out);

#endif
