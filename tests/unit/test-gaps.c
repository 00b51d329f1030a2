/*
 * Unit tests for decide/gaps: which evidence a RUN and a kernel lack, and
 * the command that fills each. Expected sentences and commands are written
 * by hand from the RUN layout (docs/design.md: RUN/env.json,
 * RUN/capture/kernels/, RUN/analysis/replay.json) and from what a POSIX
 * shell needs to read a path as one word.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "decide/gaps.h"
#include "json/reflect.h"
#include "model/analysis_desc.h"
#include "util/mem.h"

/* A run with nothing missing: a capture, a replay, a peak, a log, a cache and a profile. */
static void full_run(struct an_run *r, const char *dir, struct gaps_facts *f)
{
	an_run_init(r);
	r->run = xstrdup(dir);
	r->capture_dirs = 2;
	r->peak_gbps = 4000;
	r->profile.file = xstrdup("profile/trace.json");
	f->have_log = f->have_triton_cache = f->have_replay = f->have_disassembler = 1;
	f->capture = NULL;
	f->bandwidth_error = NULL;
}

/* The gap whose sentence starts with `what`, or NULL. */
static const struct an_gap *gap(const struct an_gap *v, size_t n, const char *what)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strncmp(v[i].what, what, strlen(what)))
			return &v[i];
	return NULL;
}

static void test_nothing_missing(void **state)
{
	struct an_run r;
	struct gaps_facts f;
	struct an_kernel *k;

	(void)state;
	full_run(&r, "RUN", &f);
	k = an_run_add_kernel(&r);
	k->time_ms = 0.5;
	k->bytes = 1e6;
	k->isa.file = xstrdup("cache/triton/H/k.amdgcn");
	gaps_compute(&r, &f);
	assert_int_equal(r.ngaps, 0);
	assert_int_equal(k->ngaps, 0);
	an_run_release(&r);
}

/* A bare directory: every run gap, in order, each with the command that fills it. */
static void test_everything_missing(void **state)
{
	struct an_run r;
	struct gaps_facts f = { 0, 0, 0, 0, NULL, NULL };
	const struct an_gap *g;

	(void)state;
	an_run_init(&r);
	r.run = xstrdup("RUN");
	r.capture_dirs = 0;	/* as analysis counts them: no kernel directory */
	gaps_compute(&r, &f);
	assert_int_equal(r.ngaps, 5);
	assert_true(!strncmp(r.gaps[0].what, "no capture:", 11));
	assert_string_equal(r.gaps[0].command, "tko investigate --out RUN2 -- python3 your_model.py");
	assert_true(!strncmp(r.gaps[1].what, "no measured peak bandwidth", 26));
	assert_string_equal(r.gaps[1].command, "tko env --measure --json RUN/env.json");
	assert_true(!strncmp(r.gaps[2].what, "no TORCH_LOGS=+inductor log", 27));
	assert_true(!strncmp(r.gaps[3].what, "no Triton cache", 15));
	g = &r.gaps[4];
	assert_true(!strncmp(g->what, "no whole-step profile: shares", 29));
	assert_string_equal(g->command, "tko investigate --profile TRACE.json RUN");
	an_run_release(&r);
}

/* A capture with no replay: `tko run` over the captured kernels, the glob outside quotes. */
static void test_capture_without_replay(void **state)
{
	struct an_run r;
	struct gaps_facts f;
	const struct an_gap *g;

	(void)state;
	full_run(&r, "RUN", &f);
	f.have_replay = 0;
	r.command = xstrdup("python3 train.py --steps 3");
	gaps_compute(&r, &f);
	assert_int_equal(r.ngaps, 1);
	g = gap(r.gaps, r.ngaps, "no replay:");
	assert_non_null(g);
	assert_string_equal(g->command, "tko run RUN/capture/kernels/* --json RUN/analysis/replay.json");
	an_run_release(&r);
}

