/*
 * Unit tests for model/manifest (tko-run.json as a typed document) and
 * report/capture_text (tko capture's closing table). The oracle for the
 * bytes is jansson itself: before the manifest had a struct, cmd/capture.c
 * built it as a jansson tree and wrote it with json_dumps(JSON_INDENT(2) |
 * JSON_REAL_PRECISION(10)); the test builds that tree by hand, key by key
 * as the old code did, and the struct must write the same text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/manifest.h"
#include "report/capture_text.h"
#include "util/mem.h"

static void fill(struct run_manifest *m)
{
	manifest_init(m);
	m->tko_version = xstrdup("0.9");
	m->argv = xcalloc(3, sizeof(*m->argv));
	m->argv[0] = xstrdup("./model.sh");
	m->argv[1] = xstrdup("a b");
	m->nargv = 2;
	m->cwd = xstrdup("/w");
	m->run_dir = xstrdup("/w/run");
	m->start_time = xstrdup("2026-12-04T19:00:00Z");
	m->start_unix = 1796410800.25;
	m->end_time = xstrdup("2026-12-04T19:00:02Z");
	m->end_unix = 1796410802.75;
	m->duration_s = 2.5;
	m->exit_status = 130;
	m->signal = 2;
	m->command_found = 1;
	m->log = xstrdup("log/model.log");
	m->log_lines_not_shown = 12;
	manifest_pairs_add(&m->env_set, &m->nenv_set, "TKO_RUN_DIR", "/w/run");
	manifest_pairs_add(&m->env_set, &m->nenv_set, "TORCH_LOGS", "+inductor");
	manifest_pairs_add(&m->env_kept, &m->nenv_kept, "TRITON_PRINT_AUTOTUNING", "0");
	m->versions.python = xstrdup("3.11.2");
	m->capture.events = 3;
	m->capture.errors = 1;
	m->capture.kernel_dirs = 2;
	m->capture.unreadable_lines = 1;
	manifest_count_event(&m->capture, "autotune");
	manifest_count_event(&m->capture, "error");
	manifest_count_event(&m->capture, "autotune");
}

/* The same document the way cmd/capture.c built it before (json_set_* in this order). */
static json_t *old_tree(void)
{
	json_t *m = json_object(), *av = json_array(), *set = json_object(), *kept = json_object();
	json_t *ver = json_object(), *cap = json_object(), *by = json_object();

	json_array_append_new(av, json_string("./model.sh"));
	json_array_append_new(av, json_string("a b"));
	json_object_set_new(m, "schema_version", json_integer(1));
	json_object_set_new(m, "tool", json_string("tko capture"));
	json_object_set_new(m, "tko_version", json_string("0.9"));
	json_object_set_new(m, "argv", av);
	json_object_set_new(m, "cwd", json_string("/w"));
	json_object_set_new(m, "run_dir", json_string("/w/run"));
	json_object_set_new(m, "start_time", json_string("2026-12-04T19:00:00Z"));
	json_object_set_new(m, "start_unix", json_real(1796410800.25));
	json_object_set_new(m, "end_time", json_string("2026-12-04T19:00:02Z"));
	json_object_set_new(m, "end_unix", json_real(1796410802.75));
	json_object_set_new(m, "duration_s", json_real(2.5));
	json_object_set_new(m, "exit_status", json_integer(130));
	json_object_set_new(m, "signal", json_integer(2));
	json_object_set_new(m, "command_found", json_true());
	json_object_set_new(m, "kernels_regex", json_null());
	json_object_set_new(m, "log", json_string("log/model.log"));
	json_object_set_new(m, "log_error", json_null());
	json_object_set_new(m, "log_lines_not_shown", json_integer(12));
	json_object_set_new(set, "TKO_RUN_DIR", json_string("/w/run"));
	json_object_set_new(set, "TORCH_LOGS", json_string("+inductor"));
	json_object_set_new(m, "env_set", set);
	json_object_set_new(kept, "TRITON_PRINT_AUTOTUNING", json_string("0"));
	json_object_set_new(m, "env_kept", kept);
	json_object_set_new(ver, "python", json_string("3.11.2"));
	json_object_set_new(ver, "torch", json_null());
	json_object_set_new(ver, "triton", json_null());
	json_object_set_new(m, "versions", ver);
	json_object_set_new(cap, "events", json_integer(3));
	json_object_set_new(cap, "errors", json_integer(1));
	json_object_set_new(cap, "kernel_dirs", json_integer(2));
	json_object_set_new(cap, "unreadable_lines", json_integer(1));
	json_object_set_new(by, "autotune", json_integer(2));
	json_object_set_new(by, "error", json_integer(1));
	json_object_set_new(cap, "by_type", by);
	json_object_set_new(m, "capture", cap);
	return m;
}

