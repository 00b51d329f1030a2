/*
 * DIR/plan.json, the manifest of a plan: what `tko cluster plan` decided
 * (kernels in the local order with their predicted costs, the tasks and
 * their kernels, the Slurm settings, the tko and the tune arguments the
 * tasks run), read back by submit, status and gather. The document is
 * model/cluster.h's; docs/json.md documents it ("tko cluster").
 */
#ifndef TKO_CLUSTER_MANIFEST_H
#define TKO_CLUSTER_MANIFEST_H

#include "cluster/plan.h"
#include "cluster/slurm.h"
#include "model/cluster.h"
#include "util/buf.h"

#define CLUSTER_MANIFEST "plan.json"

/*
 * The manifest document for a grouped plan, into `d` (initialised here;
 * rf_release(&cluster_plan_doc_desc, d) frees it). `run` may be NULL.
 */
void cluster_manifest_fill(const struct cluster_job *j, const char *run,
			   struct cluster_plan_doc *d);

struct cluster_manifest {
	struct cluster_plan plan;	/* kernels and tasks as planned */
	const char *dir;		/* the plan's folder as recorded (in doc) */
	const char *cwd;		/* where the tasks run (in doc) */
	struct cluster_plan_doc doc;	/* the document as read */
};
#define CLUSTER_MANIFEST_INIT { CLUSTER_PLAN_INIT, NULL, NULL, { 0 } }

/*
 * Reads DIR/plan.json. 0, or -1 with one line in err naming the file and
 * what is wrong with it (a field, a kernel in no task or in two).
 */
int cluster_manifest_read(const char *dir, struct cluster_manifest *m, struct buf *err);
void cluster_manifest_release(struct cluster_manifest *m);

#endif
