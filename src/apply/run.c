/*
 * One run of the command under the hook (run.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "apply/run.h"
#include "json/jsonio.h"
#include "model/step_report.h"
#include "py/pyenv.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/opts.h"
#include "util/spawn.h"
#include "banned.h"

struct sink {
	FILE *fp[2];		/* stdout.txt, stderr.txt */
	struct buf *out;	/* stdout kept for the step report */
};

static void to_files(void *data, int stream, const char *p, size_t n)
{
	struct sink *s = data;

	if (s->fp[stream == 2])
		fwrite(p, 1, n, s->fp[stream == 2]);
	if (stream == 1)
		buf_add(s->out, p, n);
}

int apply_step_report(const char *out, size_t len, const char *path, double *ms, json_t **losses)
{
	struct step_report r = { NAN, NULL };

	if (step_report_find(&r, out, len, path) < 0)
		return -1;
	*ms = r.ms_per_step;
	*losses = r.losses;
	return 0;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * A path for the command's environment, absolute: Inductor runs the C++
 * compiler in a temporary folder with TORCHINDUCTOR_CACHE_DIR's files as its
 * arguments, so `tko apply run -- CMD` failed on every C++ kernel, and a
 * command may change its own folder.
 */
static char *env_path(const char *path)
{
	char cwd[4096];

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	return path_join(cwd, path);
}

/* The environment entries (owned strings in `keep`). */
static void build_env(const struct apply_run *r, const char *pkg, struct strlist *keep)
{
	char *hook = xstrfmt("%s/tko/_hook", pkg);
	char *plan = env_path(r->plan), *dir = env_path(r->dir), *cache = env_path(r->cache);

	strlist_push(keep, pyenv_pythonpath_entry(hook, pkg));
	strlist_push(keep, xstrfmt("TKO_PYTHONPATH=%s", pkg));
	strlist_push(keep, xstrfmt("TKO_APPLY_PLAN=%s", plan));
	strlist_push(keep, xstrfmt("TKO_APPLY_DIR=%s", dir));
	strlist_push(keep, xstrfmt("TKO_APPLY_MODE=%s", r->mode));
	strlist_push(keep, xstrfmt("TORCHINDUCTOR_CACHE_DIR=%s", cache));
	strlist_push(keep, xstrfmt("TRITON_CACHE_DIR=%s/triton", cache));
	free(plan);
	free(dir);
	free(cache);
	strlist_push(keep, xstrdup("TORCHINDUCTOR_CUDAGRAPHS=0"));
	if (r->env)
		strlist_push(keep, xstrdup(r->env));
	if (r->step_fn)
		strlist_push(keep, xstrfmt("TKO_APPLY_STEP=%s", r->step_fn));
	if (r->kernel_window > 0) {
		/* after an explicit warm-up, else right after step 0 (compilation, autotuning) */
		strlist_push(keep, xstrfmt("TKO_APPLY_KERNEL_WINDOW=%ld", r->kernel_window));
		strlist_push(keep, xstrfmt("TKO_APPLY_KERNEL_WINDOW_START=%ld",
					   r->step_warmup > 1 ? r->step_warmup : 1L));
	}
	if (r->keep_off)
		strlist_push(keep, xstrfmt("TKO_APPLY_KEEP_OFF=%s", r->keep_off));
	free(hook);
}

static int open_sink(struct sink *s, const struct apply_run *r, struct buf *err)
{
	static const char *const names[2] = { "stdout.txt", "stderr.txt" };
	int i;

	for (i = 0; i < 2; i++) {
		char *p = path_join(r->dir, names[i]);

		s->fp[i] = fopen(p, "w");
		if (!s->fp[i])
			buf_addf(err, "cannot write '%s': %s", p, strerror(errno));
		free(p);
		if (!s->fp[i])
			return -1;
	}
	return 0;
}

/* The hook appends to apply.jsonl: an earlier tko apply's events (and kernel window) must not count. */
static int forget_events(const struct apply_run *r, struct buf *err)
{
	static const char *const names[] = { "apply.jsonl", "kernel_window.json" };
	int ret = 0;
	size_t i;

	for (i = 0; i < 2 && ret == 0; i++) {
		char *p = path_join(r->dir, names[i]);

		ret = unlink(p) == 0 || errno == ENOENT ? 0 : -1;
		if (ret < 0)
			buf_addf(err, "cannot remove '%s': %s", p, strerror(errno));
		free(p);
	}
	return ret;
}

/* The hook's steps when it timed one, else the command's step report. */
static void step_figures(struct apply_run *r, const struct buf *out)
{
	char *p = path_join(r->dir, "apply.jsonl"), *txt = path_join(r->dir, "stdout.txt");
	struct buf ignored = BUF_INIT;	/* no apply.jsonl: the hook did not load; stdout may say */

	if (apply_steps_read(&r->hook, p, r->step_warmup, &ignored) == 0 && isfinite(r->hook.ms_per_step)) {
		r->ms_per_step = r->hook.ms_per_step;
		r->losses = json_incref(r->hook.losses);
		r->step_source = "hook";
	} else if (apply_step_report(out->buf, out->len, txt, &r->ms_per_step, &r->losses) == 0) {
		r->step_source = "stdout";
	}
	buf_release(&ignored);
	free(p);
	free(txt);
}

int apply_run_one(struct apply_run *r, struct buf *err)
{
	static const char *const del[] = { "TKO_CAPTURE_DIR", "TKO_RUN_DIR", NULL };
	struct strlist env = STRLIST_INIT;
	struct child c = CHILD_INIT;
	struct buf out = BUF_INIT;
	struct sink s = { { NULL, NULL }, &out };
	char *pkg = NULL;
	double t0;
	size_t i;
	int ret = -1;

	r->ms_per_step = NAN;
	if (mkdir_p(r->dir, err) < 0 || mkdir_p(r->cache, err) < 0 ||
	    !(pkg = pyenv_package_dir(err)) || open_sink(&s, r, err) < 0 || forget_events(r, err) < 0)
		goto done;
	build_env(r, pkg, &env);
	strlist_push(&env, NULL);
	c.argv = r->cmd;
	c.env_add = env.v;
	c.env_del = del;
	c.capture_out = c.capture_err = 1;
	c.null_in = 1;
	c.own_group = 1;	/* a stop reaches the command's own children (compile workers) */
	c.timeout_s = r->timeout_s;
	c.on_output = to_files;
	c.on_output_data = &s;
	t0 = now_s();
	if (child_run(&c, err) < 0)
		goto done;
	r->wall_s = now_s() - t0;
	r->exit_status = c.exit_status;
	r->timed_out = c.timed_out;
	r->not_found = c.not_found;
	step_figures(r, &out);
	ret = 0;
done:
	for (i = 0; i < 2; i++)
		if (s.fp[i])
			fclose(s.fp[i]);
	for (i = 0; env.nr && i < env.nr - 1; i++)
		free((char *)env.v[i]);
	strlist_release(&env);
	child_release(&c);
	buf_release(&out);
	free(pkg);
	return ret;
}

void apply_run_release(struct apply_run *r)
{
	json_decref(r->losses);
	r->losses = NULL;
	apply_steps_release(&r->hook);
}
