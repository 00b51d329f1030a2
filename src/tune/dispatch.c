/*
 * tko tune over several GPUs (dispatch.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cluster/cost.h"
#include "cmd/exitcode.h"
#include "tune/dispatch.h"
#include "util/cleanup.h"
#include "util/file.h"
#include "util/jsonio.h"
#include "util/mem.h"
#include "util/msg.h"
#include "banned.h"

extern char **environ;

/* One kernel of the run. */
struct job {
	double cost;		/* predicted seconds */
	int tries;		/* times started */
	long avoid;		/* the GPU slot it died on, or -1 */
	int pending;		/* waiting for a GPU */
	int status;		/* its exit status once final, else -1 */
};

struct run {
	const struct tune_dispatch *d;
	char *tmp;		/* our folder of the tko tunes' outputs */
	char *self;		/* this binary */
	struct job *job;
	size_t *order;		/* job indices, longest first */
	pid_t *pid;		/* per GPU slot: the tko tune running there, or 0 */
	size_t *on;		/* per GPU slot: its job */
	size_t running;
	int stop;		/* a tool is missing: start nothing more */
};

static char *part(const struct run *r, size_t i, const char *ext)
{
	return xstrfmt("%s/%zu.%s", r->tmp, i, ext);
}

static int option_is(const char *arg, const char *name, int *takes_next)
{
	size_t n = strlen(name);

	if (strncmp(arg, name, n))
		return 0;
	*takes_next = arg[n] == '\0';
	return arg[n] == '\0' || arg[n] == '=';
}

static int is_input(const struct tune_dispatch *d, const char *arg)
{
	size_t i;

	for (i = 0; i < d->ninputs; i++)
		if (arg == d->inputs[i])
			return 1;
	return 0;
}

/* self tune OPTIONS --json TMP/i.json [--md TMP/i.md] -- INPUT */
static const char **child_argv(const struct run *r, size_t i, char **json, char **md)
{
	const struct tune_dispatch *d = r->d;
	const char **argv = xcalloc(d->nargs + 9, sizeof(*argv));
	size_t a, n = 0;

	argv[n++] = r->self;
	argv[n++] = "tune";
	for (a = 0; a < d->nargs; a++) {
		int next = 0;

		if (is_input(d, d->args[a]) || !strcmp(d->args[a], "--"))
			continue;
		if (option_is(d->args[a], "--gpus", &next) || option_is(d->args[a], "--json", &next) ||
		    option_is(d->args[a], "--md", &next)) {
			a += next;
			continue;
		}
		argv[n++] = d->args[a];
	}
	argv[n++] = "--json";
	argv[n++] = *json = part(r, i, "json");
	*md = NULL;
	if (d->md) {
		argv[n++] = "--md";
		argv[n++] = *md = part(r, i, "md");
	}
	argv[n++] = "--";
	argv[n++] = d->inputs[i];
	return argv;
}

/* The environment with `var` set to `id`. */
static char **child_env(const char *var, const char *id, char **own)
{
	size_t n = 0, i, j = 0, len = strlen(var);
	char **env;

	while (environ[n])
		n++;
	env = xcalloc(n + 2, sizeof(*env));
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], var, len) || environ[i][len] != '=')
			env[j++] = environ[i];
	env[j++] = *own = xstrfmt("%s=%s", var, id);
	env[j] = NULL;
	return env;
}

static void start(struct run *r, size_t slot, size_t i)
{
	char *json, *md, *out = part(r, i, "out"), *err = part(r, i, "err"), *pin;
	const char **argv = child_argv(r, i, &json, &md);
	char **env = child_env(r->d->gpus->var, r->d->gpus->id[slot], &pin);
	pid_t pid;

	unlink(json);
	pid = cleanup_fork(1);
	if (pid == 0) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(127);
		execve(r->self, (char *const *)argv, env);
		_exit(127);
	}
	if (pid < 0) {
		msg_error("cannot start tko tune for '%s': %s", r->d->inputs[i], strerror(errno));
		r->job[i].status = EXIT_CHILD;
	} else {
		r->pid[slot] = pid;
		r->on[slot] = i;
		r->running++;
		r->job[i].tries++;
	}
	r->job[i].pending = 0;
	free(json);
	free(md);
	free(out);
	free(err);
	free(pin);
	free(env);
	free(argv);
}

