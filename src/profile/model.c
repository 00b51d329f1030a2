/* The profile model's storage: interning, appends, release (prof.h). */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "profile/prof.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

const char *const prof_format_names[PROF_FMT_COUNT] = {
	[PROF_FMT_NONE] = "none",
	[PROF_FMT_KINETO] = "kineto",
	[PROF_FMT_ROCPROFV3_TRACE] = "rocprofv3_kernel_trace",
	[PROF_FMT_ROCPROFV3_STATS] = "rocprof_kernel_stats",
	[PROF_FMT_ROCPROF_V1] = "rocprof_v1",
	[PROF_FMT_NSYS_TRACE] = "nsys_gpu_trace",
	[PROF_FMT_NSYS_SUM] = "nsys_kern_sum",
	[PROF_FMT_NSYS_SQLITE] = "nsys_sqlite",
};

void prof_init(struct prof *p)
{
	memset(p, 0, sizeof(*p));
	p->strings = (struct strmap)STRMAP_INIT;
	p->astrv = 64;
	p->strv = xcalloc(p->astrv, sizeof(*p->strv));
	p->strv[0] = xstrdup("");
	p->nstrv = 1;
	p->first = p->last = NAN;
	p->step_time = NAN;
	p->largest_gap = 0;
}

void prof_release(struct prof *p)
{
	size_t i;

	for (i = 0; i < p->nstrv; i++)
		free(p->strv[i]);
	free(p->strv);
	strmap_release(&p->strings);
	free(p->acts);
	free(p->ops);
	free(p->launches);
	free(p->groups);
	free(p->steps);
	for (i = 0; i < p->nnotes; i++)
		free(p->notes[i]);
	free(p->notes);
	free(p->path);
	free(p->device);
	memset(p, 0, sizeof(*p));
}

/*
 * A copy of s[0..n) that is UTF-8: every byte that is not (Latin-1 in a
 * kernel name, a NUL unescaped from JSON) becomes U+FFFD, so the JSON
 * and the tables tko writes stay valid text. Counted in p->not_utf8.
 */
static char *utf8_or_repaired(struct prof *p, const char *s, size_t n)
{
	struct buf b = BUF_INIT;
	size_t off;

	if (utf8_check(s, n, &off) == 0 && !memchr(s, '\0', n))
		return xstrndup(s, n);
	p->not_utf8++;
	while (n) {
		int bad = utf8_check(s, n, &off) < 0;
		const char *z = memchr(s, '\0', bad ? off : n);

		if (z) {
			off = (size_t)(z - s);
			bad = 1;
		}
		if (!bad) {
			buf_add(&b, s, n);
			break;
		}
		buf_add(&b, s, off);
		buf_adds(&b, "\xef\xbf\xbd");
		s += off + 1;
		n -= off + 1;
	}
	return buf_detach(&b, NULL);
}

uint32_t prof_intern(struct prof *p, const char *s, size_t n)
{
	int added = 0;
	size_t *v;

	if (!n)
		return 0;
	v = strmap_put(&p->strings, s, n, &added);
	if (!added)
		return (uint32_t)*v;
	if (p->nstrv == p->astrv) {
		p->astrv *= 2;
		p->strv = xrealloc(p->strv, p->astrv * sizeof(*p->strv));
	}
	*v = p->nstrv;
	p->strv[p->nstrv] = utf8_or_repaired(p, s, n);
	return (uint32_t)p->nstrv++;
}

const char *prof_str(const struct prof *p, uint32_t id)
{
	return id < p->nstrv ? p->strv[id] : "";
}

/* Grows a vector by one element; returns the new element, zeroed. */
static void *grow(void **v, size_t *nr, size_t *alloc, size_t size)
{
	char *e;

	if (*nr == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 1024;
		*v = xrealloc(*v, *alloc * size);
	}
	e = (char *)*v + (*nr)++ * size;
	memset(e, 0, size);
	return e;
}

struct prof_act *prof_add_act(struct prof *p)
{
	struct prof_act *a = grow((void **)&p->acts, &p->nacts, &p->aacts, sizeof(*a));

	a->start = NAN;
	a->correlation = a->external = -1;
	a->device = a->stream = -1;
	a->calls = 1;
	a->cls = PROF_CLASS_OTHER;
	return a;
}

struct prof_op *prof_add_op(struct prof *p)
{
	struct prof_op *o = grow((void **)&p->ops, &p->nops, &p->aops, sizeof(*o));

	o->external = -1;
	o->tid = -1;
	o->num_warps = o->num_stages = -1;
	return o;
}

struct prof_launch *prof_add_launch(struct prof *p)
{
	struct prof_launch *l = grow((void **)&p->launches, &p->nlaunches, &p->alaunches,
				     sizeof(*l));

	l->correlation = l->external = -1;
	l->start = NAN;
	return l;
}

void prof_note(struct prof *p, const char *fmt, ...)
{
	va_list ap;
	struct buf b = BUF_INIT;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	p->notes = xrealloc(p->notes, (p->nnotes + 1) * sizeof(*p->notes));
	p->notes[p->nnotes++] = buf_detach(&b, NULL);
}

int prof_times_ok(double start, double dur)
{
	if (!(dur >= 0 && dur <= PROF_TIME_MAX))
		return 0;
	return isnan(start) || (start >= -PROF_TIME_MAX && start <= PROF_TIME_MAX);
}

int64_t prof_int(double v, int64_t lo, int64_t hi, int64_t unknown)
{
	/* v < hi + 1: its integer part is at most hi (INT64_MAX rounds up to 2^63, the bound) */
	if (!(v >= (double)lo && v < (double)hi + 1.0))
		return unknown;
	return (int64_t)v;
}
