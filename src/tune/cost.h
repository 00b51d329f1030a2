/*
 * How long `tko tune` will take on one kernel directory, predicted from
 * what the directory holds, so that `tko tune --gpus` (dispatch.c) and
 * `tko cluster plan` (cluster/plan.c) can balance their work. The first
 * that applies:
 *
 *   "measured"  KERNEL_DIR/tune/tune.json (or tune/<target>/tune.json) of
 *               an earlier sweep: its wall_s;
 *   "capture"   capture.json: the autotuned config's recorded time_ms and
 *               whether the kernel is a template (costlier to compile);
 *   "default"   neither (a bare kernel.py, an unreadable capture): the
 *               search budget plus the setup.
 *
 * A prediction never fails: a kernel whose files are bad still gets a
 * task, and `tko tune` reports the bad file there.
 */
#ifndef TKO_TUNE_COST_H
#define TKO_TUNE_COST_H

#include <stddef.h>

#include "util/buf.h"

struct tune_cost_opts {
	double budget_s;	/* tko tune --budget (0: no limit) */
	long max_variants;	/* tko tune --max-variants */
	int compile_only;	/* tko tune --compile-only: nothing is timed */
};
#define TUNE_COST_OPTS_INIT { 60, 40, 0 }

/*
 * Reads --budget, --max-variants and --compile-only from the arguments
 * that the tasks pass to `tko tune`. 0, or -1 with a line in err when a
 * value is not a number.
 */
int tune_cost_opts_parse(struct tune_cost_opts *o, const char *const *args, size_t n,
			    struct buf *err);

/* Predicted seconds for `kernel_dir`; *from names the rule used (above). */
double tune_cost_predict(const char *kernel_dir, const struct tune_cost_opts *o,
			    const char **from);

#endif
