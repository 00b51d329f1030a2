/*
 * Unit tests for model/cluster (plan.json, jobs.json and the status
 * document of tko cluster as typed models), cluster/manifest's and
 * cluster/status's filling of them, and report/cluster_text. The oracle
 * for the bytes is jansson: before the documents had tables,
 * cluster/manifest.c, cluster/submit.c and cmd/cluster.c packed them with
 * json_pack and wrote them with json_dumps(JSON_INDENT(2) |
 * JSON_REAL_PRECISION(10)); the old_*() functions pack the same trees with
 * the same format strings from the same values, and the models must write
 * the same text. The status table is checked against text written by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cluster/manifest.h"
#include "cluster/status.h"
#include "model/cluster.h"
#include "report/cluster_text.h"
#include "util/mem.h"
#include "version.h"

static const char *const tune_args[] = { "--max-variants", "4" };

/* Three kernels in two tasks: a (9 s) alone, b (5 s) and c (1.5 s) together. */
static void make_plan(struct cluster_plan *p, struct cluster_slurm *s)
{
	cluster_plan_add(p, "run/k/a", 9.0, "capture");
	cluster_plan_add(p, "run/k/b", 5.0, "measured");
	cluster_plan_add(p, "run/k/c", 1.5, "default");
	assert_int_equal(cluster_plan_group(p, 2), 0);
	cluster_slurm_set(&s->partition, "gpu");
	cluster_slurm_set(&s->time, "0:30:00");
	s->gpus = 2;
	cluster_slurm_add_setup(s, "module load dtk");
	cluster_slurm_add_extra(s, "--mem=64G");
}

static char *text_of(json_t *j)
{
	char *t = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	char *with_nl = xstrfmt("%s\n", t);

	free(t);
	json_decref(j);
	return with_nl;
}

/* The old cluster_manifest_json() on the same plan, by hand. */
static char *old_plan(void)
{
	json_t *doc = json_pack("{s:i, s:s, s:s}", "schema_version", 1, "tool", "tko cluster",
				"tko_version", TKO_VERSION);

	json_object_set_new(doc, "run", json_string("run"));
	json_object_set_new(doc, "dir", json_string("/w/run/cluster"));
	json_object_set_new(doc, "cwd", json_string("/w"));
	json_object_set_new(doc, "tko", json_string("/bin/tko"));
	json_object_set_new(doc, "tune_args", json_pack("[s, s]", "--max-variants", "4"));
	json_object_set_new(doc, "slurm", json_pack(
		"{s:s, s:n, s:s, s:n, s:n, s:I, s:I, s:[s], s:[s]}", "partition", "gpu",
		"account", "time", "0:30:00", "job_name", "gres", "gpus_per_task",
		(json_int_t)2, "cpus_per_task", (json_int_t)0, "setup", "module load dtk",
		"sbatch_args", "--mem=64G"));
	json_object_set_new(doc, "script", json_string("tune.sbatch"));
	json_object_set_new(doc, "gather_script", json_string("gather.sbatch"));
	json_object_set_new(doc, "predicted_makespan_s", json_real(9.0));
	json_object_set_new(doc, "kernels", json_pack(
		"[{s:s, s:f, s:s, s:I}, {s:s, s:f, s:s, s:I}, {s:s, s:f, s:s, s:I}]",
		"dir", "run/k/a", "predicted_s", 9.0, "predicted_from", "capture", "task", (json_int_t)0,
		"dir", "run/k/b", "predicted_s", 5.0, "predicted_from", "measured", "task", (json_int_t)1,
		"dir", "run/k/c", "predicted_s", 1.5, "predicted_from", "default", "task", (json_int_t)1));
	json_object_set_new(doc, "tasks", json_pack(
		"[{s:I, s:f, s:[s]}, {s:I, s:f, s:[s, s]}]", "index", (json_int_t)0,
		"predicted_s", 9.0, "kernels", "run/k/a", "index", (json_int_t)1, "predicted_s", 6.5,
		"kernels", "run/k/b", "run/k/c"));
	return text_of(doc);
}

