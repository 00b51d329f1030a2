/*
 * The autotune model for people: the terminal tables `tko summarize`
 * prints and the Markdown document --md writes, both from util/table.h.
 *
 *	autotune_text_print(stdout, &set, NULL, 0);	(every kernel, terminal)
 *	autotune_text_print(fp, &set, k, 1);		(one kernel in detail, Markdown)
 *
 * The summary has one row per kernel (its final config, time, registers,
 * how it was chosen) and one line per input saying how many of its lines
 * were used, ignored and malformed. With one kernel, each of its tunings
 * is a table of the configs it timed.
 */
#ifndef TKO_REPORT_AUTOTUNE_TEXT_H
#define TKO_REPORT_AUTOTUNE_TEXT_H

#include <stdio.h>

#include "parse/autotune.h"
#include "util/buf.h"

/* Prints the summary, or `only` in detail, as text or Markdown. */
void autotune_text_print(FILE *fp, const struct autotune_set *s,
			 const struct at_kernel *only, int markdown);

/*
 * A short spelling of a config: its integer kwargs, then w<num_warps>,
 * s<num_stages>, r<maxnreg> ("XBLOCK=1024 w4 s1"), after its label if any.
 */
void at_config_brief(struct buf *out, const struct at_config *c);

#endif
