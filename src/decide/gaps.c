/* Missing evidence and the commands that fill it (gaps.h). */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "decide/gaps.h"
#include "json/reflect.h"
#include "rundir/cachematch.h"
#include "rundir/layout.h"
#include "util/buf.h"
#include "util/plural.h"
#include "util/mem.h"
#include "banned.h"

static const char *command_of(const struct an_run *r)
{
	return r->command ? r->command : "python3 your_model.py";
}

/* Whether some kernel's argument shapes are known without a capture (a seed log). */
static int shapes_known(const struct an_run *r)
{
	size_t i, j;

	for (i = 0; i < r->nkernels; i++)
		for (j = 0; j < r->kernels[i].nargs; j++)
			if (r->kernels[i].args[j].shape)
				return 1;
	return 0;
}

/*
 * `fmt` with each %s replaced by the next path, quoted for the shell
 * (buf_add_shell_word): a RUN called "r;touch PWNED;#" must not make a
 * suggested command that runs touch. Only %s is understood.
 */
static char *shell_cmd(const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	const char *p;

	va_start(ap, fmt);
	for (p = fmt; *p; p++) {
		if (p[0] == '%' && p[1] == 's') {
			buf_add_shell_word(&b, va_arg(ap, const char *));
			p++;
		} else {
			buf_addch(&b, *p);
		}
	}
	va_end(ap);
	return buf_detach(&b, NULL);
}

/* RUN/<part> as the run names it: RUN/ with a slash of its own stays "RUN//part". */
static char *run_path(const struct an_run *r, enum rd_part p)
{
	return xstrfmt("%s/%s", r->run, rd_parts[p].rel);
}

/* A RUN tko capture made: tko-run.json was read (it lists what tko set). */
static int captured(const struct an_capture_outcome *c)
{
	return c && c->recorded;
}

/* `tko investigate --out RUN2 -- CMD`, with `env` (already shell words) before it, or "". */
static char *again_with(const struct an_run *r, const char *env)
{
	return xstrfmt("%s%stko investigate --out RUN2 -- %s", env, *env ? " " : "",
		       command_of(r));
}

/* What a missing capture costs when the model ran kernels. */
static const char *no_capture_cost(const struct an_run *r)
{
	return shapes_known(r) ?
	       "no kernel can be replayed (shapes, dtypes and strides come from the seed skill's"
	       " autotune.log; times are the autotuner's)" :
	       "the arguments' shapes, dtypes and strides are unknown and no kernel can be"
	       " replayed (times are the autotuner's, where it timed any)";
}

/* Whether tko-run.json says the command launched no Triton kernel (and nothing else saw one). */
static int launched_none(const struct an_run *r, const struct an_capture_outcome *c)
{
	return captured(c) && !c->launches && !r->nkernels;
}

/*
 * What tko-run.json and env.json say the command did, into b; *cmd: the
 * command to suggest instead of capturing again, or NULL.
 */
static void what_happened(struct buf *b, const struct an_run *r,
			  const struct an_capture_outcome *c, const char **cmd)
{
	const char *before = launched_none(r, c) ? " before it launched any Triton kernel" : "";

	*cmd = NULL;
	if (!c->command_found && c->exit_status == 127) {
		buf_adds(b, "the command could not be started (exit status 127: not found or not"
			 " executable)");
	} else if (c->signal != RF_I64_NONE) {
		buf_addf(b, "the command was ended by signal %lld (exit status %lld)%s", c->signal,
			 c->exit_status, before);
	} else if (c->exit_status != 0) {
		buf_addf(b, "the command failed (exit status %lld; its own output says why)%s",
			 c->exit_status, before);
	} else if (*before) {
		buf_adds(b, "the command ran (exit status 0) and launched no Triton kernel");
		if (c->gpus >= 0 && !c->torch)
			buf_adds(b, ": torch is not importable here (RUN/env.json), and the kernels"
				 " come from torch.compile");
		else if (c->gpus == 0)
			buf_adds(b, ": no GPU was found (RUN/env.json)");
		else
			buf_adds(b, ": does it run a torch.compile'd model (or a Triton kernel) on the"
				 " GPU?");
		if (c->gpus >= 0 && (!c->torch || c->gpus == 0))
			*cmd = "tko env";
	} else if (c->kernels_regex) {
		buf_addf(b, "the command ran (exit status 0), but no kernel it launched matched"
			 " --kernels '%s'", c->kernels_regex);
	} else if (c->errors) {
		buf_addf(b, "the command ran (exit status 0), but the capture hook failed %lld"
			 " time%s (RUN/capture/events.jsonl)", c->errors, plural(c->errors));
	} else {
		buf_adds(b, "the command ran (exit status 0), but no kernel's inputs were saved");
	}
}