/* A RUN named like a shell command: every suggested command keeps it one quoted word. */
static void test_hostile_run_name(void **state)
{
	struct an_run r;
	struct gaps_facts f;

	(void)state;
	full_run(&r, "r;touch PWNED;#", &f);
	f.have_replay = 0;
	r.peak_gbps = NAN;
	free(r.profile.file);
	r.profile.file = NULL;
	gaps_compute(&r, &f);
	assert_int_equal(r.ngaps, 3);
	assert_string_equal(gap(r.gaps, r.ngaps, "no replay:")->command,
			    "tko run 'r;touch PWNED;#'/capture/kernels/* --json"
			    " 'r;touch PWNED;#/analysis/replay.json'");
	assert_string_equal(gap(r.gaps, r.ngaps, "no measured peak")->command,
			    "tko env --measure --json 'r;touch PWNED;#/env.json'");
	assert_string_equal(gap(r.gaps, r.ngaps, "no whole-step profile")->command,
			    "tko investigate --profile TRACE.json 'r;touch PWNED;#'");
	an_run_release(&r);
}

/* Library calls untimed without a profile: the profile gap says so. */
static void test_library_calls_without_profile(void **state)
{
	struct an_run r;
	struct gaps_facts f;

	(void)state;
	full_run(&r, "RUN", &f);
	free(r.profile.file);
	r.profile.file = NULL;
	r.nlibcalls = 1;
	gaps_compute(&r, &f);
	assert_int_equal(r.ngaps, 1);
	assert_non_null(gap(r.gaps, r.ngaps, "no whole-step profile, and library calls"));
	r.nlibcalls = 0;	/* an_run_release frees by the table; no libcall array was made */
	an_run_release(&r);
}

/* Kernel gaps: no time (replay command for its dir), ambiguous ISA, PTX registers, bytes. */
static void test_kernel_gaps(void **state)
{
	struct an_run r;
	struct gaps_facts f;
	struct an_kernel *a, *b;
	const struct an_gap *g;

	(void)state;
	full_run(&r, "RUN", &f);
	f.have_replay = 0;
	f.have_disassembler = 0;
	a = an_run_add_kernel(&r);
	a->kernel_dir = xstrdup("capture/kernels/0001-triton_poi");
	a->isa.match = xstrdup("ambiguous");
	a->isa.candidates = 3;
	b = an_run_add_kernel(&r);
	b->time_ms = 0.1;
	b->bytes = 1024;
	b->isa.file = xstrdup("cache/triton/H/k.ptx");
	b->isa.isa = xstrdup("ptx");
	gaps_compute(&r, &f);

	assert_int_equal(a->ngaps, 3);
	g = gap(a->gaps, a->ngaps, "no time:");
	assert_non_null(g);
	assert_string_equal(g->command, "tko run RUN/capture/kernels/0001-triton_poi --json"
			    " RUN/analysis/replay.json");
	g = gap(a->gaps, a->ngaps, "no ISA: 3 compiled configs");
	assert_non_null(g);
	assert_null(g->command);	/* captured: nothing to rerun */
	g = gap(a->gaps, a->ngaps, "no byte count");
	assert_non_null(g);
	assert_null(g->command);

	assert_int_equal(b->ngaps, 1);
	g = gap(b->gaps, b->ngaps, "registers per thread unknown");
	assert_non_null(g);
	assert_string_equal(g->command, "tko isa RUN/cache/triton/H/k.cubin");
	an_run_release(&r);
}

/* An uncaptured kernel with no ISA: recapture; a PTX kernel with a disassembler: no gap. */
static void test_uncaptured_kernel(void **state)
{
	struct an_run r;
	struct gaps_facts f;
	struct an_kernel *a, *b;
	const struct an_gap *g;

	(void)state;
	full_run(&r, "RUN", &f);
	a = an_run_add_kernel(&r);
	a->bytes = 8;
	b = an_run_add_kernel(&r);
	b->time_ms = 0.1;
	b->bytes = 8;
	b->isa.file = xstrdup("cache/triton/H/k.ptx");
	b->isa.isa = xstrdup("ptx");
	gaps_compute(&r, &f);
	g = gap(a->gaps, a->ngaps, "no time:");
	assert_non_null(g);
	assert_string_equal(g->command, "tko investigate --out RUN2 -- python3 your_model.py");
	g = gap(a->gaps, a->ngaps, "no ISA: no compiled binary");
	assert_non_null(g);
	assert_string_equal(g->command, "tko investigate --out RUN2 -- python3 your_model.py");
	assert_int_equal(b->ngaps, 0);
	an_run_release(&r);
}

