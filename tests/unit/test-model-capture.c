/*
 * Unit tests for model/capture (capture.json as a typed document). The
 * documents are written here by hand in the hook's layout
 * (docs/capture-events.md); every expected value is read off the text
 * above it, and every bad document names the field its one-line error
 * must name.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/capture.h"
#include "util/file.h"
#include "util/mem.h"

/* A pointwise Inductor kernel: an in-place tensor, an offset view, a scalar, a None. */
static const char good[] =
	"{\"schema_version\": 1, \"tool\": \"tko capture\","
	" \"kernel\": \"triton_poi_fused_add_0\", \"kind\": \"inductor\","
	" \"source_hash\": \"68489215aa\","
	" \"args\": ["
	"  {\"name\": \"in_out_ptr0\", \"kind\": \"tensor\", \"shape\": [8, 512],"
	"   \"stride\": [512, 1], \"storage_offset\": 0, \"dtype\": \"float32\","
	"   \"element_size\": 4, \"device\": \"cuda:0\", \"storage\": 0, \"storage_bytes\": 16384},"
	"  {\"name\": \"in_ptr0\", \"kind\": \"tensor\", \"shape\": [512], \"stride\": [1],"
	"   \"storage_offset\": 24, \"dtype\": \"bfloat16\", \"element_size\": 2, \"storage\": 1},"
	"  {\"name\": \"xnumel\", \"kind\": \"scalar\", \"type\": \"int\", \"value\": 4096},"
	"  {\"name\": \"opt\", \"kind\": \"none\"},"
	"  {\"name\": \"eps\", \"kind\": \"scalar\", \"type\": \"float\", \"value\": null}],"
	" \"storages\": [{\"index\": 0, \"file\": \"inputs/storage0.bin\", \"nbytes\": 16384}],"
	" \"mutated_arg_names\": [\"in_out_ptr0\"],"
	" \"grid\": [4, 1, 1],"
	" \"configs\": [{\"kwargs\": {\"XBLOCK\": 1024}, \"num_warps\": 4, \"time_ms\": 1.25,"
	"   \"cache_hash\": \"XI7G\"},"
	"  {\"kwargs\": {\"XBLOCK\": 512}, \"num_warps\": 8, \"time_ms\": null}],"
	" \"best_index\": 1, \"inductor_num_bytes\": 134250496.0,"
	" \"versions\": {\"torch\": \"2.11.0\", \"triton\": \"3.6.0\", \"python\": \"3.12.3\"}}";

static json_t *parse(const char *text)
{
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);

	assert_non_null(j);
	return j;
}

static void test_read_typed(void **state)
{
	json_t *j = parse(good);
	struct capture_doc c;
	struct buf err = BUF_INIT;
	const struct capture_config *best;

	(void)state;
	capture_init(&c);
	assert_int_equal(capture_read(&c, j, "k/capture.json", &err), 0);
	assert_string_equal(c.kernel, "triton_poi_fused_add_0");
	assert_string_equal(c.kind, "inductor");
	assert_string_equal(c.source_hash, "68489215aa");
	assert_int_equal(c.nargs, 5);
	assert_true(capture_arg_is_tensor(&c.args[0]));
	assert_int_equal(json_array_size(c.args[0].shape), 2);
	assert_int_equal(json_integer_value(json_array_get(c.args[0].shape, 1)), 512);
	assert_int_equal(json_integer_value(json_array_get(c.args[0].stride, 0)), 512);
	assert_int_equal(c.args[1].storage_offset, 24);
	assert_int_equal(c.args[1].element_size, 2);
	assert_int_equal(c.args[1].storage, 1);
	assert_string_equal(c.args[1].dtype, "bfloat16");
	assert_false(capture_arg_is_tensor(&c.args[2]));
	assert_int_equal(json_integer_value(c.args[2].value), 4096);
	assert_string_equal(c.args[3].kind, "none");
	assert_null(c.args[3].shape);
	assert_true(c.args[3].storage == RF_I64_NONE);
	assert_null(c.args[3].value);			/* missing */
	assert_true(json_is_null(c.args[4].value));	/* written null */
	assert_true(capture_mutates(&c, "in_out_ptr0"));
	assert_false(capture_mutates(&c, "in_ptr0"));
	assert_int_equal(json_integer_value(json_array_get(c.grid, 0)), 4);
	assert_int_equal(json_array_size(c.storages), 1);
	/* "args" is handed on as written: the same 4 objects, the keys tko does not type kept */
	assert_int_equal(json_array_size(capture_args_json(&c)), 5);
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(capture_args_json(&c), 0), "device")), "cuda:0");
	assert_int_equal(c.nconfigs, 2);
	assert_string_equal(c.configs[0].cache_hash, "XI7G");
	assert_true(c.configs[0].time_ms == 1.25);
	best = capture_best(&c);
	assert_ptr_equal(best, &c.configs[1]);
	assert_null(best->cache_hash);
	assert_true(isnan(best->time_ms));
	/* a config is kept whole: tune's base config is the object as written */
	assert_int_equal(json_integer_value(json_object_get(best->kept, "num_warps")), 8);
	assert_true(c.inductor_num_bytes == 134250496.0);
	assert_true(c.have_versions);
	assert_string_equal(c.versions.torch, "2.11.0");
	assert_string_equal(c.versions.triton, "3.6.0");
	capture_release(&c);
	json_decref(j);
	buf_release(&err);
}

