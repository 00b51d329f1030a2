/*
 * stepprof: the whole-step profile in the analysis. The profile module
 * (src/profile/) reads and attributes it; this file is the small interface
 * between the two: it picks the profile (an explicit --profile FILE, else
 * the RUN's own profile/), copies its accounting into run->profile and its
 * groups into run->step_groups, and matches its Triton groups to the
 * model's kernels (Inductor's kernel hash = the kernel's module key; else a
 * name only one kernel has), which then take their time and share from it:
 *
 *   launches  the activities in the profiled window   (launch_basis "trace")
 *   time_ms   their mean duration                     (time_basis "trace")
 *   total_ms  the busy time the profile gives them (overlap split)
 *   share     total_ms / the profile's GPU busy time, library kernels
 *             included; a kernel the window never launched has share 0.
 *
 * Entry point: stepprof_apply(), after share_compute() and before the rules.
 */
#ifndef TKO_ANALYSE_STEPPROF_H
#define TKO_ANALYSE_STEPPROF_H

#include "model/analysis.h"
#include "util/buf.h"

/*
 * With no profile anywhere, nothing changes and 0 is returned. An explicit
 * profile that cannot be read is an error (-1, one line in err); a RUN's
 * own unreadable profile is a note.
 */
int stepprof_apply(struct an_run *r, const char *run_dir, const char *explicit_path,
		   struct buf *err);

#endif