/*
 * A RUN that tko capture made from `./model.sh` with nothing captured, as
 * tko-run.json records it: exit status, signal, launch events, versions.
 * The run's gaps go to *r; *c is the outcome (exit 0, found, torch, 1 GPU).
 */
static void captured_nothing(struct an_run *r, struct gaps_facts *f, struct an_capture_outcome *c)
{
	an_run_init(r);
	r->run = xstrdup("RUN");
	r->command = xstrdup("./model.sh");
	r->capture_dirs = 0;	/* as analysis counts them: no kernel directory */
	memset(f, 0, sizeof(*f));
	memset(c, 0, sizeof(*c));
	c->recorded = c->command_found = c->torch = 1;
	c->signal = RF_I64_NONE;
	c->gpus = 1;
	f->capture = c;
}

/* The one gap of a command that launched no kernel: its sentence and command. */
static void assert_only_gap(struct an_run *r, const struct gaps_facts *f, const char *what,
			    const char *command)
{
	gaps_compute(r, f);
	assert_int_equal(r->ngaps, 1);
	assert_string_equal(r->gaps[0].what, what);
	assert_string_equal(r->gaps[0].command, command);
	an_run_release(r);
}

/*
 * tko-run.json says what happened, and with no kernel launched that is the
 * only gap: a log, a cache, a peak or a profile would not help.
 */
static void test_capture_launched_nothing(void **state)
{
	struct an_run r;
	struct gaps_facts f;
	struct an_capture_outcome c;
	const char *again = "tko investigate --out RUN2 -- ./model.sh";

	(void)state;
	captured_nothing(&r, &f, &c);
	c.command_found = 0;
	c.exit_status = 127;
	assert_only_gap(&r, &f, "no capture: the command could not be started (exit status 127:"
			" not found or not executable)", again);
	captured_nothing(&r, &f, &c);
	c.exit_status = 1;
	assert_only_gap(&r, &f, "no capture: the command failed (exit status 1; its own output"
			" says why) before it launched any Triton kernel", again);
	captured_nothing(&r, &f, &c);
	c.exit_status = 137;
	c.signal = 9;
	assert_only_gap(&r, &f, "no capture: the command was ended by signal 9 (exit status 137)"
			" before it launched any Triton kernel", again);
	captured_nothing(&r, &f, &c);
	c.torch = 0;
	c.gpus = 0;
	assert_only_gap(&r, &f, "no capture: the command ran (exit status 0) and launched no"
			" Triton kernel: torch is not importable here (RUN/env.json), and the"
			" kernels come from torch.compile", "tko env");
	captured_nothing(&r, &f, &c);
	c.gpus = 0;
	assert_only_gap(&r, &f, "no capture: the command ran (exit status 0) and launched no"
			" Triton kernel: no GPU was found (RUN/env.json)", "tko env");
	captured_nothing(&r, &f, &c);
	assert_only_gap(&r, &f, "no capture: the command ran (exit status 0) and launched no"
			" Triton kernel: does it run a torch.compile'd model (or a Triton kernel)"
			" on the GPU?", again);
	/* no env.json: what torch and the GPUs were is unknown, so not claimed */
	captured_nothing(&r, &f, &c);
	c.torch = 0;
	c.gpus = -1;
	assert_only_gap(&r, &f, "no capture: the command ran (exit status 0) and launched no"
			" Triton kernel: does it run a torch.compile'd model (or a Triton kernel)"
			" on the GPU?", again);
}

