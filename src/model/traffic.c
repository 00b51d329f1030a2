/* The bytes a launch moves and the rates made from them (traffic.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "model/capture.h"
#include "model/traffic.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/plural.h"
#include "banned.h"

struct span {
	long long storage;	/* storage index */
	long long lo, hi;	/* bytes [lo, hi) */
};

struct spans {
	struct span *v;
	size_t nr, alloc;
};

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->storage != y->storage)
		return x->storage < y->storage ? -1 : 1;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Larger than any device's memory: a capture.json past it is hostile, not a tensor. */
#define SPAN_MAX (1LL << 50)

/* The byte range a tensor argument's view spans; 0 when it is empty, -1 when unreadable. */
static int arg_span(const struct capture_arg *a, struct span *r)
{
	const json_t *shape = a->shape, *stride = a->stride;
	long long es = a->element_size, off = a->storage_offset;
	long long last = 0;
	size_t i;

	if (!json_is_array(shape) || !json_is_array(stride) ||
	    json_array_size(shape) != json_array_size(stride) || es <= 0 || es > 64 ||
	    off < 0 || off > SPAN_MAX)
		return -1;
	for (i = 0; i < json_array_size(shape); i++) {
		long long n = json_integer_value(json_array_get(shape, i));
		long long s = json_integer_value(json_array_get(stride, i));

		if (n <= 0)
			return 0;
		s = s < 0 ? (s < -SPAN_MAX ? SPAN_MAX : -s) : s;
		/* every term and their sum stay under SPAN_MAX: no overflow below */
		if (n > SPAN_MAX || s > SPAN_MAX || (s && n - 1 > (SPAN_MAX - last) / s))
			return -1;
		last += (n - 1) * s;
	}
	r->storage = a->storage;
	r->lo = off * es;
	r->hi = (off + last + 1) * es;
	return r->storage >= 0 ? 1 : -1;
}

/* Bytes in the union of the spans, per storage; *pieces += the disjoint ranges. */
static double union_bytes(struct spans *s, long *pieces)
{
	long long total = 0, end = -1, storage = -1;
	size_t i;

	if (s->nr)
		qsort(s->v, s->nr, sizeof(*s->v), cmp_span);
	for (i = 0; i < s->nr; i++) {
		const struct span *r = &s->v[i];

		if (r->storage != storage || r->lo >= end) {
			(*pieces)++;
			total += r->hi - r->lo;
			storage = r->storage;
			end = r->hi;
		} else if (r->hi > end) {
			total += r->hi - end;
			end = r->hi;
		}
	}
	return (double)total;
}

static void add_span(struct spans *s, const struct span *r)
{
	ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	s->v[s->nr++] = *r;
}