/*
 * The "no capture" gap: what the command did, when tko-run.json says, and
 * what that costs when the model ran kernels all the same.
 */
static void capture_gap(struct an_run *r, const struct an_capture_outcome *c)
{
	struct buf b = BUF_INIT;
	const char *other = NULL;
	char *cmd;

	buf_adds(&b, "no capture: ");
	if (captured(c)) {
		what_happened(&b, r, c, &other);
		if (!launched_none(r, c))
			buf_addf(&b, "; %s", no_capture_cost(r));
	} else {
		buf_adds(&b, no_capture_cost(r));
	}
	cmd = other ? xstrdup(other) : again_with(r, "");
	an_add_gap(&r->gaps, &r->ngaps, b.buf, cmd);
	free(cmd);
	buf_release(&b);
}

static void peak_gap(struct an_run *r, const char *bandwidth_error)
{
	char *env = run_path(r, RD_ENV);
	char *cmd = shell_cmd("tko env --measure --json %s", env);
	char *what;

	/* --measure ran and said why it failed: not "measure", but what stopped it. */
	if (bandwidth_error)
		what = xstrfmt("no measured peak bandwidth: footprint rates are not compared with"
			       " anything (--measure measured nothing: %s (RUN/env.json's"
			       " bandwidth_error); run this where torch sees the GPU, or pass"
			       " --peak-gbps)", bandwidth_error);
	else
		what = xstrdup("no measured peak bandwidth: footprint rates are not compared with"
			       " anything (run this on the GPU, or pass --peak-gbps)");
	free(env);
	an_add_gap(&r->gaps, &r->ngaps, what, cmd);
	free(what);
	free(cmd);
}

/* Whether a TORCH_LOGS value turns Inductor's debug lines on: "+inductor" among its comma list. */
static int logs_inductor_debug(const char *v)
{
	size_t n = strlen("+inductor");

	while (*v) {
		size_t len;

		v += strspn(v, " ,");
		len = strcspn(v, ",");
		while (len && v[len - 1] == ' ')
			len--;
		if (len == n && !strncmp(v, "+inductor", n))
			return 1;
		v += strcspn(v, ",");
	}
	return 0;
}

#define NO_LOG "no TORCH_LOGS=+inductor log: no autotune times and no user source lines"

/*
 * The user's own TORCH_LOGS without +inductor, which tko capture keeps:
 * suggest theirs with +inductor added.
 */
static void log_gap_kept(struct an_run *r, const char *kept)
{
	struct buf env = BUF_INIT;
	char *what, *value, *cmd;

	value = xstrfmt("%s,+inductor", kept);
	buf_adds(&env, "TORCH_LOGS=");
	buf_add_shell_word(&env, value);
	cmd = again_with(r, env.buf);
	what = xstrfmt(NO_LOG " (the command ran with your own TORCH_LOGS='%s', which tko capture"
		       " leaves as it is (tko-run.json's env_kept); add +inductor to it)", kept);
	an_add_gap(&r->gaps, &r->ngaps, what, cmd);
	free(what);
	free(cmd);
	free(value);
	buf_release(&env);
}

