/*
 * tko tune over several GPUs (dispatch.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exitcode.h"
#include "json/jsonio.h"
#include "json/jsonw.h"
#include "tune/cost.h"
#include "model/tune.h"
#include "tune/dispatch.h"
#include "util/cleanup.h"
#include "util/file.h"
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

/* One GPU's tko tune, serving one kernel at a time. */
struct slot {
	pid_t pid;		/* the tko tune, or 0 */
	int fd;			/* our end of its stdin/stdout socket */
	struct buf in;		/* what it wrote that is not a whole line yet */
	long job;		/* the kernel it tunes, or -1 */
};

struct run {
	const struct tune_dispatch *d;
	char *tmp;		/* our folder of the kernels' outputs */
	char *self;		/* this binary */
	struct job *job;
	size_t *order;		/* job indices, longest first */
	struct slot *slot;	/* per GPU */
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

/* self tune OPTIONS: the command line less the kernels, --gpus, --json and --md */
static const char **child_argv(const struct run *r)
{
	const struct tune_dispatch *d = r->d;
	const char **argv = xcalloc(d->nargs + 3, sizeof(*argv));
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
	return argv;
}

/* The environment with `var` set to `id`, and TUNE_SERVE_ENV. */
static char **child_env(const char *var, const char *id, char **own)
{
	size_t n = 0, i, j = 0, len = strlen(var);
	char **env;

	while (environ[n])
		n++;
	env = xcalloc(n + 3, sizeof(*env));
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], var, len) || environ[i][len] != '=')
			env[j++] = environ[i];
	env[j++] = *own = xstrfmt("%s=%s", var, id);
	env[j++] = TUNE_SERVE_ENV "=1";
	env[j] = NULL;
	return env;
}

/* Starts slot s's tko tune; its stderr is ours. 0 or -1. */
static int start_worker(struct run *r, size_t s)
{
	struct slot *sl = &r->slot[s];
	const char **argv = child_argv(r);
	char *pin, **env = child_env(r->d->gpus->var, r->d->gpus->id[s], &pin);
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		msg_error("cannot create a socket for GPU %s's tko tune: %s", r->d->gpus->id[s],
			  strerror(errno));
		sl->pid = -1;
	} else {
		fflush(NULL);
		sl->pid = cleanup_fork(1);
		if (sl->pid == 0) {
			if (dup2(sv[1], 0) < 0 || dup2(sv[1], 1) < 0)
				_exit(127);
			execve(r->self, (char *const *)argv, env);
			_exit(127);
		}
		close(sv[1]);
		sl->fd = sv[0];
		if (sl->pid < 0) {
			msg_error("cannot start tko tune for GPU %s: %s", r->d->gpus->id[s],
				  strerror(errno));
			close(sl->fd);
		}
	}
	buf_reset(&sl->in);
	free(pin);
	free(env);
	free(argv);
	if (sl->pid > 0)
		return 0;
	sl->pid = 0;
	return -1;
}

/* Sends kernel i to slot s's tko tune (started if needed). */
static void send_job(struct run *r, size_t s, size_t i)
{
	struct slot *sl = &r->slot[s];
	char *json = part(r, i, "json"), *md = part(r, i, "md"), *out = part(r, i, "out"), *text;
	json_t *req = json_pack("{s:s, s:s, s:s?, s:s}", "input", r->d->inputs[i], "json", json,
				"md", r->d->md ? md : NULL, "out", out);
	struct buf line = BUF_INIT;
	size_t off = 0;

	text = jsonw_compact_string(req);
	buf_addf(&line, "%s\n", text);
	free(text);
	r->job[i].pending = 0;
	r->job[i].tries++;
	sl->job = (long)i;
	while (off < line.len) {
		ssize_t k = send(sl->fd, line.buf + off, line.len - off, MSG_NOSIGNAL);

		if (k <= 0)
			break;	/* it died: the read of its end says so */
		off += (size_t)k;
	}
	buf_release(&line);
	json_decref(req);
	free(json);
	free(md);
	free(out);
}