static char *plan_written(const struct cluster_plan_doc *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	assert_non_null(fp);
	assert_int_equal(cluster_plan_doc_write(fp, d), 0);
	fclose(fp);
	return text;
}

static void test_plan_as_before(void **state)
{
	struct cluster_plan p = CLUSTER_PLAN_INIT;
	struct cluster_slurm s = CLUSTER_SLURM_INIT;
	struct cluster_job j = { &p, &s, "/w", "/w/run/cluster", "/bin/tko", tune_args, 2 };
	struct cluster_plan_doc d, back;
	struct buf err = BUF_INIT;
	char *want = old_plan(), *got, *again;
	json_t *tree;

	(void)state;
	make_plan(&p, &s);
	cluster_manifest_fill(&j, "run", &d);
	got = plan_written(&d);
	assert_string_equal(got, want);
	/* read back, the same bytes again */
	tree = json_loads(got, 0, NULL);
	rf_init(&cluster_plan_doc_desc, &back);
	assert_int_equal(cluster_plan_doc_read(&back, tree, "plan.json", &err), 0);
	assert_int_equal(back.ntasks, 2);
	assert_string_equal(back.tasks[1].kernels[1], "run/k/c");
	again = plan_written(&back);
	assert_string_equal(again, got);
	free(again);
	free(got);
	free(want);
	json_decref(tree);
	buf_release(&err);
	rf_release(&cluster_plan_doc_desc, &back);
	rf_release(&cluster_plan_doc_desc, &d);
	cluster_plan_release(&p);
	cluster_slurm_release(&s);
}

static void plan_bad(const char *text, const char *want)
{
	struct cluster_plan_doc d;
	struct buf err = BUF_INIT;
	json_t *tree = json_loads(text, 0, NULL);

	assert_non_null(tree);
	rf_init(&cluster_plan_doc_desc, &d);
	assert_int_equal(cluster_plan_doc_read(&d, tree, "p.json", &err), -1);
	assert_string_equal(err.buf, want);
	json_decref(tree);
	buf_release(&err);
	rf_release(&cluster_plan_doc_desc, &d);
}

static void test_plan_bad(void **state)
{
	(void)state;
	plan_bad("{\"schema_version\": 2, \"tool\": \"tko cluster\"}",
		 "'p.json' is not a tko cluster plan (schema_version 1)");
	plan_bad("{\"schema_version\": 1, \"tool\": \"tko tune\"}",
		 "'p.json' is not a tko cluster plan (schema_version 1)");
	plan_bad("{\"schema_version\": 1, \"tool\": \"tko cluster\", \"dir\": \"d\", \"cwd\": \"c\", "
		 "\"kernels\": [{\"dir\": \"a\", \"predicted_s\": -1, \"task\": 0}], \"tasks\": []}",
		 "'p.json': kernels[0].predicted_s: not a time (a number >= 0)");
	plan_bad("{\"schema_version\": 1, \"tool\": \"tko cluster\", \"dir\": \"d\", \"cwd\": \"c\", "
		 "\"kernels\": []}", "'p.json': tasks: missing");
}

