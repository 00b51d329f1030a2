/*
 * Merging the tasks' `tko tune --json` documents into the one a local
 * `tko tune` of the same kernel directories, in the plan's order, writes:
 * the same fields in the same order, each kernel's object as its task
 * wrote it, the kernels in the local order (docs/json.md, "tko tune").
 *
 *	json_t *docs[NT];	(task t's document, or NULL when it wrote none)
 *	json_t *merged = cluster_gather(&plan, docs, names, &missing, &err);
 *
 * A kernel's entry is found by its `source`, which tko tune sets to
 * KERNEL_DIR/kernel.py for a kernel directory (or to the file it was
 * given). A kernel with no entry is one whose sweep never started (bad
 * input: the task's log says why); a local run leaves it out too.
 */
#ifndef TKO_CLUSTER_GATHER_H
#define TKO_CLUSTER_GATHER_H

#include <jansson.h>

#include "cluster/plan.h"
#include "util/buf.h"

/*
 * The merged document (a new reference), with the indices of the kernels
 * that have no entry appended to missing[] (*nmissing of them; missing
 * must hold p->nk). NULL with one line in err, naming names[t], when a
 * task's document is not a tko tune document, its mode differs from the
 * others', or it has an entry for a kernel that is not one of its task's
 * or that it already gave.
 */
json_t *cluster_gather(const struct cluster_plan *p, json_t *const *docs,
		       const char *const *names, size_t *missing, size_t *nmissing,
		       struct buf *err);

#endif
