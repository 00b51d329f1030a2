/*
 * Unit tests for rundir/layout: the part table, what makes a RUN for each
 * command, creating one, its kernel folders, the containment rules, and
 * finding logged paths in a RUN. Expected paths are spelled out by hand
 * from DESIGN.md's RUN layout.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "rundir/layout.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/walk.h"

static void test_tail2(void **state)
{
	const char *p = "/tmp/w/cache/inductor/sk/0ebd.best_config";

	(void)state;
	assert_string_equal(rd_tail2(p, strlen(p)), "sk/0ebd.best_config");
	assert_string_equal(rd_tail2("a/b", 3), "a/b");
	assert_string_equal(rd_tail2("b", 1), "b");
}

static void test_resolve_and_root(void **state)
{
	char root[] = "/tmp/tko-unit-XXXXXX";
	struct buf err = BUF_INIT;
	char *dir, *file, *log, *got, *r;
	const char *logged = "/tmp/elsewhere/cache/inductor/sk/csk.py";

	(void)state;
	assert_non_null(mkdtemp(root));
	dir = xstrfmt("%s/cache/inductor/sk", root);
	file = xstrfmt("%s/csk.py", dir);
	log = xstrfmt("%s/log/model.log", root);
	assert_int_equal(mkdir_p(dir, &err), 0);
	assert_int_equal(write_file_atomic(file, "x", 1, &err), 0);
	got = rd_resolve_logged(root, logged, strlen(logged));
	assert_non_null(got);
	assert_string_equal(got, file);
	free(got);
	assert_null(rd_resolve_logged(NULL, logged, strlen(logged)));
	got = rd_resolve_logged(NULL, file, strlen(file));	/* exists as given */
	assert_string_equal(got, file);
	free(got);
	r = rd_root_of_file(log);	/* RUN/log/model.log: the parent */
	assert_string_equal(r, root);
	free(r);
	got = xstrfmt("%s/top.txt", root);
	r = rd_root_of_file(got);
	assert_string_equal(r, root);
	free(r);
	free(got);
	assert_null(rd_root_of_file("/nonexistent/x.log"));
	assert_int_equal(rd_meets(rd_probe(root), &rd_need_summarize), 1);
	assert_int_equal(rd_meets(rd_probe(dir), &rd_need_summarize), 0);
	unlink(file);
	rmdir(dir);
	free(file);
	file = xstrfmt("%s/cache/inductor", root);
	rmdir(file);
	free(file);
	file = xstrfmt("%s/cache", root);
	rmdir(file);
	free(file);
	rmdir(root);
	free(dir);
	free(log);
}

/*
 * A RUN's files lead only inside it: a logged path outside the RUN is not
 * opened even when it exists, and a part that is a link out is refused.
 */
static void test_paths_stay_inside_the_run(void **state)
{
	char root[] = "/tmp/tko-unit-XXXXXX";
	struct buf err = BUF_INIT, why = BUF_INIT;
	char *run = xstrfmt("%s/run", root), *out = xstrfmt("%s/outside/sk", root);
	char *secret = xstrfmt("%s/secret.py", out), *cache = xstrfmt("%s/cache", run);
	char *lnk = xstrfmt("%s/inductor", cache), *got, *want;

	(void)state;
	assert_non_null(mkdtemp(root));
	assert_int_equal(mkdir_p(cache, &err), 0);
	assert_int_equal(mkdir_p(out, &err), 0);
	assert_int_equal(write_file_atomic(secret, "x", 1, &err), 0);
	/* Read where it was written, a log names the file outside: not opened. */
	assert_null(rd_resolve_logged(run, secret, strlen(secret)));
	/* A loose log (no RUN) may name it. */
	got = rd_resolve_logged(NULL, secret, strlen(secret));
	assert_string_equal(got, secret);
	free(got);
	/* RUN/cache/inductor as a link out of the RUN: refused, with why. */
	assert_int_equal(symlink("../../outside", lnk), 0);
	assert_null(rd_resolve_logged(run, "/w/cache/inductor/sk/secret.py", 30));
	assert_null(rd_inside(run, "cache/inductor", &why));
	want = xstrfmt("'%s/cache/inductor' leads out of the RUN (a symbolic link); not read", run);
	assert_string_equal(why.buf, want);
	free(want);
	buf_reset(&why);
	assert_null(rd_inside(run, "../outside", &why));
	assert_string_equal(why.buf, "'../outside' is not a path inside the RUN; not read");
	buf_reset(&why);
	assert_null(rd_inside(run, "capture/kernels", &why));	/* missing: no why */
	assert_int_equal(why.len, 0);
	got = rd_inside(run, "cache", &why);
	assert_string_equal(got, cache);
	free(got);
	assert_int_equal(rd_rel_ok("capture/kernels/k-1"), 1);
	assert_int_equal(rd_rel_ok("/etc"), 0);
	assert_int_equal(rd_rel_ok("a//b"), 0);
	unlink(lnk);
	unlink(secret);
	rmdir(out);
	*strrchr(out, '/') = '\0';
	rmdir(out);
	rmdir(cache);
	rmdir(run);
	assert_int_equal(rmdir(root), 0);
	free(run);
	free(out);
	free(secret);
	free(cache);
	free(lnk);
	buf_release(&err);
	buf_release(&why);
}

