/*
 * Unit tests for rundir/cachematch: which Triton cache entries a kernel
 * was compiled into. Hand-built entries check each rule of the policy;
 * the corpus RUN (h200-run1) checks it on a real cache, with expected
 * numbers counted by hand with find/grep over
 * tests/corpus/h200-run1/cache/triton (the commands are beside them).
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

#include "analyse/tcache.h"
#include "isa/isa.h"
#include "rundir/cachematch.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/walk.h"

static int same_as_twin(void *data, const char *module_key)
{
	return !strcmp(module_key, (const char *)data);
}

/* k: three sm_90 configs of module m1, one gfx942; the twin module m2; another kernel. */
static const struct rd_centry entries[] = {
	{ "k", "HASH1", "m1", "sm_90", 4, 1, NULL },
	{ "k", "HASH2", "m1", "sm_90", 8, 1, NULL },
	{ "k", "HASH3", "m1", "sm_90", 8, 2, NULL },
	{ "k", "HASH4", "m1", "gfx942", 4, 1, NULL },
	{ "k", "HASH5", "m2", "gfx90a", -1, -1, NULL },
	{ "other", "HASH6", "m1", "sm_90", 4, 1, NULL },
};
#define NENTRIES (sizeof(entries) / sizeof(entries[0]))

static struct rd_cmatch pick_q(const char *arch, const char *hash, const char *module,
			       long warps, long stages)
{
	struct rd_cquery q = { "k", arch, hash, module, NULL, warps, stages, same_as_twin, "m2" };
	struct rd_cmatch m;

	rd_cache_pick(entries, NENTRIES, &q, &m);
	return m;
}

static void test_pick_rules(void **state)
{
	struct rd_cmatch m;

	(void)state;
	/* the recorded hash wins, whatever else is known */
	m = pick_q("sm_90", "HASH3", "m1", 4, 1);
	assert_ptr_equal(m.entry, &entries[2]);
	assert_int_equal(m.how, RD_HOW_CACHE_HASH);
	assert_string_equal(rd_how_names[m.how], "cache_hash");
	/* the module's only entry for the arch */
	m = pick_q("gfx942", NULL, "m1", -1, -1);
	assert_ptr_equal(m.entry, &entries[3]);
	assert_int_equal(m.how, RD_HOW_MODULE);
	assert_int_equal(m.candidates, 1);
	/* three for sm_90: num_warps 4 leaves one */
	m = pick_q("sm_90", NULL, "m1", 4, -1);
	assert_ptr_equal(m.entry, &entries[0]);
	assert_int_equal(m.how, RD_HOW_MODULE_WS);
	assert_string_equal(rd_how_names[m.how], "module+warps/stages");
	assert_int_equal(m.candidates, 3);
	/* num_warps 8 leaves two: num_stages decides */
	m = pick_q("sm_90", NULL, "m1", 8, 2);
	assert_ptr_equal(m.entry, &entries[2]);
	m = pick_q("sm_90", NULL, "m1", 8, -1);
	assert_null(m.entry);
	assert_int_equal(m.how, RD_HOW_AMBIGUOUS);
	assert_string_equal(rd_how_names[m.how], "ambiguous");
	assert_int_equal(m.candidates, 3);
	/* any arch: four of the module, ambiguous */
	m = pick_q(NULL, NULL, "m1", -1, -1);
	assert_int_equal(m.candidates, 4);
	assert_int_equal(m.how, RD_HOW_AMBIGUOUS);
	/* a module with the same source, on gfx90a (unknown warps match anything) */
	m = pick_q("gfx90a", NULL, "m1", 4, 1);
	assert_ptr_equal(m.entry, &entries[4]);
	assert_int_equal(m.how, RD_HOW_SAME_SOURCE);
	/* nothing for the arch */
	m = pick_q("gfx1100", NULL, "m1", -1, -1);
	assert_null(m.entry);
	assert_int_equal(m.how, RD_HOW_NONE);
	assert_string_equal(rd_how_names[m.how], "none");
	assert_int_equal(m.candidates, 0);
}

static void test_all_rules(void **state)
{
	const struct rd_centry *out[NENTRIES];
	struct strlist rec = STRLIST_INIT;
	struct rd_cquery q = { "k", NULL, NULL, NULL, &rec, -1, -1, NULL, NULL };

	(void)state;
	/* a name no other kernel has: all five of its entries, not "other"'s */
	assert_int_equal(rd_cache_all(entries, NENTRIES, &q, 1, out), 5);
	assert_ptr_equal(out[4], &entries[4]);
	/* shared name, nothing known: none */
	assert_int_equal(rd_cache_all(entries, NENTRIES, &q, 0, out), 0);
	/* a recorded hash */
	strlist_push(&rec, "HASH2");
	assert_int_equal(rd_cache_all(entries, NENTRIES, &q, 0, out), 1);
	assert_ptr_equal(out[0], &entries[1]);
	/* its module: the four of m1 (HASH2 once) */
	q.module_key = "m1";
	assert_int_equal(rd_cache_all(entries, NENTRIES, &q, 0, out), 4);
	/* and its twin's */
	q.same_source = same_as_twin;
	q.data = "m2";
	assert_int_equal(rd_cache_all(entries, NENTRIES, &q, 0, out), 5);
	strlist_release(&rec);
}

