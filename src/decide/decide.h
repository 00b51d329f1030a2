/*
 * decide: a RUN's analysis with its decisions, the library behind `tko
 * investigate` and `tko diff`. analysis_build() (analyse/analysis.h)
 * reads and joins the evidence and computes the shares; decide_run()
 * then applies the rules (decide/rules.h: every kernel, the whole-step
 * groups and the step) and lists the gaps (decide/gaps.h).
 *
 *	struct an_run run;
 *	struct an_opts o = AN_OPTS_INIT;
 *	an_run_init(&run);
 *	if (decide_run("RUN", &o, &run, &err) < 0)
 *		... err: "'RUN' is not a RUN directory (no log/, capture/, ...)"
 *	... run.kernels[0].decision
 *	an_run_release(&run);
 */
#ifndef TKO_DECIDE_DECIDE_H
#define TKO_DECIDE_DECIDE_H

#include "analyse/analysis.h"

/* As analysis_build(), then the decisions and the gaps. 0, or -1 with one line in err. */
int decide_run(const char *run_dir, const struct an_opts *o, struct an_run *out,
	       struct buf *err);

#endif