/* The next job for a free slot: longest first, not back on the GPU it died on. */
static long next_job(const struct run *r, size_t slot)
{
	size_t k;

	for (k = 0; k < r->d->ninputs; k++) {
		const struct job *j = &r->job[r->order[k]];

		if (j->pending && (j->avoid != (long)slot || r->d->gpus->n == 1))
			return (long)r->order[k];
	}
	return -1;
}

static void fill(struct run *r)
{
	size_t s;

	for (s = 0; s < r->d->gpus->n && !r->stop; s++) {
		long i;

		if (r->pid[s] || (i = next_job(r, s)) < 0)
			continue;
		start(r, s, (size_t)i);
	}
}

/* Copies the tko tune's stderr to ours. */
static void relay_err(const struct run *r, size_t i)
{
	char *path = part(r, i, "err");
	struct buf text = BUF_INIT, err = BUF_INIT;

	if (file_read(path, 0, &text, &err) == 0 && text.len)
		fputs(text.buf, stderr);
	buf_release(&text);
	buf_release(&err);
	free(path);
}

static void finished(struct run *r, size_t slot, int wstatus)
{
	size_t i = r->on[slot];
	struct job *j = &r->job[i];
	int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
	char *json = part(r, i, "json");
	int died = code >= 128 && !is_file(json);

	r->pid[slot] = 0;
	r->running--;
	relay_err(r, i);
	if (died && j->tries < 2 && r->d->gpus->n > 1) {
		msg_warn("the tko tune of '%s' on GPU %s died (status %d): trying it once more on another GPU",
			 r->d->inputs[i], r->d->gpus->id[slot], code);
		j->pending = 1;
		j->avoid = (long)slot;
	} else {
		if (died)
			msg_error("the tko tune of '%s' died (status %d) on GPU %s%s", r->d->inputs[i],
				  code, r->d->gpus->id[slot], j->tries > 1 ? ", its second try" : "");
		j->status = died ? EXIT_CHILD : code;
		/* as one tko tune stops at a missing tool or target */
		if (code == EXIT_TOOL && !is_file(json))
			r->stop = 1;
	}
	free(json);
}

static void wait_one(struct run *r)
{
	int wstatus;
	pid_t pid = waitpid(-1, &wstatus, 0);
	size_t s;

	if (pid < 0) {
		if (errno == ECHILD)
			r->running = 0;
		return;
	}
	for (s = 0; s < r->d->gpus->n; s++)
		if (r->pid[s] == pid) {
			cleanup_drop_child(pid);
			finished(r, s, wstatus);
			return;
		}
}

static int by_cost(const void *a, const void *b, void *arg)
{
	const struct job *job = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (job[x].cost != job[y].cost)
		return job[x].cost < job[y].cost ? 1 : -1;
	return x < y ? -1 : x > y;
}

static void plan(struct run *r)
{
	struct cluster_cost_opts co = { r->d->budget_s, r->d->max_variants, r->d->compile_only };
	size_t i;

	for (i = 0; i < r->d->ninputs; i++) {
		const char *from;

		r->job[i] = (struct job){ cluster_cost_predict(r->d->inputs[i], &co, &from), 0, -1, 1, -1 };
		r->order[i] = i;
	}
	qsort_r(r->order, r->d->ninputs, sizeof(*r->order), by_cost, r->job);
}

/* Appends tko tune i's kernels to doc (made from the first document). */
static int merge_json(const struct run *r, size_t i, json_t **doc, struct buf *err)
{
	char *path = part(r, i, "json");
	json_t *one = is_file(path) ? json_load_path(path, err) : NULL, *k;
	size_t n;

	if (one && !*doc) {
		*doc = json_deep_copy(one);
		json_array_clear(json_object_get(*doc, "kernels"));
	}
	if (one)
		json_array_foreach(json_object_get(one, "kernels"), n, k)
			json_array_append(json_object_get(*doc, "kernels"), k);
	json_decref(one);
	free(path);
	return err->len ? -1 : 0;
}

/* tko tune i's file, less the first `skip` bytes, appended to out. */
static void append_file(const struct run *r, size_t i, const char *ext, size_t skip,
			struct buf *out)
{
	char *path = part(r, i, ext);
	struct buf text = BUF_INIT, err = BUF_INIT;

	if (is_file(path) && file_read(path, 0, &text, &err) == 0 && text.len > skip)
		buf_add(out, text.buf + skip, text.len - skip);
	buf_release(&text);
	buf_release(&err);
	free(path);
}