/* Kernels ran (the log, launch events) but none was saved: why, and what that costs. */
static void test_capture_kernels_not_saved(void **state)
{
	struct an_run r;
	struct gaps_facts f;
	struct an_capture_outcome c;
	const char *cost = "; the arguments' shapes, dtypes and strides are unknown and no kernel"
			   " can be replayed (times are the autotuner's, where it timed any)";
	char re[] = "^mm", *want;

	(void)state;
	captured_nothing(&r, &f, &c);
	c.exit_status = 3;
	an_run_add_kernel(&r);	/* the log names one */
	gaps_compute(&r, &f);
	want = xstrfmt("no capture: the command failed (exit status 3; its own output says why)%s",
		       cost);
	assert_string_equal(r.gaps[0].what, want);
	free(want);
	assert_non_null(gap(r.gaps, r.ngaps, "no measured peak bandwidth"));
	an_run_release(&r);

	captured_nothing(&r, &f, &c);
	c.launches = 4;
	c.kernels_regex = re;
	gaps_compute(&r, &f);
	want = xstrfmt("no capture: the command ran (exit status 0), but no kernel it launched"
		       " matched --kernels '^mm'%s", cost);
	assert_string_equal(r.gaps[0].what, want);
	free(want);
	assert_string_equal(r.gaps[0].command, "tko investigate --out RUN2 -- ./model.sh");
	an_run_release(&r);
}

/*
 * A RUN tko capture made from `./model.sh` whose kernels ran and were
 * saved (40 launches, a replay, a peak) but whose log, Triton cache and
 * profile are missing although tko-run.json's env_set lists TORCH_LOGS,
 * TRITON_CACHE_DIR and TKO_PROFILE_DIR.
 */
static void captured_some(struct an_run *r, struct gaps_facts *f, struct an_capture_outcome *c)
{
	captured_nothing(r, f, c);
	r->capture_dirs = 2;
	r->peak_gbps = 4000;
	f->have_replay = 1;
	c->launches = 40;
	c->torch_logs_set = "+inductor";
	c->triton_cache_set = c->profile_set = 1;
}

/* What tko capture already set is not suggested again: the gaps say it was set, and what can still have kept the file out. */
static void test_capture_set_but_missing(void **state)
{
	struct an_run r;
	struct gaps_facts f;
	struct an_capture_outcome c;

	(void)state;
	captured_some(&r, &f, &c);
	gaps_compute(&r, &f);
	assert_int_equal(r.ngaps, 3);
	assert_string_equal(r.gaps[0].what, "no TORCH_LOGS=+inductor log: no autotune times and no"
			    " user source lines; tko capture set TORCH_LOGS=+inductor (tko-run.json's"
			    " env_set), yet the RUN's logs have no Inductor line. With it, torch logs"
			    " 'CachingAutotuner gets N configs' for each Inductor kernel a process"
			    " compiles or loads, except a graph's kernels its static launcher (on by"
			    " default) restores from an FX graph cache, and tko capture gave it a new"
			    " one (TORCHINDUCTOR_CACHE_DIR=RUN/cache/inductor). So the kernels are"
			    " hand-written Triton, the command used another FX graph cache (it changed"
			    " TORCHINDUCTOR_CACHE_DIR, or a remote one), or it changed the logging"
			    " itself (TORCH_LOGS removed before torch was imported, or the"
			    " torch._inductor loggers' level raised)");
	assert_null(r.gaps[0].command);
	assert_string_equal(r.gaps[1].what, "no Triton cache in the RUN (cache/triton): no ISA; tko"
			    " capture set TRITON_CACHE_DIR=RUN/cache/triton (tko-run.json's env_set),"
			    " yet no kernel was compiled there though tko's hook recorded 40 launches."
			    " Triton writes every kernel it compiles to TRITON_CACHE_DIR, and torch"
			    " every kernel it restores from its FX graph cache, so the command (or a"
			    " library it uses) changed TRITON_CACHE_DIR, triton.knobs.cache.dir or"
			    " TRITON_CACHE_MANAGER itself");
	assert_null(r.gaps[1].command);	/* no log to say where it went */
	assert_string_equal(r.gaps[2].what, "no whole-step profile: shares are of the Triton kernel"
			    " time only (tko capture watched the command's 40 Triton launches for a"
			    " steady state and profiled none: it waits for 200 launches"
			    " (TKO_PROFILE_QUIET) of kernels already seen and a launch sequence"
			    " repeating three times, and a CUDA graph's replays never reach it; run"
			    " more steps, or give a torch.profiler, rocprof or nsys file)");
	assert_string_equal(r.gaps[2].command, "tko investigate --profile TRACE.json RUN");
	an_run_release(&r);

	/* with the log: Inductor's "Triton cache dir: P" line says where the cache went */
	captured_some(&r, &f, &c);
	f.have_log = 1;
	c.launches = 1;
	c.errors = 2;
	gaps_compute(&r, &f);
	assert_int_equal(r.ngaps, 2);
	assert_non_null(strstr(r.gaps[0].what, " though tko's hook recorded 1 launch. Triton"));
	assert_string_equal(r.gaps[0].command, "grep -n 'Triton cache dir' RUN/log/model.log");
	assert_non_null(strstr(r.gaps[1].what, ", and a CUDA graph's replays never reach it (or the"
			       " profiler failed: RUN/capture/events.jsonl's error events say); run"
			       " more steps"));
	an_run_release(&r);

	/* no launch recorded: no steady state to profile, no kernel compiled */
	captured_some(&r, &f, &c);
	c.launches = 0;
	gaps_compute(&r, &f);
	assert_string_equal(r.gaps[1].what, "no Triton cache in the RUN (cache/triton): no ISA; tko"
			    " capture set TRITON_CACHE_DIR=RUN/cache/triton (tko-run.json's env_set),"
			    " but no Triton kernel was compiled there, and tko's hook recorded no"
			    " launch (RUN/capture/events.jsonl)");
	assert_string_equal(r.gaps[2].what, "no whole-step profile: shares are of the Triton kernel"
			    " time only (tko capture profiles a steady state of the Triton launches its"
			    " hook sees, and it recorded none (RUN/capture/events.jsonl); give a"
			    " torch.profiler, rocprof or nsys file)");
	an_run_release(&r);
}

