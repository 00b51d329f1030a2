/*
 * Unit tests for tune/isasum: a variant's ISA summary and its delta from
 * the base, the "ISA vs base" column of tko tune. Two small AMDGCN texts
 * (the global and the buffer form of the same load/store kernel, counted
 * by hand) and a real Triton AMDGCN file from the corpus, whose counts are
 * taken here by a plain line count independent of the scanner.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "json/jsonio.h"
#include "tune/isasum.h"
#include "util/file.h"
#include "util/mem.h"

#define HEAD ".amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n.globl k\n.type k,@function\nk:\n"
#define TAIL "s_endpgm\n.amdhsa_kernel k\n.amdhsa_next_free_vgpr %d\n.end_amdhsa_kernel\n" \
	"; Kernel info:\n; NumVgprs: %d\n; ScratchSize: %d\n"

static const char global_body[] =
	"global_load_dwordx4 v[0:3], v[8:9], off\n"
	"global_load_dwordx4 v[4:7], v[10:11], off\n"
	"global_load_dword v12, v[10:11], off\n"
	"global_store_dwordx4 v[8:9], v[0:3], off\n";
static const char buffer_body[] =
	"buffer_load_dwordx4 v[0:3], v8, s[4:7], 0 offen\n"
	"buffer_load_dwordx4 v[4:7], v9, s[4:7], 0 offen\n"
	"buffer_load_dwordx4 v[12:15], v9, s[4:7], 0 offen\n"
	"buffer_store_dwordx4 v[0:3], v8, s[4:7], 0 offen\n";

static char *write_asm(const char *body, int vgprs, int scratch)
{
	char *path = xstrdup("/tmp/tko-isasum-XXXXXX.amdgcn");
	char *text = xstrfmt(HEAD "%s" TAIL, body, vgprs, vgprs, scratch);
	struct buf err = BUF_INIT;
	int fd = mkstemps(path, 7);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(write_file_atomic(path, text, strlen(text), &err), 0);
	free(text);
	buf_release(&err);
	return path;
}

static void scan(const char *body, int vgprs, int scratch, struct tune_isa *a)
{
	char *path = write_asm(body, vgprs, scratch);
	struct buf err = BUF_INIT;

	tune_isa_init(a);
	assert_int_equal(tune_isa_scan(path, "k", a, &err), 0);
	unlink(path);
	free(path);
	buf_release(&err);
}

static long long fam_count(const json_t *isa, const char *fam, const char *width)
{
	const json_t *f = json_object_get(json_object_get(isa, "families"), fam);

	if (!f)
		return 0;
	return width ? json_int(json_object_get(f, "by_width"), width, 0) : json_int(f, "count", 0);
}

static void test_summary(void **state)
{
	struct tune_isa a;
	struct buf text = BUF_INIT;
	json_t *j;

	(void)state;
	scan(global_body, 16, 0, &a);
	tune_isa_text(&a, &text);
	/* 2 of the 3 loads and the store move 128 bits: 3 of 4 */
	assert_string_equal(text.buf, "gld 2x128 1x32, gst 1x128, vec 75%, vgprs 16");
	j = tune_isa_json(&a);
	assert_string_equal(json_str(j, "isa"), "amdgcn");
	assert_int_equal(fam_count(j, "global_load", NULL), 3);
	assert_int_equal(fam_count(j, "global_load", "128"), 2);
	assert_int_equal(fam_count(j, "global_load", "32"), 1);
	assert_int_equal(json_int(j, "global_ops", -1), 4);
	assert_int_equal(json_int(j, "vector_pct", -1), 75);
	assert_int_equal(json_int(json_object_get(j, "resources"), "vgprs", -1), 16);
	assert_true(json_is_null(json_object_get(json_object_get(j, "resources"), "registers")));
	json_decref(j);
	buf_release(&text);
	tune_isa_release(&a);
}