/*
 * TORCH_LOGS had +inductor, set by tko capture or kept from the user,
 * and no Inductor line reached the logs. torch 2.11 reads TORCH_LOGS when
 * it is imported (torch/__init__.py: _logging._init_logs()); with it,
 * every CachingAutotuner built logs "CachingAutotuner gets N configs for
 * K" (runtime/triton_heuristics.py), and tko's log route and its capture
 * of stderr both end in RUN/log/model.log. None is built for kernels the
 * static launcher (config.use_static_triton_launcher, True outside fbcode)
 * restores with an FX graph cache entry (triton_bundler.py:
 * load_autotuners()), and tko capture points TORCHINDUCTOR_CACHE_DIR at
 * the RUN's new cache/inductor. Without a failed write, what is left is
 * hand-written kernels, another FX graph cache, or a changed setting.
 */
static void log_gap_set(struct an_run *r, const struct an_capture_outcome *c)
{
	char *what, *cmd = NULL;
	char *who = c->torch_logs_kept ?
		    xstrfmt("the command ran with your TORCH_LOGS='%s' (tko-run.json's env_kept)",
			    c->torch_logs_kept) :
		    xstrfmt("tko capture set TORCH_LOGS=%s (tko-run.json's env_set)",
			    c->torch_logs_set);

	if (c->log_error) {
		what = xstrfmt(NO_LOG "; %s, but %s (tko-run.json's log_error)", who, c->log_error);
		cmd = again_with(r, "");
	} else {
		what = xstrfmt(NO_LOG "; %s, yet the RUN's logs have no Inductor line. With it,"
			       " torch logs 'CachingAutotuner gets N configs' for each Inductor"
			       " kernel a process compiles or loads, except a graph's kernels its"
			       " static launcher (on by default) restores from an FX graph cache,"
			       " and tko capture gave it a new one (TORCHINDUCTOR_CACHE_DIR=RUN/"
			       "cache/inductor). So the kernels are hand-written Triton, the"
			       " command used another FX graph cache (it changed"
			       " TORCHINDUCTOR_CACHE_DIR, or a remote one), or it changed the"
			       " logging itself (TORCH_LOGS removed before torch was imported, or"
			       " the torch._inductor loggers' level raised)", who);
	}
	an_add_gap(&r->gaps, &r->ngaps, what, cmd);
	free(what);
	free(cmd);
	free(who);
}

static void log_gap(struct an_run *r, const struct an_capture_outcome *c)
{
	if (captured(c) && c->torch_logs_kept && !logs_inductor_debug(c->torch_logs_kept))
		log_gap_kept(r, c->torch_logs_kept);
	else if (captured(c) && (c->torch_logs_kept || c->torch_logs_set))
		log_gap_set(r, c);
	else
		an_add_gap(&r->gaps, &r->ngaps, NO_LOG, "TORCH_LOGS=+inductor (tko capture sets it)");
}

/*
 * tko capture set TRITON_CACHE_DIR=RUN/cache/triton and nothing is there.
 * Triton 3.6 writes each kernel it compiles through its cache manager
 * (compiler/compiler.py: compile(), runtime/cache.py), and torch 2.11 each
 * kernel it restores from its FX graph cache (triton_bundler.py:
 * read_and_emit(), to triton_cache_dir(): TRITON_CACHE_DIR), so a cache hit
 * fills it as well: no kernel was compiled where the setting held. Inductor
 * logs where each of its kernels' cache went ("Triton cache dir: P",
 * runtime/triton_heuristics.py) under TORCH_LOGS=+inductor.
 */
#define NO_CACHE "no Triton cache in the RUN (cache/triton): no ISA"