long long traffic_footprint(const struct capture_doc *c)
{
	struct spans all = { NULL, 0, 0 };
	long pieces = 0;
	double total;
	size_t i;

	for (i = 0; i < c->nargs; i++) {
		struct span r;
		int got;

		if (!capture_arg_is_tensor(&c->args[i]))
			continue;
		if ((got = arg_span(&c->args[i], &r)) < 0) {
			free(all.v);
			return -1;
		}
		if (got)
			add_span(&all, &r);
	}
	total = union_bytes(&all, &pieces);
	free(all.v);
	return (long long)total;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* An Inductor size argument: xnumel, ynumel, rnumel, r0_numel, r1_numel. */
static int numel_arg(const char *name)
{
	size_t n = strlen(name);

	return n >= 6 && !strcmp(name + n - 5, "numel") &&
	       (n == 6 || (name[0] == 'r' && name[n - 6] == '_'));
}

/* The lanes the kernel runs at most: the product of its size arguments; 0 when it has none. */
static double lanes(const struct capture_doc *c)
{
	double p = 0;
	size_t i;

	for (i = 0; i < c->nargs; i++) {
		const struct capture_arg *a = &c->args[i];

		if (!a->name || !numel_arg(a->name) || !json_is_integer(a->value) ||
		    json_integer_value(a->value) <= 0)
			continue;
		p = (p ? p : 1) * (double)json_integer_value(a->value);
	}
	return p;
}

/* How a kernel uses one argument. */
struct use {
	int read, write;
	int known;		/* from the source or Inductor's names, not assumed */
	long gathers, scatters;	/* its loads / stores through a loaded index */
	long atomic_scatters;	/* its atomics through a loaded index */
	long loads, stores, atomics;
};

static struct use use_of(const char *name, const struct traffic_source *src,
			 const struct capture_doc *c)
{
	const struct traffic_use *m = src ? traffic_source_get(src, name) : NULL;
	struct use u = { 0, 0, 0, 0, 0, 0, 0, 0, 0 };

	if (m && (m->loads || m->stores || m->atomics)) {
		u.read = m->loads || m->atomics;
		u.write = m->stores || m->atomics;
		u.loads = m->loads;
		u.stores = m->stores;
		u.atomics = m->atomics;
		u.known = 1;
	} else if (starts(name, "in_out_ptr")) {
		u.read = u.write = u.known = 1;
	} else if (starts(name, "in_ptr")) {
		u.read = u.known = 1;
	} else if (starts(name, "out_ptr")) {
		u.write = u.known = 1;
	}
	if (capture_mutates(c, name)) {
		u.write = 1;
		/* only the source can say an in-place argument is not read */
		u.read |= !(m && (m->loads || m->stores || m->atomics));
		u.known = 1;
	}
	if (m && m->indirect) {
		u.gathers = m->gathers;
		u.scatters = m->scatters;
		u.atomic_scatters = m->atomic_scatters;
	}
	return u;
}

static void note_estimate(struct traffic *t, struct buf *why, const char *what)
{
	if (why->len)
		buf_adds(why, "; ");
	buf_adds(why, what);
	t->estimate = 1;
}

/* Charges one tensor argument: its span, or its gather / scatter bound. */
static void charge(struct traffic *t, const struct span *r, const struct capture_arg *a,
		   const struct use *u, double lane_bound, struct spans *rd, struct spans *wr,
		   struct buf *why)
{
	double es = (double)a->element_size, span = (double)(r->hi - r->lo);
	double bound = lane_bound > 0 ? fmin(span, lane_bound * es) : span;
	const char *name = a->name;
	/*
	 * An atomic read-modify-writes what it touches: an atomic_add into an
	 * embedding's gradient through the token ids touches the rows the
	 * tokens name, not the table (an H200 run charged a 131 MB table both
	 * ways to a 0.045 ms kernel: 7798 GB/s).
	 */
	long reads = u->loads + u->atomics, writes = u->stores + u->atomics;
	int gathered = u->read && reads > 0 && u->gathers + u->atomic_scatters >= reads;
	int scattered = u->write && writes > 0 && u->scatters + u->atomic_scatters >= writes;

	/*
	 * No tl.load / tl.store starts from it and its name says nothing: a
	 * tensor descriptor or block pointer may still read it, so it is
	 * charged once, as read, and the count is an estimate.
	 */
	if (!u->known) {
		add_span(rd, r);
		buf_addf(why, "%s%s: access unknown, counted once as read", why->len ? "; " : "", name);
		t->estimate = 1;
		return;
	}
	if (u->read) {
		if (gathered) {
			t->reads++;
			t->read_bytes += bound;
		} else {
			add_span(rd, r);
		}
	}
	if (u->write) {
		if (scattered) {
			t->writes++;
			t->write_bytes += bound;
		} else {
			add_span(wr, r);
		}
	}
	if ((gathered && u->read) || (scattered && u->write)) {
		char *what = xstrfmt("%s: %s through a loaded index, at most %s", name,
				     u->atomic_scatters ? "updated atomically" :
				     gathered ? "gathered" : "scattered",
				     lane_bound > 0 ? "one element per lane" : "its span");

		t->gathered++;
		note_estimate(t, why, what);
		free(what);
	}
}

static void reset(struct traffic *t)
{
	memset(t, 0, sizeof(*t));
	t->bytes = -1;
}

int traffic_count(struct traffic *t, const struct capture_doc *c, const struct traffic_source *src)
{
	struct spans rd = { NULL, 0, 0 }, wr = { NULL, 0, 0 };
	struct buf why = BUF_INIT;
	double lane_bound = lanes(c);
	size_t i;

	reset(t);
	for (i = 0; i < c->nargs; i++) {
		const struct capture_arg *a = &c->args[i];
		struct span r;
		struct use u;
		int got;

		if (!capture_arg_is_tensor(a))
			continue;
		if ((got = arg_span(a, &r)) < 0 || !a->name) {
			t->note = xstrfmt("argument %zu of capture.json has no readable shape, stride,"
					  " offset or storage", i);
			free(rd.v);
			free(wr.v);
			buf_release(&why);
			return -1;
		}
		if (!got)
			continue;
		u = use_of(a->name, src, c);
		charge(t, &r, a, &u, lane_bound, &rd, &wr, &why);
	}
	if (!rd.nr && !wr.nr && !t->reads && !t->writes) {
		t->note = xstrdup("capture.json lists no tensor argument with elements");
		buf_release(&why);
		return -1;
	}
	t->read_bytes += union_bytes(&rd, &t->reads);
	t->write_bytes += union_bytes(&wr, &t->writes);
	t->bytes = t->read_bytes + t->write_bytes;
	t->note = xstrfmt("%ld tensor%s read, %ld written%s%s%s", t->reads, plural(t->reads),
			  t->writes,
			  src ? "" : " (no kernel source: access from argument names)",
			  why.len ? "; estimate: " : "", why.len ? why.buf : "");
	free(rd.v);
	free(wr.v);
	buf_release(&why);
	return 0;
}

struct traffic_use *traffic_source_get(const struct traffic_source *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->v[i].name, name))
			return &s->v[i];
	return NULL;
}

