/* Replays in a child Python, plus footprint and bandwidth (see replay.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "exitcode.h"
#include "env/peak.h"
#include "json/jsonio.h"
#include "model/capture.h"
#include "model/env.h"
#include "model/traffic.h"
#include "py/pyenv.h"
#include "run/replay.h"
#include "run/store.h"
#include "rundir/layout.h"
#include "util/cleanup.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/msg.h"
#include "util/spawn.h"
#include "banned.h"

/*
 * The RUN above a kernel directory RUN/capture/kernels/<name>/, reached
 * through it ("<dir>/../../..", as deep as rundir/layout's kernels folder
 * is, plus one): the paths outputs quote stay the ones the user gave.
 */
static char *run_above(const char *kernel_dir)
{
	const char *rel = rd_parts[RD_KERNELS_DIR].rel;
	struct buf run = BUF_INIT;

	buf_addf(&run, "%s/..", kernel_dir);
	for (; *rel; rel++)
		if (*rel == '/')
			buf_adds(&run, "/..");
	buf_adds(&run, "/..");
	return buf_detach(&run, NULL);
}

/* RUN/<part> for the RUN above kernel_dir. */
static char *run_part(const char *kernel_dir, enum rd_part p)
{
	char *run = run_above(kernel_dir), *path = rd_path_in(run, p);

	free(run);
	return path;
}

/*
 * Why env.json at `path` has no copy rate, when it says: "REASON (NAME's
 * bandwidth_error)", newly allocated; NULL when it is absent, unreadable
 * or silent (then measuring is still the advice).
 */
static char *env_why_no_peak(const char *path, const char *name)
{
	struct env_doc env;
	struct buf ignored = BUF_INIT;
	json_t *j = is_file(path) ? json_load_path(path, &ignored) : NULL;
	char *why = NULL;

	env_doc_init(&env);
	if (j && env_doc_read(&env, j, path, &ignored) == 0 && env.bandwidth_error)
		why = xstrfmt("%s (%s's bandwidth_error)", env.bandwidth_error, name);
	env_doc_release(&env);
	json_decref(j);
	buf_release(&ignored);
	return why;
}

/*
 * --peak-gbps, else the copy rate of --env or of the RUN's env.json
 * (env/peak.h); without one, *why is what that env.json says of it.
 */
static void find_peak(const struct strlist *dirs, const struct replay_opts *o, struct peak *p,
		      char **why)
{
	struct peak_inputs in = PEAK_INPUTS_INIT;
	char *path = o->env_json ? xstrdup(o->env_json) : run_part(dirs->v[0], RD_ENV);

	in.option = o->peak_gbps;
	in.env_path = path;
	in.order = peak_order_replay;
	/* the RUN's by its contract name, as the analysis's gaps say it, not as kernel/../../.. */
	*why = peak_resolve(&in, p) ? NULL : env_why_no_peak(path, o->env_json ? o->env_json :
							     "RUN/env.json");
	free(path);
}

/* An env.json named by --env must be readable JSON; RUN/env.json may be absent. */
static int check_env(const struct replay_opts *o, struct buf *err)
{
	json_t *env;

	if (!o->env_json || o->peak_gbps > 0)
		return 0;
	if (!(env = json_load_path(o->env_json, err)))
		return -1;
	json_decref(env);
	return 0;
}

/* Checks each directory's capture.json and keeps the args for the footprint. */
static int load_captures(const struct strlist *dirs, json_t *captures, struct buf *err)
{
	size_t i;

	for (i = 0; i < dirs->nr; i++) {
		char *path = rd_kernel_path(dirs->v[i], RD_K_CAPTURE_JSON);
		json_t *doc;

		if (!is_dir(dirs->v[i])) {
			buf_addf(err, "'%s' is not a kernel directory", dirs->v[i]);
			free(path);
			return -1;
		}
		doc = json_load_path(path, err);
		free(path);
		if (!doc)
			return -1;
		if (json_int(doc, "schema_version", 0) != 1 || !json_is_array(json_object_get(doc, "args"))) {
			buf_addf(err, "'%s/capture.json' is not a tko capture (schema_version 1 with args)",
				 dirs->v[i]);
			json_decref(doc);
			return -1;
		}
		path = rd_kernel_path(dirs->v[i], RD_K_KERNEL_PY);
		if (!is_file(path)) {
			buf_addf(err, "'%s' is missing: not a complete kernel directory", path);
			free(path);
			json_decref(doc);
			return -1;
		}
		free(path);
		json_array_append_new(captures, doc);
	}
	return 0;
}

