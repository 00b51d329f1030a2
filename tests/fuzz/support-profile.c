/*
 * Helpers the profile targets share (fuzz.h): an input written to a file
 * in the private directory, a profile read as `tko profile` reads it or
 * by one reader through a window of a chosen size, the accounting checked
 * against what attrib.h promises, and two reads compared.
 *
 * The checks abort(), so libFuzzer reports a broken promise as a crash:
 *   - a profile read without error has GPU activities;
 *   - every activity has a finite duration >= 0, and either all have a
 *     finite start and end (a timeline) or none has a start (a table);
 *   - the groups' busy times add up to the profile's busy time, the
 *     shares to 1, the calls to the activities' calls;
 *   - on a timeline, busy <= span and, without clock jumps, busy + idle
 *     = span (last end - first start);
 *   - no step holds more activities than there are.
 * Sums are compared to 1e-9 of their size: the sweep adds a few thousand
 * terms at most here (inputs are at most 64 KiB), whose rounding is many
 * orders of magnitude below that.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "profile/attrib.h"
#include "profile/detect.h"
#include "profile/tojson.h"
#include "report/profile_text.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"



static int near(double a, double b, double scale)
{
	return fabs(a - b) <= 1e-9 * fabs(scale) + 1e-12;
}

const char *fuzz_write_input(const char *name, const uint8_t *data, size_t size)
{
	static struct buf path = BUF_INIT;
	struct buf err = BUF_INIT;

	buf_reset(&path);
	buf_addf(&path, "%s/%s", fuzz_tmpdir(), name);
	if (write_file_atomic(path.buf, data, size, &err) < 0)
		abort();
	buf_release(&err);
	return path.buf;
}

static void check_acts(const struct prof *p)
{
	int table = p->nacts && isnan(p->acts[0].start);
	size_t i;

	for (i = 0; i < p->nacts; i++) {
		const struct prof_act *a = &p->acts[i];

		FUZZ_CHECK(isfinite(a->dur) && a->dur >= 0);
		if (table)
			FUZZ_CHECK(isnan(a->start));
		else
			FUZZ_CHECK(isfinite(a->start) && isfinite(a->start + a->dur));
	}
}

static void check_groups(const struct prof *p)
{
	double busy = 0, share = 0;
	long calls = 0, acalls = 0;
	size_t i;

	for (i = 0; i < p->ngroups; i++) {
		const struct prof_group *g = &p->groups[i];

		FUZZ_CHECK(g->busy >= -1e-9 * p->busy - 1e-12);
		busy += g->busy;
		share += g->share;
		calls += g->calls;
	}
	for (i = 0; i < p->nacts; i++)
		acalls += p->acts[i].calls;
	FUZZ_CHECK(calls == acalls);
	FUZZ_CHECK(isfinite(p->busy) && p->busy >= 0);
	FUZZ_CHECK(near(busy, p->busy, p->busy));
	if (p->busy > 0)
		FUZZ_CHECK(near(share, 1, 1));
}

static void check_timeline(const struct prof *p)
{
	double span = p->last - p->first;
	size_t i;

	if (!p->timeline)
		return;
	FUZZ_CHECK(isfinite(span) && span >= 0);
	FUZZ_CHECK(p->busy <= span + 1e-9 * span + 1e-12);
	FUZZ_CHECK(p->idle >= -1e-9 * span - 1e-12);
	if (!p->clock_jumps)
		FUZZ_CHECK(near(p->busy + p->idle, span, span));
	for (i = 0; i < p->nsteps; i++)
		FUZZ_CHECK(p->steps[i].acts >= 0 && (size_t)p->steps[i].acts <= p->nacts);
}

/* Attributes a profile that was read, checks it, renders it, and notes what it came to. */
static void attribute(struct prof *p, struct fuzz_prof *out)
{
	check_acts(p);
	prof_attribute(p);
	check_groups(p);
	check_timeline(p);
	prof_write_json(fuzz_sink(), p, 0);
	prof_write_json(fuzz_sink(), p, 3);
	profile_print(fuzz_sink(), p, 0);
	profile_print(fuzz_sink(), p, 2);
	out->ngroups = p->ngroups;
	out->nsteps = p->nsteps;
	out->busy = p->busy;
}

static void note_read(const struct prof *p, int ret, struct fuzz_prof *out)
{
	out->ret = ret;
	out->format = p->format;
	out->nacts = p->nacts;
	out->nops = p->nops;
	out->nlaunches = p->nlaunches;
	out->skipped = p->skipped;
	out->partial = p->partial;
}

void fuzz_profile_path(const char *path, struct fuzz_prof *out)
{
	struct prof p;
	int ret;

	memset(out, 0, sizeof(*out));
	prof_init(&p);
	ret = prof_read_path(&p, path, &out->err);
	note_read(&p, ret, out);
	/* an error is one line naming the file; a success says nothing */
	FUZZ_CHECK(ret < 0 ? out->err.len && !strchr(out->err.buf, '\n') && strstr(out->err.buf, path) :
	      !out->err.len);
	if (!ret) {
		FUZZ_CHECK(p.nacts > 0);
		attribute(&p, out);
	}
	prof_release(&p);
}

void fuzz_profile_reader(const char *path, fuzz_prof_reader *reader, enum prof_format format,
			 size_t window, struct fuzz_prof *out)
{
	struct prof_input in;
	struct prof p;
	int ret;

	memset(out, 0, sizeof(*out));
	prof_init(&p);
	p.format = format;
	p.path = xstrdup(path);
	if (input_open(&in, path, &out->err) < 0)
		abort();
	if (window) {
		/* a window of exactly `window` bytes, so ASan sees a read past it */
		free(in.buf);
		in.cap = window;
		in.buf = xmalloc(window + 1);
	}
	ret = reader(&p, &in, &out->err);
	input_close(&in);
	note_read(&p, ret, out);
	if (!ret)
		attribute(&p, out);
	prof_release(&p);
}

void fuzz_prof_same(const struct fuzz_prof *a, const struct fuzz_prof *b)
{
	FUZZ_CHECK(a->ret == b->ret);
	FUZZ_CHECK(a->err.len == b->err.len && (!a->err.len || !strcmp(a->err.buf, b->err.buf)));
	FUZZ_CHECK(a->format == b->format);
	FUZZ_CHECK(a->nacts == b->nacts && a->nops == b->nops && a->nlaunches == b->nlaunches);
	FUZZ_CHECK(a->skipped == b->skipped && a->partial == b->partial);
	FUZZ_CHECK(a->ngroups == b->ngroups && a->nsteps == b->nsteps);
	FUZZ_CHECK(a->busy == b->busy || (isnan(a->busy) && isnan(b->busy)));
}

void fuzz_prof_release(struct fuzz_prof *r)
{
	buf_release(&r->err);
}