static void test_module_key_of_text(void **state)
{
	static const char ptx[] = "\t.file\t1 \"/usr/lib/python3/dist-packages/triton/language/standard.py\"\n"
				  "\t.file\t2 \"/tmp/w/cache/inductor/4o/c4ozvdwl.py\"\n";
	static const char amdgcn[] = "\t.file\t1 \"/tmp/w/cache/inductor/4o\" \"c4ozvdwl.py\"\n";
	static const char ttir[] = "#loc = loc(\"/tmp/w/cache/inductor/sd/csdvrf.py\":18:0)\n";
	static const char none[] = "module {\n  tt.func @k() \"not.py\n";
	char *k;

	(void)state;
	k = rd_module_key_of_text(ptx, sizeof(ptx) - 1);
	assert_string_equal(k, "c4ozvdwl");
	free(k);
	k = rd_module_key_of_text(amdgcn, sizeof(amdgcn) - 1);
	assert_string_equal(k, "c4ozvdwl");
	free(k);
	k = rd_module_key_of_text(ttir, sizeof(ttir) - 1);
	assert_string_equal(k, "csdvrf");
	free(k);
	/* a quote opened on another line is no path */
	assert_null(rd_module_key_of_text(none, sizeof(none) - 1));
	assert_null(rd_module_key_of_text("", 0));
}

static void test_same_source_files(void **state)
{
	char dir[] = "/tmp/tko-unit-XXXXXX";
	struct buf err = BUF_INIT;
	char *a, *b, *c;

	(void)state;
	assert_non_null(mkdtemp(dir));
	a = xstrfmt("%s/a.py", dir);
	b = xstrfmt("%s/b.py", dir);
	c = xstrfmt("%s/c.py", dir);
	assert_int_equal(write_file_atomic(a, "def k(x):\n    return x+1\n", 25, &err), 0);
	assert_int_equal(write_file_atomic(b, "def k(x):\n\n\treturn x+1", 22, &err), 0);
	assert_int_equal(write_file_atomic(c, "def k(x):\n    return x+2\n", 25, &err), 0);
	assert_int_equal(rd_same_source_files(a, b), 1);
	assert_int_equal(rd_same_source_files(a, c), 0);
	assert_int_equal(rd_same_source_files(a, "/nonexistent/x.py"), 0);
	unlink(a);
	unlink(b);
	unlink(c);
	rmdir(dir);
	free(a);
	free(b);
	free(c);
	buf_release(&err);
}

/* The corpus cache scanned as `tko investigate` does, then matched. */
struct corpus {
	struct isa_result res;
	struct tcache tc;
};

static int corpus_setup(void **state)
{
	const char *corpus = getenv("CORPUS");
	struct corpus *c = xcalloc(1, sizeof(*c));
	struct isa_options o = ISA_OPTIONS_INIT;
	struct strlist files = STRLIST_INIT;
	struct buf err = BUF_INIT;
	char *dir;
	size_t i;

	c->res = (struct isa_result)ISA_RESULT_INIT;
	c->tc = (struct tcache)TCACHE_INIT;
	o.no_tools = 1;
	dir = xstrfmt("%s/h200-run1/cache/triton", corpus ? corpus : "tests/corpus");
	if (walk_files(dir, &files, &err) < 0)
		return -1;
	for (i = 0; i < files.nr; i++) {
		const char *f = files.v[i];
		size_t n = strlen(f);

		if ((n > 4 && !strcmp(f + n - 4, ".ptx")) || (n > 7 && !strcmp(f + n - 7, ".amdgcn")))
			isa_scan_path(f, &o, &c->res, &err);
	}
	tcache_build(&c->tc, &c->res);
	walk_release(&files);
	buf_release(&err);
	free(dir);
	*state = c;
	return 0;
}

static int corpus_teardown(void **state)
{
	struct corpus *c = *state;

	tcache_release(&c->tc);
	isa_result_release(&c->res);
	free(c);
	return 0;
}