/*
 * A kernel with no ISA in a RUN whose Triton cache stayed empty although
 * tko capture set TRITON_CACHE_DIR: the whole-run gap says why, so the
 * kernel's gap points there instead of suggesting the same capture again.
 * Without that env_set (an older capture), or in a RUN assembled by hand,
 * capturing with tko is still the advice.
 */
static void test_no_isa_in_captured_run(void **state)
{
	const char *again = "tko investigate --out RUN2 -- ./model.sh";
	struct an_run r;
	struct gaps_facts f;
	struct an_capture_outcome c;
	const struct an_gap *g;
	struct an_kernel *k;

	(void)state;
	captured_some(&r, &f, &c);
	k = an_run_add_kernel(&r);	/* not saved: no kernel_dir */
	gaps_compute(&r, &f);
	assert_non_null(gap(r.gaps, r.ngaps, "no Triton cache in the RUN (cache/triton): no ISA; tko"
			    " capture set TRITON_CACHE_DIR"));
	g = gap(k->gaps, k->ngaps, "no ISA:");
	assert_non_null(g);
	assert_string_equal(g->what, "no ISA: no Triton cache in the RUN (the whole-run gap says why)");
	assert_null(g->command);
	an_run_release(&r);

	captured_some(&r, &f, &c);
	c.triton_cache_set = 0;
	k = an_run_add_kernel(&r);
	gaps_compute(&r, &f);
	g = gap(k->gaps, k->ngaps, "no ISA:");
	assert_non_null(g);
	assert_string_equal(g->what, "no ISA: no compiled binary of this kernel for its arch in the"
			    " Triton cache");
	assert_string_equal(g->command, again);
	an_run_release(&r);

	captured_some(&r, &f, &c);
	f.capture = NULL;	/* no tko-run.json */
	k = an_run_add_kernel(&r);
	gaps_compute(&r, &f);
	g = gap(k->gaps, k->ngaps, "no ISA:");
	assert_non_null(g);
	assert_string_equal(g->command, again);
	an_run_release(&r);
}