/*
 * The bytes the launch moves (model/traffic.h, the one definition the
 * report and tune use too) and, per config, the rate and its fraction of
 * the copy rate, with the doubt when it is over TRAFFIC_OVER_COPY of it.
 */
static void add_rates(struct replay_kernel *k, const char *dir, const json_t *capture, double peak,
		      traffic_reader *read_uses)
{
	char *cap_path = rd_kernel_path(dir, RD_K_CAPTURE_JSON);
	char *py_path = rd_kernel_path(dir, RD_K_KERNEL_PY);
	const json_t *inb = json_object_get(capture, "inductor_num_bytes");
	struct capture_doc cap;
	struct traffic t;
	struct buf err = BUF_INIT;
	long long fp = -1;
	size_t i;

	capture_init(&cap);
	if (capture_read(&cap, capture, cap_path, &err) == 0)
		fp = traffic_footprint(&cap);
	capture_release(&cap);
	buf_reset(&err);
	if (traffic_of_files(&t, cap_path, py_path, read_uses, &err) < 0 && !t.note)
		t.note = xstrdup(err.buf);
	buf_release(&err);
	free(cap_path);
	free(py_path);
	k->footprint_bytes = fp >= 0 ? fp : RF_I64_NONE;
	k->inductor_num_bytes = inb ? json_incref((json_t *)inb) : NULL;
	k->bytes = t.bytes >= 0 ? t.bytes : NAN;
	k->bytes_estimate = t.bytes < 0 || t.estimate;
	k->bytes_note = xstrdup(t.note ? t.note : "unknown");
	for (i = 0; i < k->nconfigs; i++) {
		struct replay_config *c = &k->configs[i];
		double ms = isnan(c->time_ms) ? 0 : c->time_ms;
		double rec = isnan(c->recorded_time_ms) ? 0 : c->recorded_time_ms;
		double like = isnan(c->autotuner_method_ms) ? 0 : c->autotuner_method_ms;
		double gbps = traffic_gbps(t.bytes, ms);

		c->gbps = gbps > 0 ? gbps : NAN;
		c->copy_fraction = gbps > 0 && peak > 0 ? gbps / peak : NAN;
		c->rate_doubt = traffic_rate_doubt(&t, gbps, peak);
		c->vs_recorded = like > 0 && rec > 0 ? like / rec : NAN;
	}
	traffic_release(&t);
}

/* The "tko run" document from the child's, typed, with what C adds. */
static struct replay_doc *finish_doc(const json_t *replay, const struct strlist *dirs,
				     const json_t *captures, const struct peak *peak,
				     traffic_reader *read_uses, struct buf *err)
{
	struct replay_doc *doc = xcalloc(1, sizeof(*doc));
	size_t i;

	replay_doc_init(doc);
	if (replay_doc_read(doc, replay, "the replay's result", err) < 0) {
		replay_doc_free(doc);
		return NULL;
	}
	doc->have_peak = peak->source != PEAK_NONE;
	doc->peak.copy_gbps = peak->gbps;
	free(doc->peak.source);	/* tko's peak, not one the child's document may name */
	doc->peak.source = peak->where ? xstrdup(peak->where) : NULL;
	/* the child answers for the dirs in their order; one that answers for more gets no rates there */
	for (i = 0; i < doc->nkernels && i < dirs->nr; i++)
		add_rates(&doc->kernels[i], dirs->v[i], json_array_get(captures, i), peak->gbps,
			  read_uses);
	replay_doc_summarise(doc);
	return doc;
}

void replay_doc_free(struct replay_doc *doc)
{
	if (!doc)
		return;
	replay_doc_release(doc);
	free(doc);
}