static void test_corpus_entries(void **state)
{
	struct corpus *c = *state;
	struct strlist keys = STRLIST_INIT;
	size_t i;

	/* ls cache/triton/ * /\*.ptx * /\*.amdgcn | wc -l: 116 files of one kernel each */
	assert_int_equal(c->tc.nr, 116);
	for (i = 0; i < c->tc.nr; i++) {
		const struct rd_centry *e = &c->tc.c[i];
		const struct tc_entry *te = e->data;
		struct mapped_file m;
		struct buf err = BUF_INIT;
		char *key;
		size_t j;

		assert_ptr_equal(te, &c->tc.v[i]);
		assert_string_equal(e->name, te->kernel->name);
		/* the scanner's .file table and a plain read of the text name one module */
		assert_int_equal(file_map(te->file->path, 0, &m, &err), 0);
		key = rd_module_key_of_text(m.data, m.len);
		file_unmap(&m);
		assert_non_null(e->module_key);
		assert_string_equal(e->module_key, key);
		free(key);
		for (j = 0; j < keys.nr && strcmp(keys.v[j], e->module_key); j++)
			;
		if (j == keys.nr)
			strlist_push(&keys, e->module_key);
		buf_release(&err);
	}
	/*
	 * for f in cache/triton/ * /\*.{ptx,amdgcn}; do grep -o '\.file.*\.py"' $f |
	 * grep -v -- -packages/ | head -1 | grep -o '[^"/]*\.py"'; done | sort -u | wc -l:
	 * 51, the 50 Inductor modules compiled and scripts/amd_compile.py
	 */
	assert_int_equal(keys.nr, 51);
	strlist_release(&keys);
}

static int corpus_twin(void *data, const char *module_key)
{
	(void)data;
	return !strcmp(module_key, "c4ozvdwlpyaddht6a4ul6rkjva5blwznb2f63rrzscxxd35yh4vt");
}

/*
 * triton_poi_fused_index_add_zeros_1 of module 4o/c4ozvdwl...: seven sm_90
 * entries (ls * /triton_poi_fused_index_add_zeros_1.ptx), three of them
 * num_warps 8 and four num_warps 4, all num_stages 1 (their .json), one
 * gfx942 entry CXVG5WE3... and one gfx90a entry 7IV7XRUO....
 */
static void test_corpus_pick(void **state)
{
	struct corpus *c = *state;
	const struct rd_centry **all = xcalloc(c->tc.nr, sizeof(*all));
	struct rd_cquery q = { "triton_poi_fused_index_add_zeros_1", "sm_90", NULL,
			       "c4ozvdwlpyaddht6a4ul6rkjva5blwznb2f63rrzscxxd35yh4vt", NULL, -1, -1,
			       NULL, NULL };
	struct rd_cmatch m;

	rd_cache_pick(c->tc.c, c->tc.nr, &q, &m);
	assert_int_equal(m.how, RD_HOW_AMBIGUOUS);
	assert_int_equal(m.candidates, 7);
	q.num_warps = 8;
	rd_cache_pick(c->tc.c, c->tc.nr, &q, &m);
	assert_int_equal(m.how, RD_HOW_AMBIGUOUS);
	q.cache_hash = "CIQD67PLQOSAV3EHPTCUZ7U2CV32YNGKRIOI55SER653524VFUQQ";
	rd_cache_pick(c->tc.c, c->tc.nr, &q, &m);
	assert_int_equal(m.how, RD_HOW_CACHE_HASH);
	assert_string_equal(m.entry->dir, q.cache_hash);
	q.cache_hash = NULL;
	q.arch = "gfx942";
	rd_cache_pick(c->tc.c, c->tc.nr, &q, &m);
	assert_int_equal(m.how, RD_HOW_MODULE);
	assert_string_equal(m.entry->dir, "CXVG5WE3W5MSZQM4VJJOKESDQUF2HIGPEWEZ2CFVZH2BGSTE7WLA");
	/* known only by a twin module's name */
	q.arch = "gfx90a";
	q.module_key = "cnosuchmodule";
	q.same_source = corpus_twin;
	rd_cache_pick(c->tc.c, c->tc.nr, &q, &m);
	assert_int_equal(m.how, RD_HOW_SAME_SOURCE);
	assert_string_equal(m.entry->dir, "7IV7XRUOIFZQN56BP5NBTC4L6AIG62THDAX5XL2JDVL4GYVYH24Q");
	/* collect's question: every entry of the name, 7 + 1 + 1 */
	q.arch = NULL;
	assert_int_equal(rd_cache_all(c->tc.c, c->tc.nr, &q, 1, all), 9);
	assert_int_equal(rd_cache_all(c->tc.c, c->tc.nr, &q, 0, all), 9);
	q.same_source = NULL;
	assert_int_equal(rd_cache_all(c->tc.c, c->tc.nr, &q, 0, all), 0);
	free(all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pick_rules),
		cmocka_unit_test(test_all_rules),
		cmocka_unit_test(test_module_key_of_text),
		cmocka_unit_test(test_same_source_files),
	};
	const struct CMUnitTest corpus_tests[] = {
		cmocka_unit_test(test_corpus_entries),
		cmocka_unit_test(test_corpus_pick),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) ||
	       cmocka_run_group_tests(corpus_tests, corpus_setup, corpus_teardown);
}