/* Removes a tree made by a test (no links followed: unlink removes a link itself). */
static void rm_tree(const char *path)
{
	struct strlist l = STRLIST_INIT;
	DIR *d = opendir(path);
	struct dirent *e;
	size_t i;

	while (d && (e = readdir(d))) {
		char *p;
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = path_join(path, e->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			strlist_push(&l, p);
		else {
			unlink(p);
			free(p);
		}
	}
	if (d)
		closedir(d);
	for (i = 0; i < l.nr; i++) {
		rm_tree(l.v[i]);
		free((char *)l.v[i]);
	}
	strlist_release(&l);
	rmdir(path);
}

static void touch(const char *root, const char *rel)
{
	char *p = path_join(root, rel), *slash = strrchr(p, '/');
	struct buf err = BUF_INIT;

	*slash = '\0';
	assert_int_equal(mkdir_p(p, &err), 0);
	*slash = '/';
	assert_int_equal(write_file_atomic(p, "x", 1, &err), 0);
	free(p);
	buf_release(&err);
}

/* DESIGN.md's layout, spelled by hand: the table must say the same. */
static void test_part_table(void **state)
{
	static const char *const skeleton[] = {
		"log", "capture", "capture/kernels", "cache", "cache/inductor", "cache/triton",
	};
	size_t i, n = 0;
	int p;

	(void)state;
	assert_string_equal(rd_parts[RD_MANIFEST].rel, "tko-run.json");
	assert_string_equal(rd_parts[RD_EVENTS].rel, "capture/events.jsonl");
	assert_string_equal(rd_parts[RD_KERNELS_JSON].rel, "analysis/kernels.json");
	assert_string_equal(rd_parts[RD_REPLAY_JSON].rel, "analysis/replay.json");
	assert_string_equal(rd_parts[RD_PROFILE_DIR].rel, "profile");
	for (p = 0; p < RD_NPARTS; p++) {
		const char *rel = rd_parts[p].rel, *slash = strrchr(rel, '/');

		assert_true(rd_rel_ok(rel));
		if (rd_parts[p].skeleton) {
			assert_true(rd_parts[p].dir);
			assert_string_equal(rel, skeleton[n]);
			n++;
		}
		/* every part's folder is a folder part of the table */
		if (slash) {
			int q, found = 0;

			for (q = 0; q < RD_NPARTS; q++)
				found |= rd_parts[q].dir && strlen(rd_parts[q].rel) == (size_t)(slash - rel) &&
					 !strncmp(rd_parts[q].rel, rel, (size_t)(slash - rel));
			assert_true(found);
		}
	}
	assert_int_equal(n, sizeof(skeleton) / sizeof(skeleton[0]));
	for (i = 0; i < RD_K_NPARTS; i++)
		assert_true(rd_rel_ok(rd_kparts[i]));
}

static void test_paths(void **state)
{
	char *s;

	(void)state;
	s = rd_path_in("runs/a", RD_REPLAY_JSON);
	assert_string_equal(s, "runs/a/analysis/replay.json");
	free(s);
	s = rd_kernel_path("capture/kernels/k-1a2b3c4d", RD_K_CAPTURE_JSON);
	assert_string_equal(s, "capture/kernels/k-1a2b3c4d/capture.json");
	free(s);
	s = rd_kernel_tune_doc("capture/kernels/k-1a2b3c4d", "gfx942");
	assert_string_equal(s, "capture/kernels/k-1a2b3c4d/tune/gfx942/tune.json");
	free(s);
	s = rd_module_key("cache/inductor/4o/c4ozvdwl.py");
	assert_string_equal(s, "c4ozvdwl");
	free(s);
	s = rd_module_key("kernel");
	assert_string_equal(s, "kernel");
	free(s);
	setenv("TZ", "UTC", 1);
	tzset();
	s = rd_default_name(86400 + 3600 + 61);
	assert_string_equal(s, "tko-run-19700102-010101");
	free(s);
	{
		char t[32];

		rd_iso_time(86400 + 3600 + 61, t, sizeof(t));
		assert_string_equal(t, "1970-01-02T01:01:01Z");
	}
}

/* Each command's test for a RUN, and its message, on folders made by hand. */
static void test_create_probe_open(void **state)
{
	char root[] = "/tmp/tko-unit-XXXXXX";
	struct buf err = BUF_INIT;
	struct rundir rd = RUNDIR_INIT;
	char *run, *want, *env_only, *file;
	unsigned have;

	(void)state;
	assert_non_null(mkdtemp(root));
	run = xstrfmt("%s/a/run", root);	/* its parent is made too */
	assert_int_equal(rd_create(run, &err), 0);
	have = rd_probe(run);
	assert_int_equal(have, (1u << RD_LOG_DIR) | (1u << RD_CAPTURE_DIR) | (1u << RD_KERNELS_DIR) |
			 (1u << RD_CACHE_DIR) | (1u << RD_INDUCTOR_CACHE) | (1u << RD_TRITON_CACHE));
	/* a second capture into it is refused */
	assert_int_equal(rd_create(run, &err), -1);
	want = xstrfmt("'%s' already exists and is not empty (choose another --out)", run);
	assert_string_equal(err.buf, want);
	free(want);
	buf_reset(&err);
	assert_int_equal(rd_open(&rd, run, &rd_need_summarize, &err), 0);
	assert_string_equal(rd.root, run);
	assert_non_null(rd.real);
	assert_int_equal(rd.have, have);
	rd_release(&rd);
	assert_null(rd.root);
	/* only env.json: a RUN to analyse, not one to summarize */
	env_only = xstrfmt("%s/env-only", root);
	touch(env_only, "env.json");
	assert_int_equal(rd_open(&rd, env_only, &rd_need_analyse, &err), 0);
	rd_release(&rd);
	assert_int_equal(rd_open(&rd, env_only, &rd_need_summarize, &err), -1);
	want = xstrfmt("'%s' is a directory but not a RUN directory (no log/, capture/, "
		       "cache/inductor/ or tko-run.json)", env_only);
	assert_string_equal(err.buf, want);
	free(want);
	buf_reset(&err);
	assert_int_equal(rd_meets(rd_probe(env_only), &rd_need_diff), 0);
	assert_int_equal(rd_meets(rd_probe(run), &rd_need_diff), 1);
	/* an empty folder is any directory, and no RUN to analyse */
	assert_int_equal(rd_open(&rd, root, &rd_need_any_dir, &err), 0);
	rd_release(&rd);
	assert_int_equal(rd_open(&rd, root, &rd_need_analyse, &err), -1);
	want = xstrfmt("'%s' is not a RUN directory (no log/, capture/, cache/inductor/ or cache/triton/)",
		       root);
	assert_string_equal(err.buf, want);
	free(want);
	buf_reset(&err);
	/* a file */
	file = xstrfmt("%s/env.json", env_only);
	assert_int_equal(rd_open(&rd, file, &rd_need_any_dir, &err), -1);
	want = xstrfmt("'%s' is not a RUN directory", file);
	assert_string_equal(err.buf, want);
	free(want);
	buf_reset(&err);
	assert_int_equal(rd_open(&rd, file, &rd_need_analyse, &err), -1);
	want = xstrfmt("'%s' is not a directory", file);
	assert_string_equal(err.buf, want);
	free(want);
	rm_tree(root);
	free(run);
	free(env_only);
	free(file);
	buf_release(&err);
}

static void test_kernel_dirs(void **state)
{
	char root[] = "/tmp/tko-unit-XXXXXX";
	struct strlist dirs = STRLIST_INIT, two = STRLIST_INIT;
	struct buf err = BUF_INIT;
	char *run, *other, *real, *got, *p;

	(void)state;
	assert_non_null(mkdtemp(root));
	run = xstrfmt("%s/run", root);
	other = xstrfmt("%s/other", root);
	assert_int_equal(rd_create(run, &err), 0);
	assert_int_equal(rd_create(other, &err), 0);
	touch(run, "capture/kernels/b-22222222/capture.json");
	touch(run, "capture/kernels/a-11111111/capture.json");
	touch(run, "capture/kernels/.tmp-c-33333333/capture.json");	/* still being written */
	touch(other, "capture/kernels/x-44444444/capture.json");
	p = xstrfmt("%s/capture/kernels/out-55555555", run);
	assert_int_equal(symlink("../../../other/capture/kernels/x-44444444", p), 0);
	free(p);
	assert_int_equal(rd_kernel_dirs(run, &dirs), 2);
	p = xstrfmt("%s/capture/kernels/a-11111111", run);
	assert_string_equal(dirs.v[0], p);
	free(p);
	got = rd_run_of_kernel_dirs(&dirs);
	real = realpath(run, NULL);
	assert_string_equal(got, real);
	free(got);
	/* a kernel folder of another RUN among them: no one RUN */
	strlist_push(&two, dirs.v[0]);
	p = xstrfmt("%s/capture/kernels/x-44444444", other);
	strlist_push(&two, p);
	assert_null(rd_run_of_kernel_dirs(&two));
	/* the link named as if in the RUN: it is really in the other one */
	two.nr = 0;
	free(p);
	p = xstrfmt("%s/capture/kernels/out-55555555", run);
	strlist_push(&two, p);
	assert_null(rd_run_of_kernel_dirs(&two));
	/* a folder that is not capture/kernels/<name> */
	two.nr = 0;
	strlist_push(&two, run);
	assert_null(rd_run_of_kernel_dirs(&two));
	strlist_release(&two);
	free(p);
	walk_release(&dirs);
	rm_tree(root);
	free(real);
	free(run);
	free(other);
	buf_release(&err);
}

/* rd_walk leaves out links to files outside; rd_mkdir never writes through a link. */
static void test_walk_and_mkdir(void **state)
{
	char root[] = "/tmp/tko-unit-XXXXXX";
	struct strlist files = STRLIST_INIT;
	struct buf err = BUF_INIT;
	char *run, *p, *q, *want, **made = NULL;
	size_t nmade = 0;

	(void)state;
	assert_non_null(mkdtemp(root));
	run = xstrfmt("%s/run", root);
	touch(run, "cache/triton/A/k.ptx");
	touch(root, "secret.ptx");
	p = xstrfmt("%s/cache/triton/A/leak.ptx", run);
	assert_int_equal(symlink("../../../../secret.ptx", p), 0);
	q = xstrfmt("%s/cache/triton/A/same.ptx", run);
	assert_int_equal(symlink("k.ptx", q), 0);	/* a link inside: kept */
	free(p);
	p = xstrfmt("%s/cache/triton", run);
	assert_int_equal(rd_walk(run, p, &files, &err), 0);
	assert_int_equal(files.nr, 2);
	assert_string_equal(path_base(files.v[0]), "k.ptx");
	assert_string_equal(files.v[1], q);
	walk_release(&files);
	free(p);
	/* the walked folder itself must be inside */
	assert_int_equal(rd_walk(run, root, &files, &err), -1);
	want = xstrfmt("'%s' leads out of '%s' (a symbolic link); not read", root, run);
	assert_string_equal(err.buf, want);
	free(want);
	buf_reset(&err);
	/* analysis/ made once; report/ as a link is refused */
	assert_int_equal(rd_mkdir(run, RD_ANALYSIS_DIR, &made, &nmade, &err), 0);
	assert_int_equal(nmade, 1);
	free(made[0]);
	free(made);
	p = xstrfmt("%s/report", run);
	assert_int_equal(symlink("..", p), 0);
	assert_int_equal(rd_mkdir(run, RD_REPORT_DIR, NULL, NULL, &err), -1);
	assert_non_null(strstr(err.buf, "it is a symbolic link"));
	free(p);
	free(q);
	rm_tree(root);
	free(run);
	buf_release(&err);
}

/* A .best_config's Triton cache: the RUN's cache/triton, else Inductor's triton/0. */
static void test_triton_cache_for(void **state)
{
	char root[] = "/tmp/tko-unit-XXXXXX";
	char *best, *got, *want, *dir;
	struct buf err = BUF_INIT;

	(void)state;
	assert_non_null(mkdtemp(root));
	best = xstrfmt("%s/cache/inductor/sk/0ebd.best_config", root);
	touch(root, "cache/inductor/sk/0ebd.best_config");
	assert_null(rd_triton_cache_for(best));
	dir = xstrfmt("%s/cache/inductor/triton/0", root);
	assert_int_equal(mkdir_p(dir, &err), 0);
	got = rd_triton_cache_for(best);
	want = xstrfmt("%s/cache/inductor/sk/../triton/0", root);
	assert_string_equal(got, want);
	free(got);
	free(want);
	free(dir);
	dir = xstrfmt("%s/cache/triton", root);
	assert_int_equal(mkdir_p(dir, &err), 0);
	got = rd_triton_cache_for(best);
	want = xstrfmt("%s/cache/inductor/sk/../../triton", root);
	assert_string_equal(got, want);
	free(got);
	free(want);
	free(dir);
	free(best);
	rm_tree(root);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tail2),
		cmocka_unit_test(test_resolve_and_root),
		cmocka_unit_test(test_paths_stay_inside_the_run),
		cmocka_unit_test(test_part_table),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_create_probe_open),
		cmocka_unit_test(test_kernel_dirs),
		cmocka_unit_test(test_walk_and_mkdir),
		cmocka_unit_test(test_triton_cache_for),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
