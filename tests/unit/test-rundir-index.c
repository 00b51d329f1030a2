/*
 * Unit tests for rundir/index: one kernel -> every artifact a RUN holds
 * for it. A hand-built RUN in a temporary folder checks each part (module
 * and twin, capture folder, recorded hash, Triton entries, wrapper,
 * .best_config records, tune documents, a part a link leads out of); the
 * example RUN (examples/h200-run) checks the kernels of a real one. The
 * expected hashes and counts come from sha256sum, ls and grep; the
 * commands are beside them.
 */
#define _XOPEN_SOURCE 700
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <unistd.h>
#include <cmocka.h>

#include "rundir/collect.h"
#include "rundir/index.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/walk.h"

/* printf '@triton.jit\ndef k1(x):\n    pass\n' | sha256sum */
#define K1_TEXT "@triton.jit\ndef k1(x):\n    pass\n"
#define K1_HASH "dd4c5ed56716f611393fc2c19e9d484588021de46e1e61c8ff10723896edc391"
/* printf '@triton.jit\ndef k1(y):\n    return\n' | sha256sum */
#define K1B_TEXT "@triton.jit\ndef k1(y):\n    return\n"
#define K1B_HASH8 "827709c8"

static void put(const char *root, const char *rel, const char *text)
{
	char *path = path_join(root, rel), *slash = strrchr(path, '/');
	struct buf err = BUF_INIT;

	*slash = '\0';
	assert_int_equal(mkdir_p(path, &err), 0);
	*slash = '/';
	assert_int_equal(write_file_atomic(path, text, strlen(text), &err), 0);
	buf_release(&err);
	free(path);
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

static void rm_tree(const char *root)
{
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * k1 is defined by two different modules (ab/cabc.py, with its twin
 * cd/ccdtwin.py, and gh/cghother.py) and has a capture folder of neither
 * (k1-deadbeef): three kernels share the name, so an entry or a wrapper
 * must name the module to be its.
 */
static void make_run(const char *root)
{
	put(root, "cache/inductor/ab/cabc.py", K1_TEXT);
	put(root, "cache/inductor/cd/ccdtwin.py", K1_TEXT);
	put(root, "cache/inductor/gh/cghother.py", K1B_TEXT);
	put(root, "cache/inductor/ef/cefwrap.py",
	    "# kernel path: /tmp/w/cache/inductor/ab/cabc.py\n"
	    "k1 = async_compile.triton('k1', '''\n@triton.jit\ndef k1(x): pass''')\n");
	put(root, "cache/inductor/ij/cijwrap.py",	/* launches the other k1 */
	    "# kernel path: /tmp/w/cache/inductor/gh/cghother.py\n"
	    "k1 = async_compile.triton('k1', '''...''')\n");
	put(root, "cache/inductor/ab/cabc.best_config", "{}");
	put(root, "cache/inductor/ab/0123.best_config", "{\"triton_cache_hash\": \"HASHA\"}");
	put(root, "cache/inductor/ab/4567.best_config", "{\"triton_cache_hash\": \"HASHC\"}");
	put(root, "cache/triton/HASHA/k1.json", "{\"name\": \"k1\"}");
	put(root, "cache/triton/HASHA/k1.ttir", "loc(\"/tmp/w/cache/inductor/ab/cabc.py\":2:0)\n");
	put(root, "cache/triton/HASHB/k1.json", "{\"name\": \"k1\"}");
	put(root, "cache/triton/HASHC/k1.json", "{\"name\": \"k1\"}");
	put(root, "cache/triton/HASHC/k1.ttir", "loc(\"/tmp/w/cache/inductor/gh/cghother.py\":2:0)\n");
	put(root, "cache/triton/HASHD/k1.json", "{\"name\": \"not_k1\"}");
	put(root, "capture/kernels/k1-dd4c5ed5/capture.json",
	    "{\"source_hash\": \"" K1_HASH "\", \"configs\": [{\"cache_hash\": \"HASHB\"}]}");
	put(root, "capture/kernels/k1-dd4c5ed5/tune/sm_90/tune.json", "{}");
	put(root, "capture/kernels/k1-dd4c5ed5/tune/gfx942/tune.json", "{}");
	put(root, "capture/kernels/k1-deadbeef/capture.json", "{\"configs\": []}");
	/* where `tko tune KERNEL_DIR` writes by default */
	put(root, "capture/kernels/k1-deadbeef/tune/tune.json", "{}");
	put(root, "capture/kernels/k1-deadbeef/tune/winner/config.json", "{}");
}

/* The RUN `root`, opened as tko collect opens it. */
static const struct rundir *open_run(struct rundir *rd, const char *root)
{
	struct buf err = BUF_INIT;

	assert_int_equal(rd_open(rd, root, &rd_need_any_dir, &err), 0);
	buf_release(&err);
	return rd;
}

static const char *tail(const char *path, const char *root)
{
	size_t n = strlen(root);

	assert_int_equal(strncmp(path, root, n), 0);
	return path + n + 1;
}

static void test_hand_built_run(void **state)
{
	char root[] = "/tmp/tko-index-XXXXXX";
	struct rd_index ix = RD_INDEX_INIT;
	struct rundir rd = RUNDIR_INIT;
	struct buf err = BUF_INIT;
	struct rd_kernel *v[4], *k;

	(void)state;
	assert_non_null(mkdtemp(root));
	make_run(root);
	assert_int_equal(rd_index_build(&ix, open_run(&rd, root), "k1",
					 RD_COLLECT_PARTS | RD_IX_TUNES, &err), 0);
	assert_int_equal(rd_index_find(&ix, "k1", NULL, v, 4), 3);
	assert_int_equal(rd_index_find(&ix, "k2", NULL, v, 4), 0);
	assert_int_equal(rd_index_find(&ix, "k1", "dd4c5ed5", v, 4), 1);
	k = v[0];
	assert_string_equal(k->source_hash, K1_HASH);
	assert_string_equal(tail(k->module, root), "cache/inductor/ab/cabc.py");
	assert_int_equal(k->twins.nr, 1);
	assert_string_equal(tail(k->twins.v[0], root), "cache/inductor/cd/ccdtwin.py");
	assert_string_equal(tail(k->capture_dir, root), "capture/kernels/k1-dd4c5ed5");
	assert_int_equal(k->recorded_hashes.nr, 1);
	assert_string_equal(k->recorded_hashes.v[0], "HASHB");
	/* HASHA names its module, HASHB was recorded; HASHC is the other k1's, HASHD not k1 */
	assert_int_equal(k->cache_dirs.nr, 2);
	assert_string_equal(tail(k->cache_dirs.v[0], root), "cache/triton/HASHA");
	assert_string_equal(tail(k->cache_dirs.v[1], root), "cache/triton/HASHB");
	assert_int_equal(k->wrappers.nr, 1);
	assert_string_equal(tail(k->wrappers.v[0], root), "cache/inductor/ef/cefwrap.py");
	assert_string_equal(tail(k->best_config, root), "cache/inductor/ab/cabc.best_config");
	/* 4567 records HASHC, not one of its entries */
	assert_int_equal(k->best_configs.nr, 1);
	assert_string_equal(tail(k->best_configs.v[0], root), "cache/inductor/ab/0123.best_config");
	/* by target, sorted */
	assert_int_equal(k->tunes.nr, 2);
	assert_string_equal(tail(k->tunes.v[0], root),
			    "capture/kernels/k1-dd4c5ed5/tune/gfx942/tune.json");
	assert_string_equal(tail(k->tunes.v[1], root),
			    "capture/kernels/k1-dd4c5ed5/tune/sm_90/tune.json");

	assert_int_equal(rd_index_find(&ix, "k1", K1B_HASH8, v, 4), 1);
	assert_string_equal(tail(v[0]->module, root), "cache/inductor/gh/cghother.py");
	assert_null(v[0]->capture_dir);
	assert_int_equal(v[0]->cache_dirs.nr, 1);
	assert_string_equal(tail(v[0]->cache_dirs.v[0], root), "cache/triton/HASHC");
	assert_int_equal(v[0]->wrappers.nr, 1);
	assert_string_equal(tail(v[0]->wrappers.v[0], root), "cache/inductor/ij/cijwrap.py");

	/* capture only: no module, so nothing of the cache is its (no recorded hash) */
	assert_int_equal(rd_index_find(&ix, "k1", "deadbeef", v, 4), 1);
	assert_null(v[0]->module);
	assert_null(v[0]->source_hash);
	assert_int_equal(v[0]->cache_dirs.nr, 0);
	/* tune's own default place, not its winner's config.json */
	assert_int_equal(v[0]->tunes.nr, 1);
	assert_string_equal(tail(v[0]->tunes.v[0], root), "capture/kernels/k1-deadbeef/tune/tune.json");
	assert_int_equal(ix.refused.nr, 0);
	rd_index_release(&ix);
	rd_release(&rd);
	rm_tree(root);
	buf_release(&err);
}

/* With one kernel of the name, every entry of the name is its (no IR needed). */
static void test_unique_name_takes_all_entries(void **state)
{
	char root[] = "/tmp/tko-index-XXXXXX";
	struct rd_index ix = RD_INDEX_INIT;
	struct rundir rd = RUNDIR_INIT;
	struct buf err = BUF_INIT;
	struct rd_kernel *k;

	(void)state;
	assert_non_null(mkdtemp(root));
	put(root, "cache/inductor/ab/cabc.py", K1_TEXT);
	put(root, "cache/triton/HASHA/k1.json", "{\"name\": \"k1\"}");
	put(root, "cache/triton/HASHB/k1.json", "{\"name\": \"k1\"}");
	assert_int_equal(rd_index_build(&ix, open_run(&rd, root), "k1", RD_IX_CACHE, &err), 0);
	assert_int_equal(rd_index_find(&ix, "k1", NULL, &k, 1), 1);
	assert_int_equal(k->cache_dirs.nr, 2);
	rd_index_release(&ix);
	rd_release(&rd);
	rm_tree(root);
	buf_release(&err);
}

/* A part of the RUN that is a link out of it is not read, and is listed as refused. */
static void test_link_out_is_refused(void **state)
{
	char root[] = "/tmp/tko-index-XXXXXX", out[] = "/tmp/tko-outside-XXXXXX";
	struct rd_index ix = RD_INDEX_INIT;
	struct rundir rd = RUNDIR_INIT;
	struct buf err = BUF_INIT;
	char *link;

	(void)state;
	assert_non_null(mkdtemp(root));
	assert_non_null(mkdtemp(out));
	put(out, "k1-dd4c5ed5/capture.json", "{}");
	put(root, "cache/inductor/ab/cabc.py", K1_TEXT);
	link = xstrfmt("%s/capture/kernels", root);
	put(root, "capture/.keep", "");
	assert_int_equal(symlink(out, link), 0);
	assert_int_equal(rd_index_build(&ix, open_run(&rd, root), NULL,
					 RD_IX_CAPTURES | RD_IX_MODULES, &err), 0);
	assert_int_equal(ix.nr, 1);
	assert_null(ix.v[0].capture_dir);
	assert_int_equal(ix.refused.nr, 1);
	assert_string_equal(ix.refused.v[0], link);
	rd_index_release(&ix);
	rd_release(&rd);
	rm_tree(root);
	rm_tree(out);
	free(link);
	buf_release(&err);
}

/*
 * examples/h200-run, kernel triton_mm:
 *   ls -d capture/kernels/triton_mm-* | wc -l                        -> 19
 *   grep -rlE '^def triton_mm\(' cache/inductor --include=*.py |
 *     xargs grep -L 'async_compile.triton(' | xargs grep -l '@triton.jit' |
 *     xargs sha256sum | cut -c1-8 | sort -u | wc -l                  -> 20 (19 of them captured)
 * triton_mm-1eaacdc2: module 6m/c6mzdatm...py; its capture.json records
 * cache_hash 2ZEKAPUT...; no entry's IR (grep) names the module, so that one
 * entry; no module launches it with a "# kernel path" naming its module.
 */
static void test_example_run(void **state)
{
	struct rd_index ix = RD_INDEX_INIT;
	struct rundir rd = RUNDIR_INIT;
	struct buf err = BUF_INIT;
	struct rd_kernel *k;
	const char *root = "examples/h200-run";

	(void)state;
	assert_int_equal(rd_index_build(&ix, open_run(&rd, root), "triton_mm", RD_COLLECT_PARTS, &err), 0);
	assert_int_equal(rd_index_find(&ix, "triton_mm", NULL, NULL, 0), 20);
	assert_int_equal(rd_index_find(&ix, "triton_mm", "1eaacdc2", &k, 1), 1);
	assert_string_equal(tail(k->module, root),
			    "cache/inductor/6m/c6mzdatmnluihnca7ptbaepoysktvo7x425zb7rprkyftgikqbvn.py");
	assert_string_equal(tail(k->capture_dir, root), "capture/kernels/triton_mm-1eaacdc2");
	assert_int_equal(k->cache_dirs.nr, 1);
	assert_string_equal(path_base(k->cache_dirs.v[0]),
			    "2ZEKAPUTO6LUETTPJ2S2TIRTWTI5SUOCYHQXEKW52IWFJLRP2DWQ");
	assert_int_equal(k->wrappers.nr, 0);
	/* e6edca9c: the module no capture folder has (comm -13 of the two lists) */
	assert_int_equal(rd_index_find(&ix, "triton_mm", "e6edca9c", &k, 1), 1);
	assert_null(k->capture_dir);
	rd_index_release(&ix);
	rd_release(&rd);
	buf_release(&err);
}

/* Kernel names as tko collect takes them: NAME, or NAME-<8 lowercase hex digits>. */
static void test_kernel_names(void **state)
{
	(void)state;
	assert_true(rd_kernel_spec_ok("triton_poi_fused_add_0"));
	assert_true(rd_kernel_spec_ok("triton_mm-1eaacdc2"));
	assert_false(rd_kernel_spec_ok("triton_mm-1EAACDC2"));
	assert_false(rd_kernel_spec_ok("triton_mm-1eaacd"));
	assert_false(rd_kernel_spec_ok("../etc/passwd"));
	assert_false(rd_kernel_spec_ok("/abs"));
	assert_false(rd_kernel_spec_ok("a b"));
	assert_false(rd_kernel_spec_ok("9lives"));
	assert_false(rd_kernel_spec_ok(""));
}

static void test_lookups(void **state)
{
	(void)state;
	assert_true(rd_kernel_spec_ok("triton_mm-1eaacdc2"));
	assert_false(rd_kernel_spec_ok("triton_mm-1eaacdc"));
	assert_string_equal(rd_replay_key("RUN/capture/kernels/k1-dd4c5ed5"), "k1-dd4c5ed5");
	/* by capture folder in the document's path, or in its source */
	assert_true(rd_tune_matches("RUN/capture/kernels/k1-dd4c5ed5/tune/sm_90/tune.json", "k1",
				    "/x/kernel.py", "k1", "capture/kernels/k1-dd4c5ed5", NULL));
	assert_true(rd_tune_matches("/elsewhere/tune.json", "k1",
				    "RUN/capture/kernels/k1-dd4c5ed5/kernel.py", "k1",
				    "capture/kernels/k1-dd4c5ed5", NULL));
	/* else by the module's file name */
	assert_true(rd_tune_matches("/elsewhere/tune.json", "k1", "/tmp/w/ab/cabc.py", "k1",
				    NULL, "RUN/cache/inductor/ab/cabc.py"));
	assert_false(rd_tune_matches("/elsewhere/tune.json", "k1", "/tmp/w/ab/other.py", "k1",
				     "capture/kernels/k1-dd4c5ed5", "RUN/cache/inductor/ab/cabc.py"));
	/* never another kernel's entry */
	assert_false(rd_tune_matches("RUN/capture/kernels/k1-dd4c5ed5/tune/sm_90/tune.json", "k2",
				     NULL, "k1", "capture/kernels/k1-dd4c5ed5", NULL));
	assert_false(rd_tune_matches("x", NULL, NULL, "k1", NULL, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_built_run),
		cmocka_unit_test(test_unique_name_takes_all_entries),
		cmocka_unit_test(test_link_out_is_refused),
		cmocka_unit_test(test_example_run),
		cmocka_unit_test(test_kernel_names),
		cmocka_unit_test(test_lookups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
