/*
 * tko capture [--out RUN] [--kernels REGEX] [--measure] [--json FILE]
 *             [--profile-steps N] [--profile-seconds S] [--no-profile] -- CMD ARGS...
 *
 * Runs the user's unchanged command (from argv, never through a shell)
 * with TorchInductor's and Triton's caches, logs and tko's Python capture
 * hook pointed into a fresh RUN directory (docs/design.md). The hook is the
 * sitecustomize in python/tko/_hook, put first on PYTHONPATH, so the
 * command needs no import. The command's stdout and stderr are shown as
 * they come and also written to RUN/log/model.log.
 *
 * The verbose logging tko switches on (TORCH_LOGS=+inductor, some 13,000
 * lines for a training step, and TRITON_PRINT_AUTOTUNING) is what tko
 * summarize reads, not what the user wants on the terminal: the hook
 * appends it to RUN/log/model.log only (python/tko/logroute.py; torch's
 * warnings still show). `tko -v capture` leaves it on the terminal too.
 * While the command runs, a progress line counts the kernels captured.
 *
 * Writes RUN/env.json before the command and RUN/tko-run.json after it.
 * Exits with the command's own exit status (128+N when a signal N ended
 * it, 127 when it could not be started); tko's own failures before the
 * command runs use the statuses of docs/exit-codes.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/exitcode.h"
#include "live/envprobe.h"
#include "py/pyenv.h"
#include "live/rundir.h"
#include "util/file.h"
#include "util/jsonio.h"
#include "util/mem.h"
#include "util/msg.h"
#include "util/opts.h"
#include "util/spawn.h"
#include "util/table.h"
#include "util/walk.h"
#include "version.h"
#include "banned.h"

static const char *const usage[] = {
	"tko capture [--out RUN] [--kernels REGEX] [--measure] [--json FILE] -- CMD [ARGS...]",
	"Runs CMD with capture on and fills the RUN directory (default tko-run-<time>):",
	"RUN/log/model.log, RUN/capture/ (events.jsonl, autotune.log, kernels/), RUN/cache/",
	"(TORCHINDUCTOR_CACHE_DIR, TRITON_CACHE_DIR), RUN/env.json and RUN/tko-run.json.",
	"Once the model is in its steady state (no kernel compiled or autotuned for a while,",
	"the launch sequence repeating), a torch.profiler trace of a few steps goes to",
	"RUN/profile/ (trace-<pid>.json.gz, window-<pid>.json): tko investigate and tko",
	"profile read it.",
	"The terminal shows CMD's own output; the Inductor/Triton logging tko switches on",
	"goes to RUN/log/model.log only ('tko -v capture' shows it too).",
	"Exits with CMD's exit status.",
	NULL,
};

/* Set unless the user already set them: verbose logs that tko summarize reads. */
static const char *const default_env[][2] = {
	{ "TORCH_LOGS", "+inductor" },
	{ "TRITON_PRINT_AUTOTUNING", "1" },
	{ "TORCHINDUCTOR_BENCHMARK_KERNEL", "1" },
	{ "PYTHONUNBUFFERED", "1" },
};

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
	size_t n = rundir_kernel_dirs(t->run, &dirs);

	walk_release(&dirs);
	if (!isatty(2) && t->shown && n == t->kernels)
		return;
	t->kernels = n;
	t->shown = 1;
	msg_progress("running %s: %.0f s, %zu kernel%s captured", t->cmd,
		     now_unix() - t->start, n, n == 1 ? "" : "s");
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

struct capture_env {
	struct strlist add;	/* "NAME=value" entries for the child */
	json_t *set;		/* what tko set, for tko-run.json */
	json_t *kept;		/* user values tko left alone */
	char *store[24];	/* the strings behind `add` */
	size_t nstore;
};

static void env_put(struct capture_env *ce, const char *name, const char *value)
{
	char *entry = xstrfmt("%s=%s", name, value);

	ce->store[ce->nstore++] = entry;
	strlist_push(&ce->add, entry);
	json_set_str(ce->set, name, value);
}