/* The user's own TORCH_LOGS, which tko capture keeps: without +inductor, add it; with it, theirs is what was set. */
static void test_capture_kept_torch_logs(void **state)
{
	struct an_run r;
	struct gaps_facts f;
	struct an_capture_outcome c;

	(void)state;
	captured_some(&r, &f, &c);
	c.torch_logs_set = NULL;
	c.torch_logs_kept = "recompiles, inductor";	/* INFO: no debug lines */
	gaps_compute(&r, &f);
	assert_string_equal(r.gaps[0].what, "no TORCH_LOGS=+inductor log: no autotune times and no"
			    " user source lines (the command ran with your own TORCH_LOGS='recompiles,"
			    " inductor', which tko capture leaves as it is (tko-run.json's env_kept);"
			    " add +inductor to it)");
	assert_string_equal(r.gaps[0].command, "TORCH_LOGS='recompiles, inductor,+inductor' tko"
			    " investigate --out RUN2 -- ./model.sh");
	an_run_release(&r);

	captured_some(&r, &f, &c);
	c.torch_logs_set = NULL;
	c.torch_logs_kept = "dynamo, +inductor";
	gaps_compute(&r, &f);
	assert_non_null(gap(r.gaps, r.ngaps, "no TORCH_LOGS=+inductor log: no autotune times and"
			    " no user source lines; the command ran with your TORCH_LOGS='dynamo,"
			    " +inductor' (tko-run.json's env_kept), yet the RUN's logs have no"
			    " Inductor line."));
	assert_null(r.gaps[0].command);
	an_run_release(&r);
}

/* A log tko failed to write says so; a manifest that lists no setting (an older tko) keeps the old advice. */
static void test_capture_log_error(void **state)
{
	struct an_run r;
	struct gaps_facts f;
	struct an_capture_outcome c;
	char why[] = "writing '/w/RUN/log/model.log' failed: the log is incomplete";

	(void)state;
	captured_some(&r, &f, &c);
	c.log_error = why;
	gaps_compute(&r, &f);
	assert_string_equal(r.gaps[0].what, "no TORCH_LOGS=+inductor log: no autotune times and no"
			    " user source lines; tko capture set TORCH_LOGS=+inductor (tko-run.json's"
			    " env_set), but writing '/w/RUN/log/model.log' failed: the log is"
			    " incomplete (tko-run.json's log_error)");
	assert_string_equal(r.gaps[0].command, "tko investigate --out RUN2 -- ./model.sh");
	an_run_release(&r);

	captured_some(&r, &f, &c);
	c.torch_logs_set = NULL;
	c.triton_cache_set = c.profile_set = 0;
	gaps_compute(&r, &f);
	assert_int_equal(r.ngaps, 3);
	assert_string_equal(r.gaps[0].command, "TORCH_LOGS=+inductor (tko capture sets it)");
	assert_string_equal(r.gaps[1].what, "no Triton cache in the RUN (cache/triton): no ISA");
	assert_string_equal(r.gaps[1].command, "TRITON_CACHE_DIR=RUN/cache/triton (tko capture sets it)");
	assert_non_null(strstr(r.gaps[2].what, "(tko capture records one in RUN/profile/; or give"));
	an_run_release(&r);
}

/* --measure ran and measured nothing: env.json's bandwidth_error says why. */
static void test_measure_failed(void **state)
{
	struct an_run r;
	struct gaps_facts f;

	(void)state;
	full_run(&r, "RUN", &f);
	r.peak_gbps = NAN;
	f.bandwidth_error = "no GPU (torch sees none)";
	gaps_compute(&r, &f);
	assert_int_equal(r.ngaps, 1);
	assert_string_equal(r.gaps[0].what, "no measured peak bandwidth: footprint rates are not"
			    " compared with anything (--measure measured nothing: no GPU (torch sees"
			    " none) (RUN/env.json's bandwidth_error); run this where torch sees the"
			    " GPU, or pass --peak-gbps)");
	assert_string_equal(r.gaps[0].command, "tko env --measure --json RUN/env.json");
	an_run_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_missing),
		cmocka_unit_test(test_everything_missing),
		cmocka_unit_test(test_capture_without_replay),
		cmocka_unit_test(test_hostile_run_name),
		cmocka_unit_test(test_library_calls_without_profile),
		cmocka_unit_test(test_kernel_gaps),
		cmocka_unit_test(test_uncaptured_kernel),
		cmocka_unit_test(test_capture_launched_nothing),
		cmocka_unit_test(test_capture_kernels_not_saved),
		cmocka_unit_test(test_capture_set_but_missing),
		cmocka_unit_test(test_no_isa_in_captured_run),
		cmocka_unit_test(test_capture_kept_torch_logs),
		cmocka_unit_test(test_capture_log_error),
		cmocka_unit_test(test_measure_failed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
