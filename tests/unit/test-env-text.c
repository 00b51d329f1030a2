/*
 * Unit test for report/env_text: a hand-written `tko env` document and
 * the page written for it, line by line (the column of the what|found
 * table is the longest label, "copy bandwidth", plus two spaces).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/env.h"
#include "report/env_text.h"
#include "util/buf.h"

static const char doc_text[] =
	"{\"python\": {\"version\": \"3.11.2\"},"
	" \"torch\": {\"version\": \"2.11.0\", \"hip\": \"6.3\"},"
	" \"triton\": {\"version\": \"3.6.0\"},"
	" \"cuda\": null, \"hip\": {\"hipcc\": \"6.3.1\"},"
	" \"dtk\": null, \"rocm\": {\"version\": \"6.3.0\"},"
	" \"bandwidth\": {\"copy_gbps\": 4243.4, \"repeats\": 20},"
	" \"gpus\": [{\"index\": 0, \"name\": \"BW\", \"arch\": \"gfx936\","
	"            \"device_type\": \"HCU\", \"source\": \"rocminfo\"}],"
	" \"tools\": [{\"name\": \"dcc\", \"version\": \"25.10\", \"path\": \"/opt/dtk/bin/dcc\"},"
	"           {\"name\": \"nvcc\", \"version\": null, \"path\": null}],"
	" \"env\": {\"HIP_VISIBLE_DEVICES\": \"1\"},"
	" \"hcu_targets\": [{\"arch\": \"gfx936\", \"name\": \"BW\", \"triton_das\": false,"
	"                   \"verified\": \"ISA scan\", \"not_verified\": null}],"
	" \"notes\": [\"no nvidia-smi\"], \"warnings\": [\"two GPUs differ\"]}";

static const char want[] =
	"what            found\n"
	"python          3.11.2\n"
	"torch           2.11.0 (hip 6.3)\n"
	"triton          3.6.0\n"
	"cuda            nvcc -, driver -\n"
	"hip             hipcc 6.3.1\n"
	"dtk             not found\n"
	"rocm            6.3.0\n"
	"copy bandwidth  4243 GB/s (device-to-device copy, read+write, median of 20)\n"
	"gpu 0           BW, gfx936, device type HCU (rocminfo)\n"
	"\n"
	"tool  version  path\n"
	"dcc   25.10    /opt/dtk/bin/dcc\n"
	"nvcc  -        not found\n"
	"\n"
	"environment flags:\n"
	"    HIP_VISIBLE_DEVICES=1\n"
	"\n"
	"gfx936, Hygon BW (not a triton-das target):\n"
	"    verified by tko: ISA scan\n"
	"    not verified: -\n"
	"\n"
	"note: no nvidia-smi\n"
	"\n"
	"warning: two GPUs differ\n";

/* The page for a document given as JSON text (read through model/env). */
static char *page(const char *text)
{
	json_t *j = json_loads(text, 0, NULL);
	struct env_doc doc;
	struct buf err = BUF_INIT;
	char *got = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&got, &n);

	assert_non_null(j);
	env_doc_init(&doc);
	if (env_doc_read(&doc, j, "doc", &err) < 0)
		fail_msg("%s", err.buf);
	env_text_print(fp, &doc);
	fclose(fp);
	env_doc_release(&doc);
	json_decref(j);
	buf_release(&err);
	return got;
}

static void test_page(void **state)
{
	char *got = page(doc_text);

	(void)state;
	assert_string_equal(got, want);
	free(got);
}

static void test_nothing_found(void **state)
{
	char *got = page("{\"bandwidth\": null, \"gpus\": [], \"tools\": [], \"env\": {},"
			 " \"notes\": []}");

	(void)state;
	assert_non_null(strstr(got, "python          not found\n"));
	assert_non_null(strstr(got, "torch           not importable\n"));
	assert_non_null(strstr(got, "copy bandwidth  not measured (--measure)\n"));
	assert_null(strstr(got, "gpu 0"));
	assert_null(strstr(got, "environment flags"));
	assert_null(strstr(got, "note:"));
	free(got);
}

/* An env.json of `tko env --measure` that measured nothing (read back): the row says why. */
static void test_not_measured_why(void **state)
{
	char *got = page("{\"bandwidth\": null, \"bandwidth_error\": \"no GPU (torch sees none)\","
			 " \"gpus\": [], \"tools\": [], \"env\": {}, \"notes\": []}");

	(void)state;
	assert_non_null(strstr(got, "copy bandwidth  not measured: no GPU (torch sees none)\n"));
	assert_null(strstr(got, "(--measure)"));
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page),
		cmocka_unit_test(test_nothing_found),
		cmocka_unit_test(test_not_measured_why),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
