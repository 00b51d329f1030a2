/*
 * Task states from the task folders and the queue (task.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster/task.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/opts.h"
#include "banned.h"

char *cluster_task_dir(const char *dir, size_t index)
{
	return xstrfmt("%s/tasks/%zu", dir, index);
}

static enum cluster_state from_exit(int rc)
{
	return rc == 0 ? CLUSTER_DONE : rc == 1 ? CLUSTER_ERRORS : CLUSTER_FAILED;
}

int cluster_task_read(const char *dir, size_t index, struct cluster_task_state *st,
		      struct buf *err)
{
	char *tdir = cluster_task_dir(dir, index), *path = path_join(tdir, "exit");
	struct buf text = BUF_INIT;
	long rc;
	int ret = 0;

	memset(st, 0, sizeof(*st));
	st->state = CLUSTER_NOT_RUN;
	st->exit_status = -1;
	if (access(path, F_OK) < 0 && errno == ENOENT)
		goto out;
	ret = file_read(path, 64, &text, err);
	if (!ret) {
		buf_rtrim(&text);
		if (parse_long(text.buf, &rc) < 0 || rc < 0 || rc > 255) {
			buf_addf(err, "'%s' does not hold an exit status", path);
			ret = -1;
		} else {
			st->exit_status = (int)rc;
			st->state = from_exit((int)rc);
		}
	}
out:
	buf_release(&text);
	free(path);
	free(tdir);
	return ret;
}

static int known(const char *job, const char *const *jobs, size_t njobs)
{
	size_t i;

	for (i = 0; i < njobs; i++)
		if (!strcmp(job, jobs[i]))
			return 1;
	return 0;
}

void cluster_task_queue(struct cluster_task_state *st, size_t nt, const struct cluster_queued *q,
			size_t nq, const char *const *jobs, size_t njobs)
{
	size_t i;

	for (i = 0; i < nq; i++) {
		struct cluster_task_state *t;

		if (q[i].task < 0 || (size_t)q[i].task >= nt || !known(q[i].job, jobs, njobs))
			continue;
		t = &st[q[i].task];
		t->job = q[i].job;
		t->slurm = q[i].state;
		/* a finished task submitted again only says so and exits */
		if (!cluster_state_finished(t->state))
			t->state = strcmp(q[i].state, "PENDING") ? CLUSTER_RUNNING : CLUSTER_PENDING;
	}
}

int cluster_state_finished(enum cluster_state s)
{
	return s == CLUSTER_DONE || s == CLUSTER_ERRORS;
}

const char *cluster_state_name(enum cluster_state s)
{
	static const char *const names[] = {
		[CLUSTER_NOT_RUN] = "not_run",
		[CLUSTER_PENDING] = "pending",
		[CLUSTER_RUNNING] = "running",
		[CLUSTER_DONE] = "done",
		[CLUSTER_ERRORS] = "errors",
		[CLUSTER_FAILED] = "failed",
	};

	return names[s];
}