/* The profiled window's settings (python/tko/profiling.py); 0: its default. */
struct profile_opts {
	int off;		/* --no-profile */
	long steps;		/* --profile-steps */
	double seconds;		/* --profile-seconds */
};

static void profile_env(struct capture_env *ce, const char *run, const struct profile_opts *po)
{
	char *dir, *v;

	if (po->off)
		return;
	dir = xstrfmt("%s/profile", run);
	env_put(ce, "TKO_PROFILE_DIR", dir);
	free(dir);
	if (po->steps > 0) {
		v = xstrfmt("%ld", po->steps);
		env_put(ce, "TKO_PROFILE_STEPS", v);
		free(v);
	}
	if (po->seconds > 0) {
		v = xstrfmt("%g", po->seconds);
		env_put(ce, "TKO_PROFILE_SECONDS", v);
		free(v);
	}
}

/*
 * The logging tko switched on itself (not what the user set) goes to the
 * log only, unless -v: TKO_LOG_ROUTE names it for python/tko/logroute.py.
 */
static void route_logs(struct capture_env *ce, const char *run)
{
	struct buf routes = BUF_INIT;
	char *log;

	if (msg_settings.verbose)
		return;
	if (!json_object_get(ce->kept, "TORCH_LOGS"))
		buf_adds(&routes, "torch");
	if (!json_object_get(ce->kept, "TRITON_PRINT_AUTOTUNING"))
		buf_addf(&routes, "%striton", routes.len ? "," : "");
	if (routes.len) {
		log = xstrfmt("%s/log/model.log", run);
		env_put(ce, "TKO_LOG_FILE", log);
		env_put(ce, "TKO_LOG_ROUTE", routes.buf);
		free(log);
	}
	buf_release(&routes);
}

static int build_env(struct capture_env *ce, const char *run, const char *pkg,
		     const char *regex, const struct profile_opts *po)
{
	char *hook = xstrfmt("%s/tko/_hook", pkg);
	char *path = pyenv_pythonpath_entry(hook, pkg);
	size_t i;

	ce->set = json_object();
	ce->kept = json_object();
	ce->store[ce->nstore++] = path;
	strlist_push(&ce->add, path);
	json_set_str(ce->set, "PYTHONPATH", path + strlen("PYTHONPATH="));
	free(hook);
	env_put(ce, "TKO_PYTHONPATH", pkg);
	{
		char *cap = xstrfmt("%s/capture", run), *ind = xstrfmt("%s/cache/inductor", run);
		char *tri = xstrfmt("%s/cache/triton", run);

		env_put(ce, "TKO_RUN_DIR", run);
		env_put(ce, "TKO_CAPTURE_DIR", cap);
		env_put(ce, "TORCHINDUCTOR_CACHE_DIR", ind);
		env_put(ce, "TRITON_CACHE_DIR", tri);
		free(cap);
		free(ind);
		free(tri);
	}
	if (regex)
		env_put(ce, "TKO_CAPTURE_KERNELS", regex);
	profile_env(ce, run, po);
	for (i = 0; i < sizeof(default_env) / sizeof(default_env[0]); i++) {
		const char *have = getenv(default_env[i][0]);

		if (have)
			json_set_str(ce->kept, default_env[i][0], have);
		else
			env_put(ce, default_env[i][0], default_env[i][1]);
	}
	route_logs(ce, run);
	strlist_push(&ce->add, NULL);
	return 0;
}