static void triton_cache_gap(struct an_run *r, const struct an_capture_outcome *c, int have_log)
{
	char *what, *cmd = NULL;

	if (!captured(c) || !c->triton_cache_set) {
		an_add_gap(&r->gaps, &r->ngaps, NO_CACHE,
			   "TRITON_CACHE_DIR=RUN/cache/triton (tko capture sets it)");
		return;
	}
	if (!c->launches)
		what = xstrdup(NO_CACHE "; tko capture set TRITON_CACHE_DIR=RUN/cache/triton"
			       " (tko-run.json's env_set), but no Triton kernel was compiled there,"
			       " and tko's hook recorded no launch (RUN/capture/events.jsonl)");
	else
		what = xstrfmt(NO_CACHE "; tko capture set TRITON_CACHE_DIR=RUN/cache/triton"
			       " (tko-run.json's env_set), yet no kernel was compiled there though"
			       " tko's hook recorded %lld launch%s. Triton writes every kernel it"
			       " compiles to TRITON_CACHE_DIR, and torch every kernel it restores"
			       " from its FX graph cache, so the command (or a library it uses)"
			       " changed TRITON_CACHE_DIR, triton.knobs.cache.dir or"
			       " TRITON_CACHE_MANAGER itself", c->launches,
			       plural_word(c->launches, "", "es"));
	if (have_log) {
		char *log = run_path(r, RD_MODEL_LOG);

		cmd = shell_cmd("grep -n 'Triton cache dir' %s", log);
		free(log);
	}
	an_add_gap(&r->gaps, &r->ngaps, what, cmd);
	free(what);
	free(cmd);
}

/* Why the RUN has no profile and what to do, for the parentheses of the profile gap. */
static char *no_profile_why(const struct an_capture_outcome *c)
{
	/* not set: --no-profile, or a tko older than the profiler (tko-run.json does not say) */
	if (!captured(c) || !c->profile_set)
		return xstrdup("tko capture records one in RUN/profile/; or give a torch.profiler,"
			       " rocprof or nsys file");
	if (!c->launches)
		return xstrdup("tko capture profiles a steady state of the Triton launches its hook"
			       " sees, and it recorded none (RUN/capture/events.jsonl); give a"
			       " torch.profiler, rocprof or nsys file");
	/* python/tko/profiling.py, docs/capture-events.md: when the window starts */
	return xstrfmt("tko capture watched the command's %lld Triton launch%s for a steady state"
		       " and profiled none: it waits for 200 launches (TKO_PROFILE_QUIET) of"
		       " kernels already seen and a launch sequence repeating three times, and a"
		       " CUDA graph's replays never reach it%s; run more steps, or give a"
		       " torch.profiler, rocprof or nsys file", c->launches,
		       plural_word(c->launches, "", "es"),
		       c->errors ? " (or the profiler failed: RUN/capture/events.jsonl's error"
				   " events say)" : "");
}

static void profile_gap(struct an_run *r, const struct an_capture_outcome *c)
{
	/* A gap's command must run as printed: the prose goes in the text. */
	char *cmd = shell_cmd("tko investigate --profile TRACE.json %s", r->run);
	char *why = no_profile_why(c);
	char *what = xstrfmt(r->nlibcalls ?
			     "no whole-step profile, and library calls (extern_kernels.*) are not"
			     " timed: shares are of the Triton kernel time only (%s)" :
			     "no whole-step profile: shares are of the Triton kernel time only (%s)",
			     why);

	an_add_gap(&r->gaps, &r->ngaps, what, cmd);
	free(what);
	free(why);
	free(cmd);
}

static void run_gaps(struct an_run *r, const struct gaps_facts *f)
{
	char *cmd;

	if (!r->capture_dirs) {
		capture_gap(r, f->capture);
		if (launched_none(r, f->capture))
			return;	/* with no kernel, every other gap is moot */
	} else if (!f->have_replay) {
		char *json = run_path(r, RD_REPLAY_JSON);
		struct buf b = BUF_INIT;

		/* The glob stays outside the quotes, so the shell expands it. */
		buf_adds(&b, "tko run ");
		buf_add_shell_word(&b, r->run);
		buf_addf(&b, "/%s/* --json ", rd_parts[RD_KERNELS_DIR].rel);
		buf_add_shell_word(&b, json);
		free(json);
		cmd = buf_detach(&b, NULL);
		an_add_gap(&r->gaps, &r->ngaps, "no replay: times are the autotuner's, measured while"
			   " it was tuning; a replay times each kernel alone (on the GPU)", cmd);
		free(cmd);
	}
	if (isnan(r->peak_gbps))
		peak_gap(r, f->bandwidth_error);
	if (!f->have_log)
		log_gap(r, f->capture);
	if (!f->have_triton_cache)
		triton_cache_gap(r, f->capture, f->have_log);
	if (!r->profile.file)
		profile_gap(r, f->capture);
}