/* The next job for slot s: longest first, not back on the GPU it died on. */
static long next_job(const struct run *r, size_t s)
{
	size_t k;

	for (k = 0; k < r->d->ninputs; k++) {
		const struct job *j = &r->job[r->order[k]];

		if (j->pending && (j->avoid != (long)s || r->d->gpus->n == 1))
			return (long)r->order[k];
	}
	return -1;
}

static void fill(struct run *r)
{
	size_t s;

	for (s = 0; s < r->d->gpus->n && !r->stop; s++) {
		long i;

		if (r->slot[s].job >= 0 || (i = next_job(r, s)) < 0)
			continue;
		if (!r->slot[s].pid && start_worker(r, s) < 0) {
			r->job[i].pending = 0;
			r->job[i].status = EXIT_CHILD;
			continue;
		}
		send_job(r, s, (size_t)i);
	}
}

static size_t busy(const struct run *r)
{
	size_t s, n = 0;

	for (s = 0; s < r->d->gpus->n; s++)
		n += r->slot[s].job >= 0;
	return n;
}

/* Kernel i is over with exit status `code`. */
static void done(struct run *r, size_t i, int code)
{
	char *json = part(r, i, "json");

	r->job[i].status = code;
	/* as one tko tune stops at a missing tool or target */
	if (code == EXIT_TOOL && !is_file(json))
		r->stop = 1;
	free(json);
}