static char *written(const struct run_manifest *m)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	assert_non_null(fp);
	assert_int_equal(manifest_write(fp, m), 0);
	fclose(fp);
	return text;
}

/* The struct writes what jansson wrote for the old tree, byte for byte. */
static void test_write_as_before(void **state)
{
	struct run_manifest m;
	json_t *old = old_tree();
	char *want = json_dumps(old, JSON_INDENT(2) | JSON_REAL_PRECISION(10)), *got;
	size_t n = strlen(want);

	(void)state;
	fill(&m);
	got = written(&m);
	assert_int_equal(strlen(got), n + 1);
	assert_memory_equal(got, want, n);
	assert_int_equal(got[n], '\n');
	/* by hand: a signal is a number, an unknown regex null, counts by first sight */
	assert_non_null(strstr(got, "\n  \"signal\": 2,\n"));
	assert_non_null(strstr(got, "\n  \"kernels_regex\": null,\n"));
	assert_non_null(strstr(got, "\"by_type\": {\n      \"autotune\": 2,\n      \"error\": 1\n"));
	free(got);
	free(want);
	json_decref(old);
	manifest_release(&m);
}

/* Read back, the document writes the same bytes again. */
static void test_round_trip(void **state)
{
	struct run_manifest m, back;
	struct buf err = BUF_INIT;
	char *text, *again;
	json_t *j;

	(void)state;
	fill(&m);
	m.signal = RF_I64_NONE;
	m.log_lines_not_shown = RF_I64_NONE;
	text = written(&m);
	j = json_loads(text, 0, NULL);
	assert_non_null(j);
	manifest_init(&back);
	assert_int_equal(manifest_read(&back, j, "tko-run.json", &err), 0);
	assert_int_equal(back.nargv, 2);
	assert_string_equal(back.argv[1], "a b");
	assert_true(back.signal == RF_I64_NONE);
	assert_string_equal(manifest_pairs_get(back.env_set, back.nenv_set, "TORCH_LOGS"),
			    "+inductor");
	assert_int_equal(manifest_event_count(&back.capture, "autotune"), 2);
	again = written(&back);
	assert_string_equal(again, text);
	free(again);
	free(text);
	json_decref(j);
	manifest_release(&back);
	manifest_release(&m);
	buf_release(&err);
}

/* A wrong type is an error naming the file and the key. */
static void test_read_bad(void **state)
{
	struct run_manifest m;
	struct buf err = BUF_INIT;
	json_t *j = json_loads("{\"exit_status\": \"x\"}", 0, NULL);

	(void)state;
	manifest_init(&m);
	assert_int_equal(manifest_read(&m, j, "run/tko-run.json", &err), -1);
	assert_non_null(strstr(err.buf, "'run/tko-run.json': exit_status"));
	json_decref(j);
	manifest_release(&m);
	buf_release(&err);
}

/* Text that is not UTF-8 cannot be a JSON string: it becomes null, as jansson made it. */
static void test_not_utf8(void **state)
{
	struct rf_pair *v = NULL;
	size_t nr = 0;
	char *t;

	(void)state;
	assert_null(manifest_text("a\377b"));
	assert_null(manifest_text(NULL));
	t = manifest_text("caf\303\251");
	assert_string_equal(t, "caf\303\251");
	free(t);
	manifest_pairs_add(&v, &nr, "TKO_CAPTURE_KERNELS", "x\377");
	assert_int_equal(nr, 1);
	assert_string_equal(v[0].key, "TKO_CAPTURE_KERNELS");
	assert_null(v[0].value);
	free(v[0].key);
	free(v);
}

/* The closing table: the columns right-aligned under their headers, then the log note. */
static void test_summary(void **state)
{
	struct run_manifest m;
	char *got = NULL;
	size_t n = 0;
	FILE *fp;
	const char *want =
		"\n"
		"run     exit status  seconds  kernels captured  events  capture errors\n"
		"/w/run          130      2.5                 2       3               1\n"
		"12 lines of Inductor/Triton logging are in /w/run/log/model.log only "
		"('tko -v capture' shows them)\n";

	(void)state;
	fill(&m);
	fp = open_memstream(&got, &n);
	capture_print_summary(fp, &m);
	fclose(fp);
	assert_string_equal(got, want);
	free(got);
	/* not routed (-1 before, RF_I64_NONE now): no note */
	m.log_lines_not_shown = RF_I64_NONE;
	fp = open_memstream(&got, &n);
	capture_print_summary(fp, &m);
	fclose(fp);
	assert_null(strstr(got, "lines of Inductor"));
	free(got);
	manifest_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_as_before),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_read_bad),
		cmocka_unit_test(test_not_utf8),
		cmocka_unit_test(test_summary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
