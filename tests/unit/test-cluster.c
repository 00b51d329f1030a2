/*
 * Unit tests for src/cluster: grouping kernels into array tasks (LPT, by
 * hand), Slurm time limits, the settings file, squeue's lines, the --array
 * lists submit writes and accepts, sbatch's job ids, and the merge of the
 * tasks' tune.json documents into the local order.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cluster/config.h"
#include "cluster/gather.h"
#include "cluster/plan.h"
#include "cluster/slurm.h"
#include "cluster/submit.h"
#include "cluster/task.h"
#include "util/file.h"
#include "util/mem.h"

static void plan_of(struct cluster_plan *p, const double *cost, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char dir[32];	/* "k" and any size_t: gcc -O0 checks the truncation */

		snprintf(dir, sizeof(dir), "k%zu", i);
		cluster_plan_add(p, dir, cost[i], "capture");
	}
}

static void assert_task(const struct cluster_plan *p, size_t t, const size_t *k, size_t n)
{
	size_t i;

	assert_int_equal(p->t[t].nr, n);
	for (i = 0; i < n; i++)
		assert_int_equal(p->t[t].k[i], k[i]);
}

static void test_lpt(void **state)
{
	/*
	 * By hand: sorted k1 (7), k3 (5), k4 (4), k0 (3), k5 (3), k2 (2); each to
	 * the least loaded task: k1->t0 (7), k3->t1 (5), k4->t2 (4), k0->t2 (7),
	 * k5->t1 (8), k2: t0 and t2 tie at 7, the lower index wins: t0 (9).
	 */
	const double cost[] = { 3, 7, 2, 5, 4, 3 };	/* k1=7 k3=5 k4=4 k0=3 k5=3 k2=2 */
	const size_t t0[] = { 1, 2 }, t1[] = { 3, 5 }, t2[] = { 4, 0 };
	struct cluster_plan p = CLUSTER_PLAN_INIT;

	(void)state;
	plan_of(&p, cost, 6);
	assert_int_equal(cluster_plan_group(&p, 3), 0);
	assert_int_equal(p.nt, 3);
	/* k0 (3) comes before k5 (3) in the local order: it is placed first */
	assert_task(&p, 0, t0, 2);
	assert_task(&p, 1, t1, 2);
	assert_task(&p, 2, t2, 2);
	assert_true(p.t[0].cost_s == 9 && p.t[1].cost_s == 8 && p.t[2].cost_s == 7);
	assert_true(cluster_plan_makespan(&p) == 9);
	assert_int_equal(p.k[2].task, 0);
	cluster_plan_release(&p);
}

static void test_group_limits(void **state)
{
	const double cost[] = { 1, 2 };
	struct cluster_plan p = CLUSTER_PLAN_INIT;

	(void)state;
	assert_int_equal(cluster_plan_group(&p, 4), -1);	/* no kernel */
	plan_of(&p, cost, 2);
	assert_int_equal(cluster_plan_group(&p, 0), -1);
	assert_int_equal(cluster_plan_group(&p, 8), 0);
	assert_int_equal(p.nt, 2);				/* never more tasks than kernels */
	/* grouping again replaces the tasks */
	assert_int_equal(cluster_plan_group(&p, 1), 0);
	assert_int_equal(p.nt, 1);
	assert_int_equal(p.t[0].nr, 2);
	assert_int_equal(p.t[0].k[0], 1);			/* longest first */
	cluster_plan_release(&p);
}

static void time_is(double s, const char *want)
{
	struct buf b = BUF_INIT;

	cluster_slurm_time_for(s, &b);
	assert_string_equal(b.buf, want);
	buf_release(&b);
}

static void test_time_for(void **state)
{
	(void)state;
	time_is(0, "00:10:00");			/* 600 s */
	time_is(100, "00:14:00");		/* 800 s: 13.3 min, rounded up */
	time_is(3600, "02:10:00");		/* 7800 s */
	time_is(50000, "1-03:57:00");		/* 100600 s: 1676.7 min -> 1677 = 27 h 57 */
}

