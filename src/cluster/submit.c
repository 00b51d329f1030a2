/*
 * Array lists, job ids and DIR/jobs.json (submit.h).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cluster/submit.h"
#include "json/jsonio.h"
#include "util/file.h"
#include "util/lines.h"
#include "util/mem.h"
#include "util/opts.h"
#include "banned.h"

static int wanted(const struct cluster_task_state *s)
{
	return !cluster_state_finished(s->state) && s->state != CLUSTER_PENDING &&
	       s->state != CLUSTER_RUNNING;
}

void cluster_submit_list(const struct cluster_task_state *st, size_t nt, struct buf *out)
{
	size_t i = 0, j;

	while (i < nt) {
		if (!wanted(&st[i])) {
			i++;
			continue;
		}
		for (j = i; j + 1 < nt && wanted(&st[j + 1]); j++)
			;
		buf_addf(out, "%s%zu", out->len ? "," : "", i);
		if (j > i)
			buf_addf(out, "-%zu", j);
		i = j + 1;
	}
}

/* One number of an --array list; *p moves past it. */
static int index_at(const char **p, size_t nt, size_t *v)
{
	const char *s = *p;
	size_t n = 0;

	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9') {
		n = n * 10 + (size_t)(*s++ - '0');
		if (n >= nt)
			return -1;
	}
	*v = n;
	*p = s;
	return 0;
}

int cluster_array_check(const char *list, size_t nt, struct buf *err)
{
	const char *p = list;
	size_t a, b;

	for (;;) {
		if (index_at(&p, nt, &a) < 0)
			break;
		if (*p == '-') {
			p++;
			if (index_at(&p, nt, &b) < 0 || b < a)
				break;
		}
		if (!*p)
			return 0;
		if (*p++ != ',')
			break;
	}
	buf_addf(err, "--array '%s' is not a list of task indices 0-%zu (\"1,3-5\")", list,
		 nt - 1);
	return -1;
}

char *cluster_job_id(const char *out, size_t len)
{
	size_t n = 0;

	while (n < len && out[n] >= '0' && out[n] <= '9')
		n++;
	if (!n || (n < len && out[n] != ';' && out[n] != '\n'))
		return NULL;
	return xstrndup(out, n);
}

#define SAID_MAX 1000	/* bytes of sbatch's text an error line keeps */

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* s[0..*n) without blanks around it nor a leading "sbatch: ". */
static const char *said_line(const char *s, size_t *n)
{
	while (*n && blank(*s)) {
		s++;
		(*n)--;
	}
	while (*n && blank(s[*n - 1]))
		(*n)--;
	if (*n >= 8 && !memcmp(s, "sbatch: ", 8)) {
		s += 8;
		*n -= 8;
	}
	return s;
}

void cluster_sbatch_said(const char *text, size_t len, struct buf *out)
{
	struct lines it = LINES_INIT(text, len);
	size_t n, used = 0;
	const char *s;

	while (lines_next(&it, &s, &n)) {
		s = said_line(s, &n);
		if (!n)
			continue;
		if (used) {
			buf_adds(out, "; ");
			used += 2;
		}
		if (used + n > SAID_MAX) {
			n = used < SAID_MAX ? SAID_MAX - used : 0;
			while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
				n--;	/* not inside a UTF-8 character */
			buf_add(out, s, n);
			buf_adds(out, "...");
			return;
		}
		buf_add(out, s, n);
		used += n;
	}
}

int cluster_jobs_read(const char *dir, struct cluster_jobs_doc *jobs, struct buf *err)
{
	char *path = path_join(dir, CLUSTER_JOBS);
	json_t *doc = NULL;
	int ret = 0;

	rf_init(&cluster_jobs_doc_desc, jobs);
	if (is_file(path)) {
		doc = json_load_path(path, err);
		ret = doc ? cluster_jobs_doc_read(jobs, doc, path, err) : -1;
	}
	json_decref(doc);
	free(path);
	return ret;
}

int cluster_jobs_add(const char *dir, struct cluster_jobs_doc *jobs, const char *job,
		     const char *array, const char *gather_job, struct buf *err)
{
	char *path = path_join(dir, CLUSTER_JOBS), when[32];
	time_t now = time(NULL);
	struct tm tm;
	int ret;

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	cluster_jobs_doc_add(jobs, job, array, gather_job, when);
	file_forget_input(path);	/* updated in place: read by cluster_jobs_read() */
	ret = cluster_jobs_doc_save(jobs, path, err);
	free(path);
	return ret;
}

const char **cluster_jobs_ids(const struct cluster_jobs_doc *jobs, size_t *n)
{
	const char **ids = xcalloc(jobs->njobs + 1, sizeof(*ids));

	for (*n = 0; *n < jobs->njobs; (*n)++)
		ids[*n] = jobs->jobs[*n].job_id;
	return ids;
}