static void capture_env_release(struct capture_env *ce)
{
	size_t i;

	for (i = 0; i < ce->nstore; i++)
		free(ce->store[i]);
	strlist_release(&ce->add);
	json_decref(ce->set);
	json_decref(ce->kept);
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

static int run_command(const char *const *cmd, const char *run, struct capture_env *ce,
		       struct run_result *r, struct buf *err)
{
	char *log = xstrfmt("%s/log/model.log", run);
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
	r->hidden = json_object_get(ce->set, "TKO_LOG_ROUTE") ? file_lines(log) : -1;
	if (r->hidden >= 0)
		r->hidden = r->hidden > (long long)t.lines ? r->hidden - (long long)t.lines : 0;
	r->status = c.exit_status;
	r->not_found = c.not_found;
	if (t.log_failed)
		r->log_error = xstrfmt("writing '%s' failed: the log is incomplete", log);
	close(t.log_fd);
	child_release(&c);
	free(log);
	return ret;
}

static json_t *versions_of(const json_t *env)
{
	const char *keys[] = { "python", "torch", "triton" };
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < 3; i++)
		json_set_str(o, keys[i], json_str(json_object_get(env, keys[i]), "version"));
	return o;
}

static json_t *manifest(const char *const *cmd, int ncmd, const char *run,
			const char *regex, const struct capture_env *ce,
			const json_t *env, const struct run_result *r)
{
	json_t *m = json_object(), *av = json_array();
	char t0[40], t1[40], cwd[4096];
	int i;

	for (i = 0; i < ncmd; i++)
		json_array_append_new(av, json_string(cmd[i]));
	rundir_iso_time((time_t)r->start, t0, sizeof(t0));
	rundir_iso_time((time_t)r->end, t1, sizeof(t1));
	json_set_int(m, "schema_version", 1);
	json_set_str(m, "tool", "tko capture");
	json_set_str(m, "tko_version", TKO_VERSION);
	json_set_new(m, "argv", av);
	json_set_str(m, "cwd", getcwd(cwd, sizeof(cwd)) ? cwd : NULL);
	json_set_str(m, "run_dir", run);
	json_set_str(m, "start_time", t0);
	json_set_num(m, "start_unix", r->start);
	json_set_str(m, "end_time", t1);
	json_set_num(m, "end_unix", r->end);
	json_set_num(m, "duration_s", r->end - r->start);
	json_set_int(m, "exit_status", r->status);
	json_set_new(m, "signal", r->status > 128 && !r->not_found ? json_integer(r->status - 128) : NULL);
	json_set_bool(m, "command_found", !r->not_found);
	json_set_str(m, "kernels_regex", regex);
	json_set_str(m, "log", "log/model.log");
	json_set_str(m, "log_error", r->log_error);
	json_set_new(m, "log_lines_not_shown", r->hidden >= 0 ? json_integer(r->hidden) : json_null());
	json_set_new(m, "env_set", json_incref(ce->set));
	json_set_new(m, "env_kept", json_incref(ce->kept));
	json_set_new(m, "versions", versions_of(env));
	json_set_new(m, "capture", rundir_capture_summary(run));
	return m;
}

static void print_summary(const json_t *m)
{
	const json_t *cap = json_object_get(m, "capture");
	struct table t = TABLE_INIT;

	table_columns(&t, "run|exit status|seconds|kernels captured|events|capture errors", "lrrrrr");
	table_row(&t);
	table_cell(&t, "%s", json_str(m, "run_dir"));
	table_cell(&t, "%lld", json_int(m, "exit_status", -1));
	table_cell(&t, "%.1f", json_num(m, "duration_s", 0));
	table_cell(&t, "%lld", json_int(cap, "kernel_dirs", 0));
	table_cell(&t, "%lld", json_int(cap, "events", 0));
	table_cell(&t, "%lld", json_int(cap, "errors", 0));
	fputc('\n', stderr);
	table_print(&t, stderr);
	table_release(&t);
	if (json_int(m, "log_lines_not_shown", 0) > 0)
		fprintf(stderr, "%lld lines of Inductor/Triton logging are in %s/log/model.log only "
			"('tko -v capture' shows them)\n", json_int(m, "log_lines_not_shown", 0),
			json_str(m, "run_dir"));
}

struct capture_opts {
	const char *out, *kernels, *json;
	int measure;
	struct profile_opts profile;
};

