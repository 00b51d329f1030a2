/*
 * Merging the tasks' `tko tune --json` documents into the one a local
 * `tko tune` of the same kernel directories, in the plan's order, writes:
 * the same fields in the same order, each kernel's object as its task
 * wrote it, the kernels in the local order (docs/json.md, "tko tune").
 *
 *	struct tune_doc *docs[NT];	(cluster_doc_load(task t's tune.json), or NULL
 *					 when it wrote none)
 *	struct tune_doc *merged = cluster_gather(&plan, docs, names, &missing, &err);
 *	... tune_doc_save(path, merged, &err); cluster_doc_free(merged);
 *
 * A kernel's entry is found by its `source`, which tko tune sets to
 * KERNEL_DIR/kernel.py for a kernel directory (or to the file it was
 * given). A kernel with no entry is one whose sweep never started (bad
 * input: the task's log says why); a local run leaves it out too.
 */
#ifndef TKO_CLUSTER_GATHER_H
#define TKO_CLUSTER_GATHER_H

#include "cluster/plan.h"
#include "model/tune.h"
#include "util/buf.h"

/*
 * A task's tune.json (new: cluster_doc_free), or NULL with one line in err
 * when it is not a tko tune document of this schema_version
 * (tune_doc_load_current) or the model cannot read it.
 */
struct tune_doc *cluster_doc_load(const char *path, struct buf *err);
void cluster_doc_free(struct tune_doc *d);

/*
 * The merged document (new: cluster_doc_free), its entries moved out of
 * docs[], with the indices of the kernels that have no entry appended to
 * missing[] (*nmissing of them; missing must hold p->nk). NULL with one
 * line in err, naming names[t], when a task's mode differs from the
 * others', or it has an entry for a kernel that is not one of its task's
 * or that it already gave.
 */
struct tune_doc *cluster_gather(const struct cluster_plan *p, struct tune_doc *const *docs,
				const char *const *names, size_t *missing, size_t *nmissing,
				struct buf *err);

#endif