struct traffic_use *traffic_source_add(struct traffic_source *s, const char *name)
{
	struct traffic_use *u = traffic_source_get(s, name);

	if (u)
		return u;
	ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	u = &s->v[s->nr++];
	memset(u, 0, sizeof(*u));
	u->name = xstrdup(name);
	return u;
}

void traffic_source_release(struct traffic_source *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		free(s->v[i].name);
	free(s->v);
	s->v = NULL;
	s->nr = s->alloc = 0;
}

int traffic_of_capture(struct traffic *t, const struct capture_doc *c, const char *kernel_py,
		       traffic_reader *read)
{
	struct traffic_source src = TRAFFIC_SOURCE_INIT;
	int have = read && kernel_py && read(&src, kernel_py, c->kernel) > 0;
	int rc = traffic_count(t, c, have ? &src : NULL);
	double gb = isnan(c->inductor_num_bytes) ? -1 : c->inductor_num_bytes;
	char *why;

	traffic_source_release(&src);
	if (rc == 0 || gb <= 0)
		return rc;
	why = t->note;
	t->note = xstrfmt("Inductor's kernel_num_gb, tko could not count (%s)", why);
	free(why);
	t->bytes = gb;
	t->estimate = 1;
	return 0;
}

int traffic_of_files(struct traffic *t, const char *capture_json, const char *kernel_py,
		     traffic_reader *read, struct buf *err)
{
	struct capture_doc c;
	int rc;

	reset(t);
	capture_init(&c);
	rc = capture_load(&c, capture_json, err) < 0 ? -1 :
	     traffic_of_capture(t, &c, kernel_py, read);
	capture_release(&c);
	return rc;
}

void traffic_release(struct traffic *t)
{
	free(t->note);
	reset(t);
}

double traffic_gbps(double bytes, double ms)
{
	return bytes > 0 && ms > 0 ? bytes / (ms * 1e-3) / 1e9 : -1;
}

char *traffic_rate_doubt(const struct traffic *t, double gbps, double copy_gbps)
{
	if (!(copy_gbps > 0) || !(gbps > 0) || gbps <= TRAFFIC_OVER_COPY * copy_gbps)
		return NULL;
	if (t->estimate)
		return xstrfmt("bytes over-counted: %s", t->gathered ?
			       "a gather's or scatter's bound" : "the byte count is an estimate");
	if (t->bytes < TRAFFIC_CACHE_BYTES)
		return xstrfmt("L2-resident reuse: %.1f MB can stay in cache between accesses",
			       t->bytes / 1e6);
	return xstrdup("bytes over-counted: an argument spans more than the kernel touches"
		       " (a slice or a broadcast read through its index)");
}

const char *traffic_label(const struct traffic *t)
{
	return t->estimate ? "estimate: " : "";
}

json_t *traffic_json(const struct traffic *t)
{
	if (t->bytes < 0)
		return json_pack("{s:n, s:n, s:n, s:b, s:s}", "bytes", "read_bytes", "write_bytes",
				 "estimate", 1, "note", t->note ? t->note : "unknown");
	return json_pack("{s:f, s:f, s:f, s:b, s:s}", "bytes", t->bytes, "read_bytes", t->read_bytes,
			 "write_bytes", t->write_bytes, "estimate", t->estimate, "note", t->note);
}