/* Slot s's tko tune ended (EOF): reap it; its kernel is lost, or tried again. */
static void died(struct run *r, size_t s)
{
	struct slot *sl = &r->slot[s];
	size_t i = (size_t)sl->job;
	struct job *j = &r->job[i];
	int wstatus = 0, code;

	close(sl->fd);
	while (waitpid(sl->pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	cleanup_drop_child(sl->pid);
	code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
	sl->pid = 0;
	sl->job = -1;
	if (j->tries < 2 && r->d->gpus->n > 1) {
		msg_warn("the tko tune of '%s' on GPU %s died (status %d): trying it once more on another GPU",
			 r->d->inputs[i], r->d->gpus->id[s], code);
		j->pending = 1;
		j->avoid = (long)s;
		return;
	}
	msg_error("the tko tune of '%s' died (status %d) on GPU %s%s", r->d->inputs[i], code,
		  r->d->gpus->id[s], j->tries > 1 ? ", its second try" : "");
	done(r, i, EXIT_CHILD);
}

/* Reads what slot s wrote: a reply line ends its kernel. */
static void readable(struct run *r, size_t s)
{
	struct slot *sl = &r->slot[s];
	char chunk[4096], *nl;
	ssize_t k = read(sl->fd, chunk, sizeof(chunk));

	if (k < 0 && errno == EINTR)
		return;
	if (k <= 0) {
		died(r, s);
		return;
	}
	buf_add(&sl->in, chunk, (size_t)k);
	nl = memchr(sl->in.buf, '\n', sl->in.len);
	if (nl) {
		json_t *rep = json_loadb(sl->in.buf, (size_t)(nl - sl->in.buf), 0, NULL);
		long long code = json_integer_value(json_object_get(rep, "exit"));

		json_decref(rep);
		buf_reset(&sl->in);
		done(r, (size_t)sl->job, rep ? (int)code : EXIT_CHILD);
		sl->job = -1;
	}
}

static void wait_some(struct run *r)
{
	size_t s, n = 0, nslots = r->d->gpus->n;
	struct pollfd *p = xcalloc(nslots, sizeof(*p));
	size_t *of = xcalloc(nslots, sizeof(*of));

	for (s = 0; s < nslots; s++)
		if (r->slot[s].job >= 0) {
			p[n].fd = r->slot[s].fd;
			p[n].events = POLLIN;
			of[n++] = s;
		}
	if (poll(p, n, -1) > 0)
		for (s = 0; s < n; s++)
			if (p[s].revents)
				readable(r, of[s]);
	free(p);
	free(of);
}

/* EOF on their stdin ends the tko tunes; waits for them. */
static void stop_workers(struct run *r)
{
	size_t s;

	for (s = 0; s < r->d->gpus->n; s++) {
		struct slot *sl = &r->slot[s];

		if (!sl->pid)
			continue;
		close(sl->fd);
		while (waitpid(sl->pid, NULL, 0) < 0 && errno == EINTR)
			;
		cleanup_drop_child(sl->pid);
		sl->pid = 0;
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
	struct tune_cost_opts co = { r->d->budget_s, r->d->max_variants, r->d->compile_only };
	size_t i;

	for (i = 0; i < r->d->ninputs; i++) {
		const char *from;

		r->job[i] = (struct job){ tune_cost_predict(r->d->inputs[i], &co, &from), 0, -1, 1, -1 };
		r->order[i] = i;
	}
	qsort_r(r->order, r->d->ninputs, sizeof(*r->order), by_cost, r->job);
}

/* Moves tko tune i's kernels into doc, whose mode is the first document's (*have: one was read). */
static int merge_json(const struct run *r, size_t i, struct tune_doc *doc, int *have,
		      struct buf *err)
{
	char *path = part(r, i, "json");
	struct tune_doc one;
	size_t n;
	int ret = 0;

	rf_init(&tune_doc_desc, &one);
	if (is_file(path))
		ret = tune_doc_load(path, &one, err);
	if (is_file(path) && ret == 0) {
		if (!*have) {
			doc->mode = one.mode;
			*have = 1;
		}
		for (n = 0; n < one.nkernels; n++)
			tune_doc_take_kernel(doc, &one.kernels[n]);
	}
	rf_release(&tune_doc_desc, &one);
	free(path);
	return ret;
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
	struct tune_doc doc;
	size_t i;
	int ret = EXIT_OK, have = 0;

	rf_init(&tune_doc_desc, &doc);
	for (i = 0; i < d->ninputs; i++) {
		if (r->job[i].status > 0)
			ret = r->job[i].status;
		if (merge_json(r, i, &doc, &have, &err) < 0)
			break;
		append_file(r, i, "out", 0, &out);
		if (d->md)
			append_file(r, i, "md", strlen(MD_HEAD), &md);
	}
	if (!d->json || strcmp(d->json, "-"))
		fwrite(out.buf, 1, out.len, stdout);
	/* As one tko tune: when no kernel got as far as its sweep, nothing is written. */
	if (!err.len && have && d->json && tune_doc_save(d->json, &doc, &err) == 0 && d->md)
		write_md(d->md, &md, &err);
	else if (!err.len && have && d->md)
		write_md(d->md, &md, &err);
	if (err.len) {
		msg_error("%s", err.buf);
		ret = EXIT_FAIL;
	}
	rf_release(&tune_doc_desc, &doc);
	buf_release(&err);
	buf_release(&md);
	buf_release(&out);
	return ret;
}

static void remove_tmp(const struct run *r)
{
	static const char *const ext[] = { "json", "md", "out" };
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
	struct run r = { d, NULL, NULL, NULL, NULL, NULL, 0 };
	size_t s;
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
	r.slot = xcalloc(d->gpus->n, sizeof(*r.slot));
	for (s = 0; s < d->gpus->n; s++)
		r.slot[s] = (struct slot){ 0, -1, BUF_INIT, -1 };
	plan(&r);
	for (fill(&r); busy(&r); fill(&r))
		wait_some(&r);
	stop_workers(&r);
	ret = merge(&r);
	remove_tmp(&r);
	for (s = 0; s < d->gpus->n; s++)
		buf_release(&r.slot[s].in);
	free(r.tmp);
	free(r.self);
	free(r.job);
	free(r.order);
	free(r.slot);
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
