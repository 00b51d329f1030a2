/*
 * Unit tests for parse/best_config: Inductor .best_config records and the
 * three ways their kernel is found. The records are corpus files'
 * contents (corpus/h200-run1/cache/inductor/{sd,sb}/...best_config), laid
 * out in a temporary cache directory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "autotune-test.h"
#include "parse/best_config.h"
#include "util/file.h"
#include "util/mem.h"

static const char by_hash[] =
	"{\"XBLOCK\": 1024, \"num_warps\": 4, \"num_stages\": 1, \"configs_hash\": \"3ca5\", "
	"\"found_by_coordesc\": false, \"time_taken_ms\": 33, \"triton_cache_hash\": \"CFGB\"}";
static const char by_coordesc[] =
	"{\"XBLOCK\": 1024, \"num_warps\": 8, \"num_stages\": 1, \"configs_hash\": \"3ca5\", "
	"\"found_by_coordesc\": true, \"time_taken_ms\": 671, \"triton_cache_hash\": null}";

/* Paths made by the test, freed and removed at its end. */
static char *made[32];
static size_t nmade;

static const char *path(const char *fmt, const char *a, const char *b)
{
	assert_true(nmade < sizeof(made) / sizeof(made[0]));
	made[nmade] = xstrfmt(fmt, a, b);
	return made[nmade++];
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	return remove(p);
}

static void cleanup(const char *root)
{
	size_t i;

	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	for (i = 0; i < nmade; i++)
		free(made[i]);
	nmade = 0;
}

static void put(const char *dir, const char *name, const char *text)
{
	struct buf err = BUF_INIT;
	char *p = path_join(dir, name);

	assert_int_equal(mkdir_p(dir, &err), 0);
	assert_int_equal(write_file_atomic(p, text, strlen(text), &err), 0);
	free(p);
}

static unsigned read_record(struct autotune_set *set, const char *file,
			    const char *text, const char *triton)
{
	struct buf err = BUF_INIT;
	unsigned f = at_input_add(set, file);

	assert_int_equal(best_config_read(set, f, text, strlen(text), triton, &err), 0);
	buf_release(&err);
	return f;
}

static void test_found_three_ways(void **state)
{
	char root[] = "/tmp/tko-unit-XXXXXX";
	struct at_src logged = { 0, 7, AT_FMT_INDUCTOR_LOG };
	struct autotune_set set;
	const struct at_kernel *k;
	struct at_kernel *lk;
	const struct at_tuning *t;
	struct at_tuning *lt;
	const char *triton, *cfgb, *sd, *sb, *sk, *hk;
	unsigned f;

	(void)state;
	assert_non_null(mkdtemp(root));
	triton = path("%s/cache/triton%s", root, "");
	cfgb = path("%s/CFGB%s", triton, "");
	sd = path("%s/cache/inductor/sd%s", root, "");
	sb = path("%s/cache/inductor/sb%s", root, "");
	sk = path("%s/cache/inductor/sk%s", root, "");
	hk = path("%s/cache/inductor/hk%s", root, "");
	put(cfgb, "triton_poi_fused_add_mul_sigmoid_sub_0.json", "{}");
	put(cfgb, "__grp__triton_poi_fused_add_mul_sigmoid_sub_0.json", "{}");
	put(sb, "csb.py", "@triton_heuristics.pointwise()\n@triton.jit\n"
	    "def triton_poi_fused_relu_1(in_ptr0, XBLOCK : tl.constexpr):\n");
	put(hk, "a.py", "@triton.jit\ndef one(x):\n");
	put(hk, "b.py", "@triton.jit\ndef two(x):\n");

	autotune_set_init(&set);
	/* 2: the Triton cache names it */
	f = read_record(&set, path("%s/%s", sd, "2a48.best_config"), by_hash, triton);
	k = kernel_by_id(&set, "triton_poi_fused_add_mul_sigmoid_sub_0");
	t = only_tuning(k);
	assert_int_equal(t->method, AT_BENCHMARK);
	assert_int_equal(t->best, 0);
	assert_string_equal(t->configs[0].kw[0].name, "XBLOCK");
	assert_int_equal(t->configs[0].num_warps, 4);
	assert_string_equal(t->configs[0].cache_hash, "CFGB");
	assert_true(fabs(t->elapsed_ms - 33.0) < 1e-9);
	assert_int_equal(t->src.fmt, AT_FMT_BEST_CONFIG);
	assert_int_equal(t->src.file, f);
	assert_int_equal(t->src.line, 0);
	/* 3: the only jit kernel beside it */
	read_record(&set, path("%s/%s", sb, "5131.best_config"), by_coordesc, triton);
	t = only_tuning(kernel_by_id(&set, "triton_poi_fused_relu_1"));
	assert_int_equal(t->method, AT_COORDESC);
	/* two kernels beside it: not guessed */
	f = read_record(&set, path("%s/%s", hk, "148e.best_config"), by_coordesc, triton);
	assert_non_null(set.inputs[f].note);
	assert_int_equal(set.nr, 2);
	/* 1: a log line said this tuning saved it */
	lk = at_kernel_current(&set, "logged", 6, logged);
	lt = at_tuning_add(lk, AT_BENCHMARK, logged);
	at_tuning_saved_to(&set, lt, "/tmp/w/cache/inductor/sk/0ebd.best_config", 41);
	read_record(&set, path("%s/%s", sk, "0ebd.best_config"), by_hash, NULL);
	assert_int_equal(lk->ntunings, 1);	/* annotated, not added */
	assert_non_null(strstr(lt->cache_file, "sk/0ebd.best_config"));
	assert_true(fabs(lt->elapsed_ms - 33.0) < 1e-9);
	autotune_set_release(&set);
	cleanup(root);
}

static void test_not_a_record(void **state)
{
	struct autotune_set set;
	struct buf err = BUF_INIT;
	unsigned f;

	(void)state;
	assert_int_equal(best_config_sniff(by_hash, strlen(by_hash)), 1);
	assert_int_equal(best_config_sniff(" \n{\"num_warps\": 4}", 18), 0);
	assert_int_equal(best_config_sniff("[1, 2]", 6), 0);
	autotune_set_init(&set);
	f = at_input_add(&set, "x.best_config");
	assert_int_equal(best_config_read(&set, f, "[1]", 3, NULL, &err), -1);
	assert_non_null(strstr(err.buf, "'x.best_config' is not a .best_config record"));
	buf_reset(&err);
	assert_int_equal(best_config_read(&set, f, "{\"XBLOCK\": ", 11, NULL, &err), -1);
	assert_non_null(strstr(err.buf, "cannot parse 'x.best_config'"));
	buf_release(&err);
	autotune_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_found_three_ways),
		cmocka_unit_test(test_not_a_record),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
