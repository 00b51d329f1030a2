/*
 * The kernel directories a plan covers, in the order a local run takes
 * them: a RUN's capture/kernels/<dir>/ that hold a kernel.py, in byte
 * order of their names (the order of `tko tune RUN/capture/kernels/<every entry>`
 * in the C locale), or the directories given, in the order given.
 */
#ifndef TKO_CLUSTER_KERNELS_H
#define TKO_CLUSTER_KERNELS_H

#include "util/buf.h"
#include "util/opts.h"

/*
 * Appends RUN/capture/kernels/<name> (new strings: walk_release) for each
 * kernel directory of the RUN. 0, or -1 with a line in err when the RUN
 * has no capture/kernels/ (or a link leads it out of the RUN) or it holds
 * no kernel directory.
 */
int cluster_run_kernels(const char *run, struct strlist *out, struct buf *err);

#endif