#define MD_HEAD "# tko tune\n\n"

static int write_md(const char *path, const struct buf *body, struct buf *err)
{
	struct atomic_file af = ATOMIC_FILE_INIT;

	if (atomic_open(&af, path, err) < 0)
		return -1;
	fputs(MD_HEAD, af.fp);
	fwrite(body->buf, 1, body->len, af.fp);
	return atomic_commit(&af, err);
}

/* The merged outputs, in the order given; the run's exit status. */
static int merge(const struct run *r)
{
	const struct tune_dispatch *d = r->d;
	struct buf err = BUF_INIT, md = BUF_INIT, out = BUF_INIT;
	json_t *doc = NULL;
	size_t i;
	int ret = EXIT_OK;

	for (i = 0; i < d->ninputs; i++) {
		if (r->job[i].status > 0)
			ret = r->job[i].status;
		if (merge_json(r, i, &doc, &err) < 0)
			break;
		append_file(r, i, "out", 0, &out);
		if (d->md)
			append_file(r, i, "md", strlen(MD_HEAD), &md);
	}
	if (!d->json || strcmp(d->json, "-"))
		fwrite(out.buf, 1, out.len, stdout);
	/* As one tko tune: when no kernel got as far as its sweep, nothing is written. */
	if (!err.len && doc && d->json && json_write_path(doc, d->json, &err) == 0 && d->md)
		write_md(d->md, &md, &err);
	else if (!err.len && doc && d->md)
		write_md(d->md, &md, &err);
	if (err.len) {
		msg_error("%s", err.buf);
		ret = EXIT_FAIL;
	}
	json_decref(doc);
	buf_release(&err);
	buf_release(&md);
	buf_release(&out);
	return ret;
}

static void remove_tmp(const struct run *r)
{
	static const char *const ext[] = { "json", "md", "out", "err" };
	size_t i, e;

	for (i = 0; i < r->d->ninputs; i++)
		for (e = 0; e < sizeof(ext) / sizeof(ext[0]); e++) {
			char *p = part(r, i, ext[e]);

			unlink(p);
			free(p);
		}
	rmdir(r->tmp);
	cleanup_drop_path(r->tmp);
}

static char *self_exe(void)
{
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	if (n <= 0)
		return NULL;
	path[n] = '\0';
	return xstrdup(path);
}

int tune_dispatch_run(const struct tune_dispatch *d)
{
	const char *tmpdir = getenv("TMPDIR");
	struct run r = { d, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0 };
	int ret;

	r.tmp = xstrfmt("%s/tko-gpus.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	r.self = self_exe();
	if (!r.self || !cleanup_mkdtemp(r.tmp)) {
		msg_error("cannot make a folder in '%s' for the GPUs' results: %s",
			  tmpdir && *tmpdir ? tmpdir : "/tmp", strerror(errno));
		free(r.tmp);
		free(r.self);
		return EXIT_FAIL;
	}
	r.job = xcalloc(d->ninputs, sizeof(*r.job));
	r.order = xcalloc(d->ninputs, sizeof(*r.order));
	r.pid = xcalloc(d->gpus->n, sizeof(*r.pid));
	r.on = xcalloc(d->gpus->n, sizeof(*r.on));
	plan(&r);
	for (fill(&r); r.running; fill(&r))
		wait_one(&r);
	ret = merge(&r);
	remove_tmp(&r);
	free(r.tmp);
	free(r.self);
	free(r.job);
	free(r.order);
	free(r.pid);
	free(r.on);
	return ret;
}

int tune_dispatch_maybe(const char *spec, struct tune_dispatch *d, int *ret)
{
	struct tune_gpus_env env;
	struct tune_gpus g = TUNE_GPUS_INIT;
	struct buf err = BUF_INIT;
	int done = 0;

	tune_gpus_env_read(&env);
	if (tune_gpus_select(spec, &env, &g, &err) < 0) {
		msg_error("%s", err.buf);
		*ret = EXIT_USAGE;
		done = 1;
	} else if (g.n > 1 && d->ninputs > 1 && !d->compile_only) {
		d->gpus = &g;
		*ret = tune_dispatch_run(d);
		done = 1;
	} else if (g.n && spec) {
		setenv(g.var, g.id[0], 1);
	}
	tune_gpus_release(&g);
	buf_release(&err);
	return done;
}