/* Everything before the command: RUN, the Python package, env.json, the child's environment. */
static int prepare(const struct capture_opts *o, char **run, char **pkg, json_t **env,
		   struct capture_env *ce)
{
	struct buf err = BUF_INIT;
	struct env_opts eo = ENV_OPTS_INIT;
	char *name = o->out ? xstrdup(o->out) : rundir_make_default(time(NULL), &err);
	char *env_path;

	if (!name || rundir_create(name, &err) < 0 || !(*run = realpath(name, NULL))) {
		msg_error("cannot create the RUN directory: %s", err.len ? err.buf : strerror(errno));
		free(name);
		buf_release(&err);
		return EXIT_FAIL;
	}
	free(name);
	if (!(*pkg = pyenv_package_dir(&err))) {
		msg_error("cannot capture: %s", err.buf);
		buf_release(&err);
		return EXIT_TOOL;
	}
	eo.measure = o->measure;
	*env = env_probe(&eo);
	env_path = path_join(*run, "env.json");
	if (json_write_path(*env, env_path, &err) < 0)
		msg_warn("%s", err.buf);
	free(env_path);
	buf_release(&err);
	build_env(ce, *run, *pkg, o->kernels, &o->profile);
	return EXIT_OK;
}

int cmd_capture(int argc, const char **argv)
{
	struct capture_opts o = { NULL, NULL, NULL, 0, { 0, 0, 0 } };
	const struct opt options[] = {
		OPT_STRING(0, "out", &o.out, "RUN", "the RUN directory to create (default tko-run-<time>)"),
		OPT_STRING(0, "kernels", &o.kernels, "REGEX", "snapshot only kernels whose name matches"),
		OPT_BOOL(0, "measure", &o.measure, "measure device copy bandwidth into env.json"),
		OPT_STRING(0, "json", &o.json, "FILE", "also write tko-run.json to FILE ('-': stdout)"),
		OPT_INT(0, "profile-steps", &o.profile.steps, "N", "steps in the profiled window (default 5)"),
		OPT_DOUBLE(0, "profile-seconds", &o.profile.seconds, "S", "at most S seconds of it (default 20)"),
		OPT_BOOL(0, "no-profile", &o.profile.off, "record no profile (RUN/profile/)"),
		OPT_END(),
	};
	struct capture_env ce = { STRLIST_INIT, NULL, NULL, { NULL }, 0 };
	struct run_result r = { 0, 0, 0, 0, NULL, -1 };
	struct buf err = BUF_INIT;
	char *run = NULL, *pkg = NULL, *mpath;
	json_t *env = NULL, *m;
	int n, rest, ret;

	n = opts_parse(argc, argv, options, usage, OPTS_REST, &rest);
	if (n < 0)
		return opts_exit_code(n);
	if (rest < 0 || rest >= n) {
		msg_error("no command to run: give it after '--' (tko capture -- CMD ARGS...)");
		return EXIT_USAGE;
	}
	if (rest > 0) {
		msg_error("unexpected argument '%s' before '--'", argv[0]);
		return EXIT_USAGE;
	}
	ret = prepare(&o, &run, &pkg, &env, &ce);
	if (ret != EXIT_OK)
		goto out;
	argv[n] = NULL;
	if (run_command(argv + rest, run, &ce, &r, &err) < 0) {
		msg_error("%s", err.buf);
		ret = EXIT_FAIL;
		goto out;
	}
	if (r.not_found)
		msg_error("%s", err.buf);
	if (r.log_error)
		msg_warn("%s", r.log_error);
	m = manifest(argv + rest, n - rest, run, o.kernels, &ce, env, &r);
	mpath = path_join(run, "tko-run.json");
	buf_reset(&err);
	if (json_write_path(m, mpath, &err) < 0 || (o.json && json_write_path(m, o.json, &err) < 0))
		msg_error("%s", err.buf);
	if (!msg_settings.quiet)
		print_summary(m);
	free(mpath);
	json_decref(m);
	ret = r.status;
out:
	capture_env_release(&ce);
	json_decref(env);
	free(r.log_error);
	free(run);
	free(pkg);
	buf_release(&err);
	return ret;
}
