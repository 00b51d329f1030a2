/*
 * Unit tests for the nsys SQLite export reader (profile/nsys.c) on
 * databases built here with libsqlite3, in the tables and columns of
 * `nsys export --type sqlite` (CUPTI_ACTIVITY_KIND_KERNEL with name ids
 * into StringIds, _MEMCPY, _MEMSET, TARGET_INFO_GPU). Expected values are
 * the rows' own numbers converted by hand (ns / 1000 = us).
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
#include <sqlite3.h>
#include <zlib.h>

#include "profile/attrib.h"
#include "profile/nsys.h"
#include "profile/prof.h"
#include "util/mem.h"

static char *dir;

static int setup(void **state)
{
	(void)state;
	dir = xstrdup("/tmp/tko-unit-nsys-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	rmdir(dir);
	free(dir);
	return 0;
}

/* A database at dir/name made by the SQL `sql`; returns its path. */
static char *make_db(const char *name, const char *sql)
{
	char *path = xstrfmt("%s/%s", dir, name), *msg = NULL;
	sqlite3 *db;

	unlink(path);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s", msg);
	sqlite3_close(db);
	return path;
}

#define KERNEL_TABLE \
	"CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL," \
	" deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER," \
	" gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER," \
	" blockZ INTEGER, shortName INTEGER, demangledName INTEGER);"

static const char export_sql[] =
	"CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
	"INSERT INTO StringIds VALUES (1, 'sm90_xmma_gemm_f32f32_tn_n_kernel'), (2, 'gemm'),"
	" (3, 'triton_poi_fused_add_0');"
	"CREATE TABLE TARGET_INFO_GPU (id INTEGER, name TEXT);"
	"INSERT INTO TARGET_INFO_GPU VALUES (0, 'NVIDIA H200');"
	KERNEL_TABLE
	/* 1..11 us, device 0, stream 7; 12..15 us on stream 13; NULL device; one that ends first */
	"INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES"
	" (1000, 11000, 0, 1, 7, 5, 132, 1, 1, 384, 1, 1, 2, 1),"
	" (12000, 15000, NULL, 1, 13, 6, 64, 2, 1, 128, 1, 1, 3, 3),"
	" (20000, 19000, 0, 1, 7, 7, 1, 1, 1, 1, 1, 1, 3, 3);"
	"CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL,"
	" deviceId INTEGER, streamId INTEGER, correlationId INTEGER, bytes INTEGER, copyKind INTEGER);"
	"INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (16000, 17000, 0, 7, 8, 4096, 1);"
	"CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL,"
	" deviceId INTEGER, streamId INTEGER, correlationId INTEGER, value INTEGER, bytes INTEGER);"
	"INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (17000, 17500, 0, 7, 9, 0, 4096);";

static void test_export_read(void **state)
{
	char *path = make_db("a.sqlite", export_sql);
	struct buf err = BUF_INIT;
	struct prof p;
	const struct prof_act *a;

	(void)state;
	prof_init(&p);
	assert_int_equal(prof_read_path(&p, path, &err), 0);
	assert_int_equal(p.format, PROF_FMT_NSYS_SQLITE);
	assert_string_equal(p.device, "NVIDIA H200");
	/* two kernels (the third ends before it starts: skipped), a copy, a fill */
	assert_int_equal(p.nacts, 4);
	assert_int_equal(p.skipped, 1);
	a = &p.acts[0];
	assert_string_equal(prof_str(&p, a->name), "sm90_xmma_gemm_f32f32_tn_n_kernel");	/* demangled */
	assert_true(a->start == 1 && a->dur == 10);
	assert_int_equal(a->device, 0);
	assert_int_equal(a->stream, 7);
	assert_int_equal(a->correlation, 5);
	assert_int_equal(a->grid[0], 132);
	assert_int_equal(a->block[0], 384);
	a = &p.acts[1];
	assert_string_equal(prof_str(&p, a->name), "triton_poi_fused_add_0");
	assert_true(a->start == 12 && a->dur == 3);
	assert_int_equal(a->device, -1);	/* NULL: unknown */
	assert_int_equal(a->grid[1], 2);
	assert_int_equal(p.acts[2].kind, PROF_ACT_MEMCPY);
	assert_string_equal(prof_str(&p, p.acts[2].name), "[CUDA memcpy]");
	assert_int_equal(p.acts[3].kind, PROF_ACT_MEMSET);
	assert_true(p.acts[3].start == 17 && p.acts[3].dur == 0.5);
	/*
	 * Busy: [1,11) + [12,15) + [16,17) + [17,17.5) = 10 + 3 + 1 + 0.5 =
	 * 14.5 of the span 1 to 17.5 (16.5); idle 2 in two gaps of 1.
	 */
	prof_attribute(&p);
	assert_true(p.busy == 14.5 && p.idle == 2);
	assert_int_equal(p.gaps, 2);
	assert_int_equal(p.groups[0].cls, PROF_CLASS_GEMM);
	prof_release(&p);
	unlink(path);
	free(path);
	buf_release(&err);
}

