/*
 * A site's cluster settings in a small file, so that a RUN's plan needs no
 * long command line (`tko cluster plan --config FILE`):
 *
 *	# tko cluster settings for our DCU partition
 *	partition = dcu
 *	account = proj42
 *	gres = dcu
 *	gpus-per-task = 1
 *	cpus-per-task = 8
 *	time = 02:00:00
 *	setup = module load dtk/24.04
 *	setup = source /work/venvs/torch/bin/activate
 *	sbatch-arg = --mem=64G
 *	tasks = 16
 *	tko = /work/bin/tko
 *
 * One "key = value" a line, blanks around both trimmed; '#' starts a
 * comment line; setup and sbatch-arg may repeat (in order). The keys are
 * the options of `tko cluster plan` without their dashes; an option given
 * on the command line wins over the file.
 */
#ifndef TKO_CLUSTER_CONFIG_H
#define TKO_CLUSTER_CONFIG_H

#include <stddef.h>

#include "cluster/slurm.h"
#include "util/buf.h"

struct cluster_config {
	struct cluster_slurm slurm;
	long tasks;		/* 0 when the file does not say */
	char *tko;		/* NULL when the file does not say */
};
#define CLUSTER_CONFIG_INIT { CLUSTER_SLURM_INIT, 0, NULL }

/*
 * Reads `len` bytes of `path`'s text into c. 0, or -1 with one line in err:
 * "'path' line N: <problem>".
 */
int cluster_config_parse(const char *path, const char *text, size_t len,
			 struct cluster_config *c, struct buf *err);
/* cluster_config_parse() of the file's contents. */
int cluster_config_read(const char *path, struct cluster_config *c, struct buf *err);
void cluster_config_release(struct cluster_config *c);

#endif