static void test_jobs_as_before(void **state)
{
	struct cluster_jobs_doc d, back;
	struct buf err = BUF_INIT;
	json_t *old = json_pack("{s:i, s:s, s:[]}", "schema_version", 1, "tool",
				"tko cluster submit", "jobs"), *tree;
	char *want, *got = NULL, *again = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	json_array_append_new(json_object_get(old, "jobs"), json_pack(
		"{s:s, s:s, s:s?, s:s}", "job_id", "12", "array", "0-2", "gather_job_id", NULL,
		"submitted", "2026-12-04T23:00:00Z"));
	json_array_append_new(json_object_get(old, "jobs"), json_pack(
		"{s:s, s:s, s:s?, s:s}", "job_id", "14", "array", "2", "gather_job_id", "15",
		"submitted", "2026-12-04T23:10:00Z"));
	want = text_of(old);
	rf_init(&cluster_jobs_doc_desc, &d);
	cluster_jobs_doc_add(&d, "12", "0-2", NULL, "2026-12-04T23:00:00Z");
	cluster_jobs_doc_add(&d, "14", "2", "15", "2026-12-04T23:10:00Z");
	fp = open_memstream(&got, &len);
	assert_int_equal(rf_write_doc(fp, &cluster_jobs_doc_desc, &d, 1, CLUSTER_JOBS_TOOL), 0);
	fclose(fp);
	assert_string_equal(got, want);
	tree = json_loads(got, 0, NULL);
	rf_init(&cluster_jobs_doc_desc, &back);
	assert_int_equal(cluster_jobs_doc_read(&back, tree, "jobs.json", &err), 0);
	assert_null(back.jobs[0].gather_job_id);
	assert_string_equal(back.jobs[1].gather_job_id, "15");
	fp = open_memstream(&again, &len);
	assert_int_equal(rf_write_doc(fp, &cluster_jobs_doc_desc, &back, 1, CLUSTER_JOBS_TOOL), 0);
	fclose(fp);
	assert_string_equal(again, got);
	free(want);
	free(got);
	free(again);
	json_decref(tree);
	buf_release(&err);
	rf_release(&cluster_jobs_doc_desc, &back);
	rf_release(&cluster_jobs_doc_desc, &d);
}

static void test_status(void **state)
{
	struct cluster_plan p = CLUSTER_PLAN_INIT;
	struct cluster_slurm s = CLUSTER_SLURM_INIT;
	struct cluster_task_state st[2] = {
		{ CLUSTER_DONE, 0, NULL, NULL },
		{ CLUSTER_RUNNING, -1, "12", "RUNNING" },
	};
	struct cluster_status_doc d;
	json_t *old = json_pack("{s:i, s:s, s:s, s:b}", "schema_version", 1, "tool",
				"tko cluster status", "dir", "run/cluster", "queue_read", 1);
	char *want, *got = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	make_plan(&p, &s);
	json_object_set_new(old, "tasks", json_pack(
		"[{s:I, s:I, s:f, s:s, s:o, s:s?, s:s?}, {s:I, s:I, s:f, s:s, s:o, s:s?, s:s?}]",
		"index", (json_int_t)0, "kernels", (json_int_t)1, "predicted_s", 9.0, "state", "done",
		"exit_status", json_integer(0), "job_id", NULL, "slurm_state", NULL,
		"index", (json_int_t)1, "kernels", (json_int_t)2, "predicted_s", 6.5, "state",
		"running", "exit_status", json_null(), "job_id", "12", "slurm_state", "RUNNING"));
	json_object_set_new(old, "finished", json_false());
	want = text_of(old);
	cluster_status_fill(&p, st, 1, "run/cluster", &d);
	fp = open_memstream(&got, &len);
	assert_int_equal(rf_write_doc(fp, &cluster_status_doc_desc, &d, 1, CLUSTER_STATUS_TOOL), 0);
	fclose(fp);
	assert_string_equal(got, want);
	free(got);
	got = NULL;
	fp = open_memstream(&got, &len);
	cluster_print_status(fp, &d);
	fclose(fp);
	/* %.0f rounds the tie 6.5 to even: 6 */
	assert_string_equal(got, "task  kernels  predicted s  state    exit  job\n"
				 "   0        1            9  done        0  -\n"
				 "   1        2            6  running     -  12\n");
	free(got);
	free(want);
	rf_release(&cluster_status_doc_desc, &d);
	cluster_plan_release(&p);
	cluster_slurm_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_as_before),
		cmocka_unit_test(test_plan_bad),
		cmocka_unit_test(test_jobs_as_before),
		cmocka_unit_test(test_status),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
