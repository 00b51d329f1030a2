/* tko capture as a library (session.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "capture/session.h"
#include "capture/summary.h"
#include "exitcode.h"
#include "env/probe.h"
#include "json/jsonio.h"
#include "py/pyenv.h"
#include "rundir/layout.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/msg.h"
#include "util/plural.h"
#include "util/spawn.h"
#include "util/walk.h"
#include "version.h"
#include "banned.h"

/* Its messages read "tko capture: ..." whichever command runs it. */
#define STEP "capture"

static double now_unix(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

struct tee {
	int log_fd;		/* RUN/log/model.log */
	int log_failed;		/* a write to it failed (reported once, after) */
	size_t lines;		/* newlines tko wrote to it (the rest came from the hook) */
	const char *run;	/* for the progress line */
	const char *cmd;
	double start;
	size_t kernels;		/* kernel directories at the last progress line */
	int shown;		/* a progress line was printed */
};

static void write_all(int fd, const char *p, size_t n, int *failed)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (failed)
				*failed = 1;
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

static size_t count_lines(const char *p, size_t n)
{
	size_t lines = 0;
	const char *e = p + n;

	while ((p = memchr(p, '\n', (size_t)(e - p)))) {
		lines++;
		p++;
	}
	return lines;
}

static void tee_output(void *data, int stream, const char *p, size_t n)
{
	struct tee *t = data;

	msg_progress_clear();
	write_all(stream == 2 ? 2 : 1, p, n, NULL);
	write_all(t->log_fd, p, n, &t->log_failed);
	t->lines += count_lines(p, n);
}

/*
 * Every second: how long the command has run and how many kernels the hook
 * has captured. On a terminal the line is redrawn each time; in a log
 * (TKO_PROGRESS=1) only when the count changes.
 */
static void capture_tick(void *data)
{
	struct tee *t = data;
	struct strlist dirs = STRLIST_INIT;
	size_t n = rd_kernel_dirs(t->run, &dirs);

	walk_release(&dirs);
	if (!isatty(2) && t->shown && n == t->kernels)
		return;
	t->kernels = n;
	t->shown = 1;
	msg_progress_as(STEP, "running %s: %.0f s, %zu kernel%s captured", t->cmd,
			now_unix() - t->start, n, plural(n));
}

/*
 * While the command runs, Ctrl-C and a closed terminal reach it; tko waits
 * and still writes tko-run.json. A handler (not SIG_IGN, which exec would
 * pass on) leaves the command's own signal handling untouched.
 */
static void note_signal(int sig)
{
	(void)sig;
}

static void hold_signals(int hold, struct sigaction *saved)
{
	static const int sigs[] = { SIGINT, SIGQUIT, SIGHUP, SIGPIPE };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = note_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (hold)
			sigaction(sigs[i], &sa, &saved[i]);
		else
			sigaction(sigs[i], &saved[i], NULL);
	}
}

struct run_result {
	double start, end;	/* Unix times */
	int status;		/* the command's exit status (128+signal) */
	int not_found;		/* it could not be started */
	char *log_error;	/* why the log is incomplete, or NULL */
	long long hidden;	/* log lines the hook wrote (not shown), or -1 */
};

/* Newlines in the file at `path`, or -1 when it cannot be read. */
static long long file_lines(const char *path)
{
	char tmp[65536];
	long long lines = 0;
	size_t n;
	FILE *fp = fopen(path, "rb");

	if (!fp)
		return -1;
	while ((n = fread(tmp, 1, sizeof(tmp), fp)) > 0)
		lines += (long long)count_lines(tmp, n);
	fclose(fp);
	return lines;
}

/* The lines the hook routed to the log only: all of its lines but those tko wrote. */
static long long hidden_lines(const struct capture_env *ce, const char *log, size_t shown)
{
	long long n;

	if (!manifest_pairs_get(ce->set, ce->nset, "TKO_LOG_ROUTE"))
		return -1;
	n = file_lines(log);
	if (n < 0)
		return -1;
	return n > (long long)shown ? n - (long long)shown : 0;
}