static void test_delta(void **state)
{
	struct tune_isa base, buf, same;
	struct buf text = BUF_INIT;
	json_t *j, *f, *r;

	(void)state;
	scan(global_body, 16, 0, &base);
	scan(buffer_body, 20, 8, &buf);
	scan(global_body, 16, 0, &same);
	assert_int_equal(tune_isa_delta(&base, &same, &text, NULL), 0);
	assert_int_equal((int)text.len, 0);
	/* four families and vec, VGPRs and scratch differ */
	assert_int_equal(tune_isa_delta(&base, &buf, &text, &j), 7);
	assert_string_equal(text.buf,
		"gld 2x128 1x32->none; gst 1x128->none; bld none->3x128; bst none->1x128; "
		"vec 75->100%; vgprs 16->20; scratch 0->8");
	f = json_object_get(j, "families");
	assert_int_equal(json_int(json_array_get(json_object_get(f, "global_load"), 0), "count", -1), 3);
	assert_int_equal(json_int(json_array_get(json_object_get(f, "global_load"), 1), "count", -1), 0);
	assert_int_equal(json_int(json_array_get(json_object_get(f, "buffer_load"), 1), "count", -1), 3);
	r = json_object_get(j, "resources");
	assert_int_equal(json_integer_value(json_array_get(json_object_get(r, "vgprs"), 1)), 20);
	assert_null(json_object_get(r, "sgprs"));
	json_decref(j);
	buf_release(&text);
	tune_isa_release(&base);
	tune_isa_release(&buf);
	tune_isa_release(&same);
}

static long long resource(const struct tune_isa *a, const char *name)
{
	json_t *j = tune_isa_json(a);
	long long v = json_int(json_object_get(j, "resources"), name, -1);

	json_decref(j);
	return v;
}

static void test_driver_registers_only_for_ptx(void **state)
{
	struct tune_isa a;

	(void)state;
	scan(global_body, 16, 0, &a);
	/* on AMD the driver's n_spills is scratch / 4, not spills: not used */
	tune_isa_add_driver(&a, 40, 2);
	assert_int_equal(resource(&a, "registers"), -1);
	free(a.isa);
	a.isa = xstrdup("ptx");
	tune_isa_add_driver(&a, 40, 2);
	assert_int_equal(resource(&a, "registers"), 40);
	/* CUDA's n_spills is local bytes / 4 */
	assert_int_equal(resource(&a, "local_bytes"), 8);
	tune_isa_release(&a);
}

/* Lines of `path` whose first word is `op`: a count that does not use the scanner. */
static long long count_op(const char *path, const char *op)
{
	struct buf text = BUF_INIT, err = BUF_INIT;
	long long n = 0;
	char *line, *save = NULL;

	assert_int_equal(file_read(path, 0, &text, &err), 0);
	for (line = strtok_r(text.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		line += strspn(line, " \t");
		if (!strncmp(line, op, strlen(op)) && (line[strlen(op)] == ' ' || line[strlen(op)] == '\t'))
			n++;
	}
	buf_release(&text);
	buf_release(&err);
	return n;
}

static void test_corpus_file(void **state)
{
	const char *corpus = getenv("CORPUS");
	char *path;
	struct tune_isa a;
	struct buf err = BUF_INIT;
	json_t *j;

	(void)state;
	if (!corpus)
		skip();
	path = xstrfmt("%s/amd-xcompile/inductor.triton_poi_fused_index_add_zeros_1.gfx942.amdgcn",
		       corpus);
	tune_isa_init(&a);
	assert_int_equal(tune_isa_scan(path, "triton_poi_fused_index_add_zeros_1", &a, &err), 0);
	j = tune_isa_json(&a);
	assert_int_equal(fam_count(j, "global_load", "128"), count_op(path, "global_load_dwordx4"));
	assert_int_equal(fam_count(j, "global_load", "64"), count_op(path, "global_load_dwordx2"));
	assert_int_equal(fam_count(j, "global_atomic", NULL),
			 count_op(path, "global_atomic_add_f32"));
	assert_true(fam_count(j, "global_atomic", NULL) > 0);
	json_decref(j);
	tune_isa_release(&a);
	free(path);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_driver_registers_only_for_ptx),
		cmocka_unit_test(test_corpus_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
