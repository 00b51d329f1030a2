/*
 * DIR/plan.json, the manifest of a plan: what `tko cluster plan` decided
 * (kernels in the local order with their predicted costs, the tasks and
 * their kernels, the Slurm settings, the tko and the tune arguments the
 * tasks run), read back by submit, status and gather. docs/json.md
 * documents it ("tko cluster").
 */
#ifndef TKO_CLUSTER_MANIFEST_H
#define TKO_CLUSTER_MANIFEST_H

#include <jansson.h>

#include "cluster/plan.h"
#include "cluster/slurm.h"
#include "util/buf.h"

#define CLUSTER_MANIFEST "plan.json"

/* The manifest document for a grouped plan (a new reference). `run` may be NULL. */
json_t *cluster_manifest_json(const struct cluster_job *j, const char *run);

struct cluster_manifest {
	struct cluster_plan plan;	/* kernels and tasks as planned */
	const char *dir;		/* the plan's folder as recorded (in doc) */
	const char *cwd;		/* where the tasks run (in doc) */
	json_t *doc;			/* the document */
};
#define CLUSTER_MANIFEST_INIT { CLUSTER_PLAN_INIT, NULL, NULL, NULL }

/*
 * Reads DIR/plan.json. 0, or -1 with one line in err naming the file and
 * what is wrong with it (a field, a kernel in no task or in two).
 */
int cluster_manifest_read(const char *dir, struct cluster_manifest *m, struct buf *err);
void cluster_manifest_release(struct cluster_manifest *m);

#endif