static int run_command(const char *const *cmd, const char *run, const struct capture_env *ce,
		       struct run_result *r, struct buf *err)
{
	char *log = rd_path_in(run, RD_MODEL_LOG);
	struct tee t = { -1, 0, 0, run, path_base(cmd[0]), 0, 0, 0 };
	struct child c = CHILD_INIT;
	struct sigaction saved[4];
	int ret;

	/* O_APPEND: the hook appends the logging it routes here (logroute.py). */
	t.log_fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	if (t.log_fd < 0) {
		buf_addf(err, "cannot create '%s': %s", log, strerror(errno));
		free(log);
		return -1;
	}
	c.argv = cmd;
	c.env_add = ce->add.v;
	c.capture_out = c.capture_err = 1;
	c.on_output = tee_output;
	c.on_output_data = &t;
	c.on_tick = capture_tick;
	c.tick_s = 1;
	hold_signals(1, saved);
	r->start = t.start = now_unix();
	ret = child_run(&c, err);
	r->end = now_unix();
	hold_signals(0, saved);
	msg_progress_done();
	r->hidden = hidden_lines(ce, log, t.lines);
	r->status = c.exit_status;
	r->not_found = c.not_found;
	if (t.log_failed)
		r->log_error = xstrfmt("writing '%s' failed: the log is incomplete", log);
	close(t.log_fd);
	child_release(&c);
	free(log);
	return ret;
}

/* A version the probe reported ({"version": ...}, passed through by model/env), or NULL. */
static char *version_of(const json_t *probed)
{
	const char *v = json_str(probed, "version");

	return v ? xstrdup(v) : NULL;
}

static char *iso_time(double t)
{
	char s[40];

	rd_iso_time((time_t)t, s, sizeof(s));
	return xstrdup(s);
}

static void copy_pairs(struct rf_pair **to, size_t *nto, const struct rf_pair *v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		manifest_pairs_add(to, nto, v[i].key, v[i].value);
}

/* The command's words; one that is not UTF-8 is left out, as jansson's array left it out. */
static void set_argv(struct run_manifest *m, const char *const *cmd, int ncmd)
{
	int i;

	m->argv = xcalloc((size_t)ncmd + 1, sizeof(*m->argv));
	for (i = 0; i < ncmd; i++)
		if ((m->argv[m->nargv] = manifest_text(cmd[i])))
			m->nargv++;
}

/* tko-run.json from what the command did. */
static void fill_manifest(struct capture_session *s, const struct capture_opts *o,
			  const char *const *cmd, int ncmd, const struct run_result *r)
{
	struct run_manifest *m = &s->m;
	char cwd[4096];

	m->tko_version = xstrdup(TKO_VERSION);
	set_argv(m, cmd, ncmd);
	m->cwd = manifest_text(getcwd(cwd, sizeof(cwd)));
	m->run_dir = manifest_text(s->run);
	m->start_time = iso_time(r->start);
	m->start_unix = r->start;
	m->end_time = iso_time(r->end);
	m->end_unix = r->end;
	m->duration_s = r->end - r->start;
	m->exit_status = r->status;
	m->signal = r->status > 128 && !r->not_found ? r->status - 128 : RF_I64_NONE;
	m->command_found = !r->not_found;
	m->kernels_regex = manifest_text(o->kernels);
	m->log = xstrdup(rd_parts[RD_MODEL_LOG].rel);
	m->log_error = manifest_text(r->log_error);
	m->log_lines_not_shown = r->hidden >= 0 ? r->hidden : RF_I64_NONE;
	copy_pairs(&m->env_set, &m->nenv_set, s->ce.set, s->ce.nset);
	copy_pairs(&m->env_kept, &m->nenv_kept, s->ce.kept, s->ce.nkept);
	m->versions.python = version_of(s->env.python);
	m->versions.torch = version_of(s->env.torch);
	m->versions.triton = version_of(s->env.triton);
	capture_summary_read(s->run, &m->capture);
	s->ran = 1;
}

