/*
 * rtext: the numbers and sentences the Markdown and HTML reports share,
 * so both say the same thing in the same words. Every function appends
 * plain text (no markup) to a struct buf; unknown numbers read "-".
 */
#ifndef TKO_REPORT_RTEXT_H
#define TKO_REPORT_RTEXT_H

#include "model/analysis.h"
#include "util/buf.h"

void rt_ms(struct buf *b, double ms);		/* "0.0517" */
void rt_pct(struct buf *b, double fraction);	/* "72.3%" */
void rt_gbps(struct buf *b, double gbps);	/* "3218" */
void rt_mb(struct buf *b, double bytes);	/* "201.3 MB" */
void rt_long(struct buf *b, long v);		/* "30" */

/* What the GB/s and "of copy" columns mean, under every kernel table. */
#define RT_RATE_NOTE "GB/s is the bytes a launch reads and writes (in-place arguments both ways," \
	" a gather by the elements it can fetch) / time per launch; \"est.\" marks an estimate;" \
	" of copy is its fraction of the measured device copy rate, and a rate over 105% of it is" \
	" shown in brackets as \"over copy\" with its cause in the kernel's section, not as a fact."

/* "tune", "keep TorchInductor off", "rewrite the model code", "leave it alone", "measure first" */
const char *rt_decision_title(enum decision decision);

/* "tests/gpu/model.py:37 in scatter" */
void rt_origin(struct buf *b, const struct an_origin *o);
/* "float32[100000, 256] stride [256, 1] offset 0", "= 256", or the signature type */
void rt_arg(struct buf *b, const struct an_arg *a);
/* "128-bit x2, 64-bit x9" */
void rt_widths(struct buf *b, const struct an_family *f);
/* "atomics=4, share=0.075" */
void rt_evidence(struct buf *b, const struct an_fired *f);

/* Launches x time = total, share and rank, with where each came from. */
void rt_time(struct buf *b, const struct an_kernel *k);
/* "4195", "5 est." for an estimate, "(54769)" for a rate over 105% of the copy rate */
void rt_rate(struct buf *b, const struct an_kernel *k);
/* "98.9%" of the copy rate, or "over copy" when the rate is doubted */
void rt_rate_fraction(struct buf *b, const struct an_kernel *k);
/* The bytes moved, the rate and its fraction of the copy rate, or the doubt, labelled honestly. */
void rt_bytes(struct buf *b, const struct an_kernel *k, const struct an_run *r);
/* Pointer hints present and missing, tl.assume / multiple_of / max_contiguous use. */
void rt_hints(struct buf *b, const struct an_kernel *k);
/* The ISA summary: which binary, memory families and widths, atomics, LDS, matrix. */
void rt_isa(struct buf *b, const struct an_kernel *k);
/* Resources: registers, spills, scratch, LDS/shared, occupancy, warps, stages. */
void rt_resources(struct buf *b, const struct an_kernel *k);
/* Where the run's peak came from, or that there is none. */
void rt_peak(struct buf *b, const struct an_run *r);

#endif