/* An old or partial capture: every member unknown, none an error. */
static void test_read_sparse(void **state)
{
	json_t *j = parse("{\"kernel\": \"k\", \"best_index\": 3, \"configs\": []}");
	struct capture_doc c;
	struct buf err = BUF_INIT;

	(void)state;
	capture_init(&c);
	assert_int_equal(capture_read(&c, j, "k/capture.json", &err), 0);
	assert_int_equal(c.nargs, 0);
	assert_null(capture_args_json(&c));
	assert_null(capture_best(&c));		/* 3 is past the 0 configs */
	assert_true(c.best_index == 3);
	assert_true(isnan(c.inductor_num_bytes));
	assert_false(c.have_versions);
	assert_null(c.kind);
	capture_release(&c);
	json_decref(j);
	buf_release(&err);
}

static void expect_error(const char *text, const char *line)
{
	json_t *j = parse(text);
	struct capture_doc c;
	struct buf err = BUF_INIT;

	capture_init(&c);
	assert_int_equal(capture_read(&c, j, "k/capture.json", &err), -1);
	assert_string_equal(err.buf, line);
	assert_null(strchr(err.buf, '\n'));
	capture_release(&c);
	json_decref(j);
	buf_release(&err);
}

static void test_read_bad(void **state)
{
	(void)state;
	expect_error("[1]", "'k/capture.json': capture.json is not an object");
	expect_error("{\"kernel\": 7}", "'k/capture.json': kernel: not a string");
	expect_error("{\"args\": {}}", "'k/capture.json': args: not a list");
	expect_error("{\"args\": [{\"name\": \"x\"}, 3]}", "'k/capture.json': args[1]: not an object");
	expect_error("{\"args\": [{\"name\": \"x\", \"storage_offset\": 1.5}]}",
		     "'k/capture.json': args[0].storage_offset: not an integer");
	expect_error("{\"args\": [{\"name\": \"x\"}, {\"name\": \"y\", \"shape\": [4, \"8\"]}]}",
		     "'k/capture.json': args[1].shape: not a list of integers");
	expect_error("{\"args\": [{\"name\": \"x\", \"shape\": [4], \"stride\": 1}]}",
		     "'k/capture.json': args[0].stride: not a list of integers");
	expect_error("{\"mutated_arg_names\": [\"a\", 2]}",
		     "'k/capture.json': mutated_arg_names: not a list of strings");
	expect_error("{\"configs\": [{\"time_ms\": \"fast\"}]}",
		     "'k/capture.json': configs[0].time_ms: not a number");
	expect_error("{\"best_index\": \"0\"}", "'k/capture.json': best_index: not an integer");
	expect_error("{\"versions\": {\"torch\": 2}}", "'k/capture.json': versions.torch: not a string");
}

/* A file cut short: json_load_path's one line, naming the file. */
static void test_load_truncated(void **state)
{
	char dir[] = "/tmp/tko-capture-XXXXXX";
	struct capture_doc c;
	struct buf err = BUF_INIT;
	char *path;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = xstrfmt("%s/capture.json", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("{\"kernel\": \"k\", \"args\": [{\"name\": \"x\", \"sha", fp);
	fclose(fp);
	capture_init(&c);
	assert_int_equal(capture_load(&c, path, &err), -1);
	assert_non_null(strstr(err.buf, path));
	assert_null(strchr(err.buf, '\n'));
	buf_reset(&err);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(good, fp);
	fclose(fp);
	assert_int_equal(capture_load(&c, path, &err), 0);
	assert_int_equal(c.nargs, 5);
	capture_release(&c);
	unlink(path);
	rmdir(dir);
	free(path);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_typed),
		cmocka_unit_test(test_read_sparse),
		cmocka_unit_test(test_read_bad),
		cmocka_unit_test(test_load_truncated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