void capture_session_init(struct capture_session *s)
{
	memset(s, 0, sizeof(*s));
	s->ce = (struct capture_env)CAPTURE_ENV_INIT;
	manifest_init(&s->m);
	env_doc_init(&s->env);
}

/* The RUN: made (refused when it is there and not empty), then its real path. */
static int make_run(struct capture_session *s, const struct capture_opts *o, struct buf *err)
{
	char *name = o->out ? xstrdup(o->out) : rd_make_default(time(NULL), err);
	int ret = 0;

	if (!name || rd_create(name, err) < 0 || !(s->run = realpath(name, NULL)))
		ret = -1;
	free(name);
	return ret;
}

int capture_prepare(struct capture_session *s, const struct capture_opts *o)
{
	struct buf err = BUF_INIT;
	struct env_opts eo = ENV_OPTS_INIT;
	char *env_path;

	if (make_run(s, o, &err) < 0) {
		msg_error_as(STEP, "cannot create the RUN directory: %s",
			     err.len ? err.buf : strerror(errno));
		buf_release(&err);
		return EXIT_FAIL;
	}
	if (!(s->pkg = pyenv_package_dir(&err))) {
		msg_error_as(STEP, "cannot capture: %s", err.buf);
		buf_release(&err);
		return EXIT_TOOL;
	}
	eo.measure = o->measure;
	env_probe_doc(&eo, &s->env);
	env_path = rd_path_in(s->run, RD_ENV);
	if (env_doc_save(&s->env, env_path, &err) < 0)
		msg_warn_as(STEP, "%s", err.buf);
	free(env_path);
	buf_release(&err);
	capture_env_build(&s->ce, s->run, s->pkg, o->kernels, &o->profile, msg_settings.verbose);
	return EXIT_OK;
}

/* tko-run.json in the RUN, then the --json copy: one error line when either fails. */
static void save_manifest(const struct capture_session *s, const struct capture_opts *o)
{
	struct buf err = BUF_INIT;
	char *path = rd_path_in(s->run, RD_MANIFEST);

	if (manifest_save(&s->m, path, &err) < 0 ||
	    (o->json && manifest_save(&s->m, o->json, &err) < 0))
		msg_error_as(STEP, "%s", err.buf);
	free(path);
	buf_release(&err);
}

int capture_run(struct capture_session *s, const struct capture_opts *o,
		const char *const *cmd, int ncmd)
{
	struct run_result r = { 0, 0, 0, 0, NULL, -1 };
	struct buf err = BUF_INIT;
	const char **av = xcalloc((size_t)ncmd + 1, sizeof(*av));
	int ret = 0;

	/* NULL-terminated for exec, whatever follows cmd[ncmd - 1] in the caller's array */
	memcpy(av, cmd, (size_t)ncmd * sizeof(*av));
	if (run_command(av, s->run, &s->ce, &r, &err) < 0) {
		msg_error_as(STEP, "%s", err.buf);
		ret = -1;
		goto out;
	}
	if (r.not_found)
		msg_error_as(STEP, "%s", err.buf);
	if (r.log_error)
		msg_warn_as(STEP, "%s", r.log_error);
	fill_manifest(s, o, cmd, ncmd, &r);
	save_manifest(s, o);
out:
	free(av);
	free(r.log_error);
	buf_release(&err);
	return ret;
}

int capture_session_run(struct capture_session *s, const struct capture_opts *o,
			const char *const *cmd, int ncmd)
{
	int ret = capture_prepare(s, o);

	if (ret != EXIT_OK)
		return ret;
	if (capture_run(s, o, cmd, ncmd) < 0)
		return EXIT_FAIL;
	return (int)s->m.exit_status;
}

void capture_session_release(struct capture_session *s)
{
	capture_env_release(&s->ce);
	manifest_release(&s->m);
	env_doc_release(&s->env);
	free(s->run);
	free(s->pkg);
	s->run = s->pkg = NULL;
	s->ran = 0;
}