static void test_config(void **state)
{
	const char text[] = "# a site\n\npartition = dcu \n  account=proj42\ngpus-per-task = 2\n"
			    "setup = module load dtk/24.04\nsetup = source /v/bin/activate\r\n"
			    "sbatch-arg = --mem=64G\ntasks = 16\ntko = /opt/tko\n";
	struct cluster_config c = CLUSTER_CONFIG_INIT;
	struct buf err = BUF_INIT;

	(void)state;
	assert_int_equal(cluster_config_parse("site.conf", text, sizeof(text) - 1, &c, &err), 0);
	assert_string_equal(c.slurm.partition, "dcu");
	assert_string_equal(c.slurm.account, "proj42");
	assert_int_equal(c.slurm.gpus, 2);
	assert_int_equal(c.slurm.nsetup, 2);
	assert_string_equal(c.slurm.setup[1], "source /v/bin/activate");
	assert_string_equal(c.slurm.extra[0], "--mem=64G");
	assert_int_equal(c.tasks, 16);
	assert_string_equal(c.tko, "/opt/tko");
	assert_null(c.slurm.time);
	assert_int_equal(cluster_slurm_check(&c.slurm, &err), 0);
	cluster_config_release(&c);
	buf_release(&err);
}

static void config_bad(const char *text, const char *msg)
{
	struct cluster_config c = CLUSTER_CONFIG_INIT;
	struct buf err = BUF_INIT;

	assert_int_equal(cluster_config_parse("s.conf", text, strlen(text), &c, &err), -1);
	assert_string_equal(err.buf, msg);
	cluster_config_release(&c);
	buf_release(&err);
}

static void test_config_bad(void **state)
{
	struct cluster_config c = CLUSTER_CONFIG_INIT;
	struct buf err = BUF_INIT;

	(void)state;
	config_bad("partition = a\nqueue = b\n", "'s.conf' line 2: unknown setting 'queue'");
	config_bad("tasks = many\n", "'s.conf' line 1: tasks 'many' is not a count");
	config_bad("\n\npartition\n", "'s.conf' line 3: not a 'key = value' line");
	config_bad("time =\n", "'s.conf' line 1: time has no value");
	/* parsed, then refused by the #SBATCH check */
	assert_int_equal(cluster_config_parse("s.conf", "partition = a b\n", 16, &c, &err), 0);
	assert_int_equal(cluster_slurm_check(&c.slurm, &err), -1);
	assert_non_null(strstr(err.buf, "partition 'a b' cannot stand in an #SBATCH line"));
	cluster_config_release(&c);
	buf_release(&err);
}

static void test_squeue(void **state)
{
	/* squeue -h -r -o "%A %K %T": a plain job has N/A as its array index */
	const char text[] = "123 0 RUNNING\n123 4 PENDING\n99 N/A RUNNING\n\n124 2 COMPLETING";
	struct cluster_queued *q;
	size_t n;

	(void)state;
	n = cluster_squeue_parse(text, sizeof(text) - 1, &q);
	assert_int_equal(n, 3);
	assert_string_equal(q[0].job, "123");
	assert_int_equal(q[1].task, 4);
	assert_string_equal(q[1].state, "PENDING");
	assert_string_equal(q[2].job, "124");
	assert_int_equal(q[2].task, 2);
	cluster_queued_free(q, n);
}

static void test_states_and_list(void **state)
{
	/* tasks 0-6: not_run, failed, done, not_run, errors, failed, failed */
	struct cluster_task_state st[7];
	const struct cluster_queued q[] = {
		{ "123", 5, "PENDING" }, { "77", 6, "RUNNING" }, { "123", 2, "COMPLETING" },
	};
	const char *jobs[] = { "123" };
	struct buf list = BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < 7; i++)
		st[i] = (struct cluster_task_state){ CLUSTER_NOT_RUN, -1, NULL, NULL };
	st[1].state = st[5].state = st[6].state = CLUSTER_FAILED;
	st[2].state = CLUSTER_DONE;
	st[4].state = CLUSTER_ERRORS;
	cluster_task_queue(st, 7, q, 3, jobs, 1);
	assert_int_equal(st[5].state, CLUSTER_PENDING);	/* one of the plan's jobs */
	assert_int_equal(st[6].state, CLUSTER_FAILED);		/* job 77 is not the plan's */
	assert_int_equal(st[2].state, CLUSTER_DONE);		/* finished stays finished */
	cluster_submit_list(st, 7, &list);
	assert_string_equal(list.buf, "0-1,3,6");
	buf_release(&list);
}

