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
	struct gaps_facts f = { 0, 0, 0, 0 };
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