/* TRITON_CACHE_DIR=RUN/cache/triton, so the captured binaries are reused. */
static char *triton_cache_entry(const char *kernel_dir)
{
	char *dir = run_part(kernel_dir, RD_TRITON_CACHE), *real;

	if (getenv("TRITON_CACHE_DIR") || !is_dir(dir) || !(real = realpath(dir, NULL))) {
		free(dir);
		return NULL;
	}
	free(dir);
	dir = xstrfmt("TRITON_CACHE_DIR=%s", real);
	free(real);
	return dir;
}

struct replay_progress {
	const char *path;	/* the file python/tko/replay.py keeps "DONE TOTAL DIR" in */
	double start;
	long shown;		/* DONE of the last line printed, -1 before */
};

static double wall_s(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* Every second: which kernel the replay is on and, from the mean so far, the time left. */
static void replay_tick(void *data)
{
	struct replay_progress *p = data;
	char line[512], name[256], eta[64];
	long done, total;
	double t = wall_s() - p->start;
	FILE *fp = fopen(p->path, "r");

	if (!fp)
		return;
	if (fgets(line, sizeof(line), fp) && sscanf(line, "%ld %ld %255s", &done, &total, name) == 3 &&
	    done >= 0 && total > done && (isatty(2) || done != p->shown)) {
		p->shown = done;
		msg_progress_as("run", "replaying kernel %ld of %ld (%s): %.0f s%s", done + 1, total,
				name, t, msg_eta(t, (double)done, (double)total, eta, sizeof(eta)));
	}
	fclose(fp);
}

static int run_child(const struct strlist *dirs, const struct replay_opts *o, const char *out,
		     struct child *c, struct buf *err)
{
	char *pkg = pyenv_package_dir(err), *pypath, *cache, reps[32];
	const char **argv = xcalloc(dirs->nr + 10, sizeof(*argv));
	const char *env_add[3];
	char *progress = xstrfmt("%s.progress", out);
	struct replay_progress p = { progress, wall_s(), -1 };
	size_t i, n = 0;
	int ret;

	if (!pkg) {
		free(argv);
		free(progress);
		return -1;
	}
	pypath = pyenv_pythonpath_entry(pkg, NULL);
	cache = triton_cache_entry(dirs->v[0]);
	env_add[0] = pypath;
	env_add[1] = cache;
	env_add[2] = NULL;
	snprintf(reps, sizeof(reps), "%ld", o->reps);
	argv[n++] = pyenv_python();
	argv[n++] = "-m";
	argv[n++] = "tko.replay";
	for (i = 0; i < dirs->nr; i++)
		argv[n++] = dirs->v[i];
	argv[n++] = "--json";
	argv[n++] = out;
	argv[n++] = "--reps";
	argv[n++] = reps;
	argv[n++] = "--progress";
	argv[n++] = progress;
	c->argv = argv;
	c->env_add = env_add;
	c->timeout_s = o->timeout_s;
	c->null_in = 1;
	c->on_tick = replay_tick;
	c->on_output_data = &p;
	c->tick_s = 1;
	ret = child_run(c, err);
	msg_progress_done();
	unlink(progress);
	{
		char *tmp = xstrfmt("%s.tmp", progress);

		unlink(tmp);
		free(tmp);
	}
	free(progress);
	free(argv);
	free(pypath);
	free(cache);
	free(pkg);
	return ret;
}

/*
 * The replay exits 3 without torch or a GPU and writes why as its document's
 * "error" (python/tko/replay.py), so the user gets one line saying both.
 */
static void no_runtime_error(const char *out, struct buf *err)
{
	struct buf ignored = BUF_INIT;
	json_t *doc = is_file(out) ? json_load_path(out, &ignored) : NULL;
	json_t *why = doc ? json_object_get(doc, "error") : NULL;

	if (json_is_string(why))
		buf_addf(err, "the replay needs torch and a GPU: %s", json_string_value(why));
	else
		buf_addf(err, "the replay needs torch and a GPU (its Python exited with status 3)");
	json_decref(doc);
	buf_release(&ignored);
}

int replay_run(const struct strlist *dirs, const struct replay_opts *o, struct replay_doc **doc,
	       enum replay_status *status, struct buf *err)
{
	json_t *captures = json_array(), *replay;
	const char *tmp = getenv("TMPDIR");
	char *tmpdir = xstrfmt("%s/tko-run.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	char *out = NULL;
	struct child c = CHILD_INIT;

	*doc = NULL;
	if (load_captures(dirs, captures, err) < 0 || check_env(o, err) < 0 ||
	    !cleanup_mkdtemp(tmpdir)) {
		if (!err->len)
			buf_addf(err, "cannot create a temporary directory '%s'", tmpdir);
		json_decref(captures);
		free(tmpdir);
		return -1;
	}
	out = path_join(tmpdir, "replay.json");
	if (run_child(dirs, o, out, &c, err) < 0 || c.not_found) {
		*status = REPLAY_NO_RUNTIME;
		if (c.not_found)
			buf_addf(err, " (set TKO_PYTHON)");
	} else if (c.timed_out) {
		*status = REPLAY_TIMEOUT;
		buf_addf(err, "the replay ran past %.0f s and was stopped", o->timeout_s);
	} else if (c.exit_status == 3) {
		*status = REPLAY_NO_RUNTIME;
		no_runtime_error(out, err);
	} else if (!is_file(out) || !(replay = json_load_path(out, err))) {
		*status = REPLAY_CRASHED;
		buf_reset(err);
		buf_addf(err, "the replay exited with status %d and wrote no result", c.exit_status);
	} else {
		struct peak peak = PEAK_INIT;
		char *why;

		find_peak(dirs, o, &peak, &why);
		*doc = finish_doc(replay, dirs, captures, &peak, o->read_uses, err);
		if (*doc)
			(*doc)->peak_missing = why;
		else
			free(why);
		peak_release(&peak);
		json_decref(replay);
		if (!*doc)
			*status = REPLAY_CRASHED;
		else
			*status = (*doc)->summary.failed || (*doc)->summary.mismatched ||
				  c.exit_status != 0 ? REPLAY_FAILED : REPLAY_OK;
	}
	child_release(&c);
	unlink(out);
	rmdir(tmpdir);
	cleanup_drop_path(tmpdir);
	free(out);
	free(tmpdir);
	json_decref(captures);
	return 0;
}

/* RUN/analysis/replay.json when every dir is a kernel dir of one RUN; 0 when none is due. */
static int keep_in_run(const struct strlist *dirs, struct replay_outcome *out)
{
	char *run = rd_run_of_kernel_dirs(dirs);
	struct buf err = BUF_INIT;
	int ret = 0;

	if (run && replay_store_write(run, out->doc, &out->kept, &err) < 0) {
		out->keep_error = buf_detach(&err, NULL);
		ret = -1;
	}
	free(run);
	buf_release(&err);
	return ret;
}

static int exit_for(enum replay_status s)
{
	switch (s) {
	case REPLAY_OK:
		return EXIT_OK;
	case REPLAY_FAILED:
		return EXIT_FAIL;
	case REPLAY_NO_RUNTIME:
		return EXIT_TOOL;
	case REPLAY_TIMEOUT:
		return EXIT_TIMEOUT;
	case REPLAY_CRASHED:
		break;
	}
	return EXIT_CHILD;
}

int replay_into_run(const struct strlist *dirs, const struct replay_opts *o, int keep,
		    struct replay_outcome *out)
{
	struct buf err = BUF_INIT;

	if (replay_run(dirs, o, &out->doc, &out->status, &err) < 0) {
		out->exit_code = EXIT_FAIL;
	} else {
		out->exit_code = exit_for(out->status);
		if (out->doc && keep && keep_in_run(dirs, out) < 0)
			out->exit_code = EXIT_FAIL;
	}
	if (!out->doc)
		out->error = buf_detach(&err, NULL);
	buf_release(&err);
	return out->exit_code;
}

void replay_outcome_release(struct replay_outcome *out)
{
	replay_doc_free(out->doc);
	free(out->kept);
	free(out->keep_error);
	free(out->error);
	*out = (struct replay_outcome)REPLAY_OUTCOME_INIT;
}