static void test_array_check(void **state)
{
	struct buf err = BUF_INIT;

	(void)state;
	assert_int_equal(cluster_array_check("1,3-5", 6, &err), 0);
	assert_int_equal(cluster_array_check("0", 1, &err), 0);
	assert_int_equal(cluster_array_check("6", 6, &err), -1);
	assert_string_equal(err.buf, "--array '6' is not a list of task indices 0-5 (\"1,3-5\")");
	assert_int_equal(cluster_array_check("3-1", 6, &err), -1);
	assert_int_equal(cluster_array_check("", 6, &err), -1);
	assert_int_equal(cluster_array_check("1,", 6, &err), -1);
	assert_int_equal(cluster_array_check("1 ,2", 6, &err), -1);
	buf_release(&err);
}

static void test_job_id(void **state)
{
	char *id;

	(void)state;
	id = cluster_job_id("123\n", 4);
	assert_string_equal(id, "123");
	free(id);
	id = cluster_job_id("4567;cluster1\n", 14);
	assert_string_equal(id, "4567");
	free(id);
	assert_null(cluster_job_id("sbatch: error\n", 14));
	assert_null(cluster_job_id("", 0));
	assert_null(cluster_job_id("12a\n", 4));
}

/* What sbatch printed, as one line: Slurm's real two-line error, blanks, a flood. */
static void test_sbatch_said(void **state)
{
	const char two[] = "sbatch: error: invalid partition specified: gpux\n"
			   "sbatch: error: Batch job submission failed: Invalid partition name specified\n";
	const char blanks[] = "\n  \r\n\t\n";
	const char crlf[] = "  Submitted batch job 12\r\n\nmore \n";
	struct buf b = BUF_INIT;
	char *flood = xmalloc(3001);

	(void)state;
	cluster_sbatch_said(two, sizeof(two) - 1, &b);
	assert_string_equal(b.buf, "error: invalid partition specified: gpux; "
			    "error: Batch job submission failed: Invalid partition name specified");
	buf_reset(&b);
	cluster_sbatch_said(crlf, sizeof(crlf) - 1, &b);
	assert_string_equal(b.buf, "Submitted batch job 12; more");
	buf_reset(&b);
	cluster_sbatch_said(blanks, sizeof(blanks) - 1, &b);
	assert_int_equal(b.len, 0);
	memset(flood, 'x', 3000);
	flood[1500] = '\n';
	flood[3000] = '\0';
	cluster_sbatch_said(flood, 3000, &b);
	assert_int_equal(b.len, 1003);	/* 1000 bytes and "..." */
	assert_null(memchr(b.buf, '\n', b.len));
	assert_string_equal(b.buf + 1000, "...");
	assert_int_equal(b.buf[999], 'x');	/* the first line alone fills it */
	assert_null(strchr(b.buf, ';'));
	free(flood);
	buf_release(&b);
}

/* A tko tune document with one entry per source given. */
static struct tune_doc *doc(const char *mode, const char *a, const char *b)
{
	struct tune_doc *d = xmalloc(sizeof(*d));

	rf_init(&tune_doc_desc, d);
	d->mode = name_index(tune_mode_names, mode);
	tune_doc_add_kernel(d)->source = xstrdup(a);
	if (b)
		tune_doc_add_kernel(d)->source = xstrdup(b);
	return d;
}

