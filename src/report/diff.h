/*
 * diff: what changed between two analyses, kernel by kernel: time, share
 * and rank, config, ISA families and widths, resources, rules and
 * decision. The two sides are anything diff_load() reads: a RUN directory
 * (its analysis/kernels.json, else analysed now), a kernels.json or
 * report.json, a `tko isa --json` document, or a directory or file of
 * assembly (a capture kernel directory, a tune variant, a Triton cache
 * entry). Kernels are paired by id, else by name when that is unique on
 * both sides.
 *
 * Entry points: diff_load(), diff_runs(); output in report/diff_out.h.
 */
#ifndef TKO_REPORT_DIFF_H
#define TKO_REPORT_DIFF_H

#include <stddef.h>

#include "json/reflect.h"
#include "model/analysis.h"
#include "rundir/layout.h"
#include "util/buf.h"

/* Numbers closer than this (relative) are the same: times repeat to a few tenths of a percent. */
#define DIFF_REL_TOL 0.005

/* A kernel's status; diff_status_names[] is its name in tko diff's outputs. */
enum diff_status {
	DIFF_CHANGED,
	DIFF_SAME,
	DIFF_ONLY_A,		/* only side A has it */
	DIFF_ONLY_B,
	DIFF_NSTATUS
};
/* "changed", "same", "only_a", "only_b", NULL-terminated. */
extern const char *const diff_status_names[DIFF_NSTATUS + 1];

struct kdiff {
	char *id;		/* the kernel, as side A names it (or B for only_b) */
	enum diff_status status;
	struct rf_changes changes;	/* field, A value, B value */
};

struct an_diff {
	char *a, *b;		/* the two inputs as given */
	struct kdiff *v;
	size_t nr, alloc;
	size_t changed, same, only_a, only_b;	/* kernels by status */
	struct rf_changes run;	/* run-wide differences (device, peak, totals) */
};
#define AN_DIFF_INIT { NULL, NULL, NULL, 0, 0, 0, 0, 0, 0, RF_CHANGES_INIT }

/*
 * Reads one side into an initialised run: a directory that meets `run`
 * (tko diff's row in the command table: rd_need_diff) is a RUN, any other
 * one a folder of assembly. 0, or -1 with one line in err.
 */
int diff_load(const char *path, const struct rd_need *run, struct an_run *out, struct buf *err);

void diff_runs(const struct an_run *a, const struct an_run *b, struct an_diff *d);
void an_diff_release(struct an_diff *d);

#endif