static void test_short_names_only(void **state)
{
	/* an export without demangledName: the names come from shortName */
	char *path = make_db("b.sqlite",
			     "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
			     "INSERT INTO StringIds VALUES (2, 'gemm');"
			     "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER,"
			     " deviceId INTEGER, streamId INTEGER, correlationId INTEGER,"
			     " shortName INTEGER);"
			     "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (0, 2000, 1, 3, 4, 2),"
			     " (3000, 4000, 1, 3, 5, 99);");
	struct buf err = BUF_INIT;
	struct prof p;

	(void)state;
	prof_init(&p);
	p.path = xstrdup(path);
	assert_int_equal(nsys_read_sqlite(&p, path, &err), 0);
	assert_int_equal(p.nacts, 2);
	assert_string_equal(prof_str(&p, p.acts[0].name), "gemm");
	assert_true(p.acts[0].dur == 2);
	assert_int_equal(p.acts[0].grid[0], 0);		/* no grid columns: unknown */
	assert_string_equal(prof_str(&p, p.acts[1].name), "?");	/* id 99 is not in StringIds */
	assert_null(p.device);
	prof_release(&p);
	unlink(path);
	free(path);
	buf_release(&err);
}

static void test_not_an_export(void **state)
{
	char *path = make_db("c.sqlite", "CREATE TABLE t (x INTEGER);");
	struct buf err = BUF_INIT;
	struct prof p;

	(void)state;
	prof_init(&p);
	assert_int_equal(prof_read_path(&p, path, &err), -1);
	assert_non_null(strstr(err.buf, "without CUPTI_ACTIVITY_KIND_KERNEL"));
	assert_non_null(strstr(err.buf, path));
	assert_null(strchr(err.buf, '\n'));
	prof_release(&p);
	unlink(path);
	free(path);
	buf_release(&err);
}

static void test_compressed_export_refused(void **state)
{
	char *path = make_db("d.sqlite", export_sql), *gz = xstrfmt("%s.gz", path);
	struct buf err = BUF_INIT;
	struct prof p;
	gzFile out;
	FILE *in;
	char chunk[4096];
	size_t n;

	(void)state;
	in = fopen(path, "rb");
	out = gzopen(gz, "wb");
	assert_non_null(in);
	assert_non_null(out);
	while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
		assert_int_equal(gzwrite(out, chunk, (unsigned)n), (int)n);
	fclose(in);
	gzclose(out);
	/* detected as SQLite once decompressed, but libsqlite3 cannot open it: said so */
	prof_init(&p);
	assert_int_equal(prof_read_path(&p, gz, &err), -1);
	assert_non_null(strstr(err.buf, "compressed with gzip"));
	prof_release(&p);
	unlink(gz);
	unlink(path);
	free(gz);
	free(path);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_export_read),
		cmocka_unit_test(test_short_names_only),
		cmocka_unit_test(test_not_an_export),
		cmocka_unit_test(test_compressed_export_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