static void test_gather(void **state)
{
	/* kernels k0 (1 s), k1 (3 s), k2 (2 s) on 2 tasks: t0 = k1, t1 = k2 k0 */
	const double cost[] = { 1, 3, 2 };
	struct cluster_plan p = CLUSTER_PLAN_INIT;
	const char *names[] = { "t0.json", "t1.json" };
	struct tune_doc *docs[2], *m;
	size_t missing[3], nmissing;
	struct buf err = BUF_INIT;

	(void)state;
	plan_of(&p, cost, 3);
	assert_int_equal(cluster_plan_group(&p, 2), 0);
	docs[0] = doc("gpu", "k1/kernel.py", NULL);
	docs[1] = doc("gpu", "k2/kernel.py", "k0/kernel.py");
	m = cluster_gather(&p, docs, names, missing, &nmissing, &err);
	assert_non_null(m);
	assert_int_equal(nmissing, 0);
	assert_int_equal(m->mode, TUNE_MODE_GPU);
	assert_int_equal(m->nkernels, 3);
	/* the local order, k0 k1 k2, whatever order the tasks ran them in */
	assert_string_equal(m->kernels[0].source, "k0/kernel.py");
	assert_string_equal(m->kernels[2].source, "k2/kernel.py");
	/* moved, not copied: the tasks' entries are empty now */
	assert_null(docs[1]->kernels[1].source);
	cluster_doc_free(m);
	cluster_doc_free(docs[0]);
	cluster_doc_free(docs[1]);

	/* a task that wrote nothing: its kernels are missing, the others merged */
	docs[0] = NULL;
	docs[1] = doc("gpu", "k2/kernel.py", "k0/kernel.py");
	m = cluster_gather(&p, docs, names, missing, &nmissing, &err);
	assert_non_null(m);
	assert_int_equal(nmissing, 1);
	assert_int_equal(missing[0], 1);
	cluster_doc_free(m);
	cluster_doc_free(docs[1]);
	docs[1] = doc("gpu", "k2/kernel.py", "k0/kernel.py");

	/* a kernel that is not the task's */
	docs[0] = doc("gpu", "k2/kernel.py", NULL);
	assert_null(cluster_gather(&p, docs, names, missing, &nmissing, &err));
	assert_string_equal(err.buf, "'t0.json': kernels[0]: source 'k2/kernel.py' is not a kernel of task 0");
	buf_reset(&err);
	cluster_doc_free(docs[0]);

	/* a mode that differs from the others' */
	docs[0] = doc("compile-only", "k1/kernel.py", NULL);
	assert_null(cluster_gather(&p, docs, names, missing, &nmissing, &err));
	assert_string_equal(err.buf, "'t1.json' is of mode 'gpu', the other tasks' of 'compile-only'");
	buf_reset(&err);
	cluster_doc_free(docs[0]);

	/* the same kernel twice */
	cluster_doc_free(docs[1]);
	docs[0] = doc("gpu", "k1/kernel.py", NULL);
	docs[1] = doc("gpu", "k0/kernel.py", "k0/kernel.py");
	assert_null(cluster_gather(&p, docs, names, missing, &nmissing, &err));
	assert_string_equal(err.buf, "'t1.json': kernels[1]: 'k0/kernel.py' appears twice");
	cluster_doc_free(docs[0]);
	cluster_doc_free(docs[1]);
	cluster_plan_release(&p);
	buf_release(&err);
}

/* A task's tune.json as written, read back through the model; an older schema refused. */
static void test_doc_load(void **state)
{
	/* docs/json.md, "tko tune": schema_version 2, tool, mode, kernels */
	static const char v2[] = "{\"schema_version\": 2, \"tool\": \"tko tune\", \"mode\": \"gpu\", "
				 "\"kernels\": [{\"kernel\": \"x\", \"source\": \"k1/kernel.py\"}]}";
	static const char v1[] = "{\"schema_version\": 1, \"tool\": \"tko tune\", \"mode\": \"gpu\", "
				 "\"kernels\": []}";
	char root[] = "/tmp/tko-unit-XXXXXX";
	struct buf err = BUF_INIT;
	struct tune_doc *d;
	char *path, *want;

	(void)state;
	assert_non_null(mkdtemp(root));
	path = xstrfmt("%s/tune.json", root);
	assert_int_equal(write_file_atomic(path, v2, strlen(v2), &err), 0);
	d = cluster_doc_load(path, &err);
	assert_non_null(d);
	assert_int_equal(d->mode, TUNE_MODE_GPU);
	assert_int_equal(d->nkernels, 1);
	assert_string_equal(d->kernels[0].kernel, "x");
	cluster_doc_free(d);

	/* an older tko's task (speedup and num_gb meant another thing) */
	assert_int_equal(write_file_atomic(path, v1, strlen(v1), &err), 0);
	assert_null(cluster_doc_load(path, &err));
	want = xstrfmt("'%s' is not a tko tune document (schema_version 2)", path);
	assert_string_equal(err.buf, want);
	unlink(path);
	rmdir(root);
	free(want);
	free(path);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lpt),
		cmocka_unit_test(test_group_limits),
		cmocka_unit_test(test_time_for),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_config_bad),
		cmocka_unit_test(test_squeue),
		cmocka_unit_test(test_states_and_list),
		cmocka_unit_test(test_array_check),
		cmocka_unit_test(test_job_id),
		cmocka_unit_test(test_sbatch_said),
		cmocka_unit_test(test_gather),
		cmocka_unit_test(test_doc_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