static int ptx_without_registers(const struct an_kernel *k)
{
	return k->isa.file && k->isa.isa && !strcmp(k->isa.isa, "ptx") && k->isa.res.registers < 0;
}

/*
 * The RUN's cache gap already says why its Triton cache is empty although
 * tko capture set TRITON_CACHE_DIR (triton_cache_gap()): capturing again
 * the same way would fill it no better.
 */
static int cache_gap_explains(const struct gaps_facts *f)
{
	return !f->have_triton_cache && captured(f->capture) && f->capture->triton_cache_set;
}

static void no_isa_gap(struct an_run *r, struct an_kernel *k, const struct gaps_facts *f)
{
	char *what, *cmd = NULL;

	if (cache_gap_explains(f))
		what = xstrdup("no ISA: no Triton cache in the RUN (the whole-run gap says why)");
	else if (k->isa.match && !strcmp(k->isa.match, rd_how_names[RD_HOW_AMBIGUOUS]))
		what = xstrfmt("no ISA: %ld compiled configs of this module match the chosen"
			       " num_warps/num_stages, and no cache hash says which one ran",
			       k->isa.candidates);
	else
		what = xstrdup("no ISA: no compiled binary of this kernel for its arch in the"
			       " Triton cache");
	if (!k->kernel_dir && !cache_gap_explains(f))
		cmd = again_with(r, "");
	an_add_gap(&k->gaps, &k->ngaps, what, cmd);
	free(what);
	free(cmd);
}

static void kernel_gaps(struct an_run *r, struct an_kernel *k, const struct gaps_facts *f)
{
	char *cmd;

	if (isnan(k->time_ms)) {
		if (k->kernel_dir && !f->have_replay) {
			char *kdir = xstrfmt("%s/%s", r->run, k->kernel_dir);
			char *json = run_path(r, RD_REPLAY_JSON);

			cmd = shell_cmd("tko run %s --json %s", kdir, json);
			free(kdir);
			free(json);
		} else
			cmd = k->kernel_dir ? NULL : again_with(r, "");
		an_add_gap(&k->gaps, &k->ngaps, "no time: nothing timed the config it ran with", cmd);
		free(cmd);
	}
	if (!k->isa.file) {
		no_isa_gap(r, k, f);
	} else if (ptx_without_registers(k) && !f->have_disassembler) {
		size_t n = strlen(k->isa.file);

		if (n > 4 && !strcmp(k->isa.file + n - 4, ".ptx"))
			n -= 4;
		char *cubin = xstrfmt("%s/%.*s.cubin", r->run, (int)n, k->isa.file);

		cmd = shell_cmd("tko isa %s", cubin);
		free(cubin);
		an_add_gap(&k->gaps, &k->ngaps, "registers per thread unknown: PTX does not say and"
			   " nothing disassembled the cubin (needs the CUDA toolkit's cuobjdump or"
			   " nvdisasm)", cmd);
		free(cmd);
	}
	if (isnan(k->bytes))
		an_add_gap(&k->gaps, &k->ngaps, "no byte count: neither Inductor's estimate nor a"
			   " captured launch", NULL);
}

void gaps_compute(struct an_run *r, const struct gaps_facts *f)
{
	size_t i;

	run_gaps(r, f);
	for (i = 0; i < r->nkernels; i++)
		kernel_gaps(r, &r->kernels[i], f);
}
