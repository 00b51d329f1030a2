/*
 * The Chrome trace reader (chrome.h): a top-level walk over the document
 * that holds one event at a time in the input window (jscan_extent) and
 * picks its fields in place (jc_*).
 */
#include <math.h>
#include <string.h>

#include "profile/chrome.h"
#include "profile/jscan.h"
#include "util/mem.h"
#include "util/plural.h"
#include "banned.h"

/* A span of the input: a string's raw bytes. */
struct span {
	const char *s;
	size_t n;
	int esc;
};

/* The fields of one event that tko keeps. */
struct event {
	struct span ph, cat, name;
	double ts, dur, pid, tid;
	double external, correlation, device, stream, num_warps, num_stages;
	double grid[3], block[3];
	struct span kernel_hash, kernel_file, kernel_kwargs, dtype;
};

static int span_is(const struct span *s, const char *lit)
{
	size_t n = strlen(lit);

	return s->n == n && !memcmp(s->s, lit, n);
}

static int key_is(const char *k, size_t n, const char *lit)
{
	return strlen(lit) == n && !memcmp(k, lit, n);
}

static uint32_t intern_span(struct prof *p, const struct span *s, struct buf *scratch)
{
	if (!s->esc)
		return prof_intern(p, s->s, s->n);
	buf_reset(scratch);
	if (json_unescape(s->s, s->n, scratch) < 0)
		return prof_intern(p, s->s, s->n);
	return prof_intern(p, scratch->buf, scratch->len);
}

static int read_span(struct jcur *c, struct span *s)
{
	if (jc_peek(c) != JT_STRING)
		return jc_skip(c);
	return jc_string(c, &s->s, &s->n, &s->esc);
}

/* A number, or NAN for anything else (pid "Spans", null). */
static int read_num(struct jcur *c, double *v)
{
	enum jtype t = jc_peek(c);

	if (t == JT_NUMBER)
		return jc_number(c, v);
	*v = NAN;
	return jc_skip(c);
}

/* [x, y, z] into v; anything else leaves v as it was. */
static int read_dim3(struct jcur *c, double v[3])
{
	int i = 0, r;

	if (jc_peek(c) != JT_ARRAY)
		return jc_skip(c);
	if (jc_array(c) < 0)
		return -1;
	while ((r = jc_item(c)) == 1) {
		double x = NAN;

		if (read_num(c, &x) < 0)
			return -1;
		if (i < 3)
			v[i++] = x;
	}
	return r;
}

/* The first string of an array ("Input type": ["float", "float"]). */
static int read_first_string(struct jcur *c, struct span *s)
{
	int r, first = 1;

	if (jc_peek(c) != JT_ARRAY)
		return jc_skip(c);
	if (jc_array(c) < 0)
		return -1;
	while ((r = jc_item(c)) == 1) {
		if (first && jc_peek(c) == JT_STRING) {
			if (jc_string(c, &s->s, &s->n, &s->esc) < 0)
				return -1;
		} else if (jc_skip(c) < 0) {
			return -1;
		}
		first = 0;
	}
	return r;
}

static int read_arg(struct jcur *c, const char *k, size_t n, struct event *e)
{
	if (key_is(k, n, "External id"))
		return read_num(c, &e->external);
	if (key_is(k, n, "correlation"))
		return read_num(c, &e->correlation);
	if (key_is(k, n, "device"))
		return read_num(c, &e->device);
	if (key_is(k, n, "stream"))
		return read_num(c, &e->stream);
	if (key_is(k, n, "grid"))
		return read_dim3(c, e->grid);
	if (key_is(k, n, "block"))
		return read_dim3(c, e->block);
	if (key_is(k, n, "kernel_hash"))
		return read_span(c, &e->kernel_hash);
	if (key_is(k, n, "kernel_file"))
		return read_span(c, &e->kernel_file);
	if (key_is(k, n, "kernel_kwargs"))
		return read_span(c, &e->kernel_kwargs);
	if (key_is(k, n, "num_warps"))
		return read_num(c, &e->num_warps);
	if (key_is(k, n, "num_stages"))
		return read_num(c, &e->num_stages);
	if (key_is(k, n, "Input type"))
		return read_first_string(c, &e->dtype);
	return jc_skip(c);
}

static int read_args(struct jcur *c, struct event *e)
{
	const char *k;
	size_t n;
	int r;

	if (jc_peek(c) != JT_OBJECT)
		return jc_skip(c);
	if (jc_object(c) < 0)
		return -1;
	while ((r = jc_key(c, &k, &n)) == 1)
		if (read_arg(c, k, n, e) < 0)
			return -1;
	return r;
}

static int read_field(struct jcur *c, const char *k, size_t n, struct event *e)
{
	if (key_is(k, n, "ph"))
		return read_span(c, &e->ph);
	if (key_is(k, n, "cat"))
		return read_span(c, &e->cat);
	if (key_is(k, n, "name"))
		return read_span(c, &e->name);
	if (key_is(k, n, "ts"))
		return jc_number_or_string(c, &e->ts);
	if (key_is(k, n, "dur"))
		return jc_number_or_string(c, &e->dur);
	if (key_is(k, n, "pid"))
		return read_num(c, &e->pid);
	if (key_is(k, n, "tid"))
		return read_num(c, &e->tid);
	if (key_is(k, n, "args"))
		return read_args(c, e);
	return jc_skip(c);
}

static void event_init(struct event *e)
{
	size_t i;

	memset(e, 0, sizeof(*e));
	e->ts = e->dur = e->pid = e->tid = NAN;
	e->external = e->correlation = e->device = e->stream = NAN;
	e->num_warps = e->num_stages = NAN;
	for (i = 0; i < 3; i++)
		e->grid[i] = e->block[i] = NAN;
}

static int64_t id_or(double v)
{
	return prof_int(v, INT64_MIN, INT64_MAX, -1);
}

static int32_t small_or(double v)
{
	return (int32_t)prof_int(v, -1, INT32_MAX, -1);
}

static void add_act(struct prof *p, const struct event *e, enum prof_act_kind kind,
		    struct buf *scratch)
{
	struct prof_act *a;
	size_t i;

	if (isnan(e->ts) || !prof_times_ok(e->ts, e->dur)) {
		p->skipped++;
		return;
	}
	a = prof_add_act(p);
	a->kind = (uint8_t)kind;
	a->start = e->ts;
	a->dur = e->dur;
	a->name = intern_span(p, &e->name, scratch);
	a->device = small_or(isnan(e->device) ? e->pid : e->device);
	a->stream = small_or(isnan(e->stream) ? e->tid : e->stream);
	a->correlation = id_or(e->correlation);
	a->external = id_or(e->external);
	for (i = 0; i < 3; i++) {
		a->grid[i] = isnan(e->grid[i]) ? 0 : small_or(e->grid[i]);
		a->block[i] = isnan(e->block[i]) ? 0 : small_or(e->block[i]);
	}
}

static void add_op(struct prof *p, const struct event *e, int annotation, struct buf *scratch)
{
	struct prof_op *o;

	if (isnan(e->ts) || !prof_times_ok(e->ts, e->dur)) {
		p->skipped++;
		return;
	}
	o = prof_add_op(p);
	o->start = e->ts;
	o->dur = e->dur;
	o->name = intern_span(p, &e->name, scratch);
	o->tid = small_or(e->tid);
	o->external = id_or(e->external);
	o->annotation = (uint8_t)annotation;
	o->kernel_hash = intern_span(p, &e->kernel_hash, scratch);
	o->kernel_file = intern_span(p, &e->kernel_file, scratch);
	o->kernel_kwargs = intern_span(p, &e->kernel_kwargs, scratch);
	o->dtype = intern_span(p, &e->dtype, scratch);
	o->num_warps = (int16_t)prof_int(e->num_warps, 0, INT16_MAX, -1);
	o->num_stages = (int16_t)prof_int(e->num_stages, 0, INT16_MAX, -1);
}

static void add_launch(struct prof *p, const struct event *e)
{
	struct prof_launch *l;

	if (isnan(e->correlation))
		return;
	l = prof_add_launch(p);
	l->correlation = id_or(e->correlation);
	l->external = id_or(e->external);
	l->start = e->ts;
}

/* Keeps what one complete event says; a malformed event is counted and skipped. */
static void take_event(struct prof *p, const char *s, size_t n, struct buf *scratch)
{
	struct jcur c = { s, s + n };
	struct event e;
	const char *k;
	size_t kn;
	int r;

	event_init(&e);
	if (jc_object(&c) < 0) {
		p->skipped++;
		return;
	}
	while ((r = jc_key(&c, &k, &kn)) == 1)
		if (read_field(&c, k, kn, &e) < 0)
			break;
	if (r != 0) {
		p->skipped++;
		return;
	}
	if (!span_is(&e.ph, "X") || !e.cat.n)
		return;
	if (span_is(&e.cat, "kernel"))
		add_act(p, &e, PROF_ACT_KERNEL, scratch);
	else if (span_is(&e.cat, "gpu_memcpy"))
		add_act(p, &e, PROF_ACT_MEMCPY, scratch);
	else if (span_is(&e.cat, "gpu_memset"))
		add_act(p, &e, PROF_ACT_MEMSET, scratch);
	else if (span_is(&e.cat, "cuda_runtime") || span_is(&e.cat, "cuda_driver"))
		add_launch(p, &e);
	else if (span_is(&e.cat, "cpu_op"))
		add_op(p, &e, 0, scratch);
	else if (span_is(&e.cat, "user_annotation"))
		add_op(p, &e, 1, scratch);
}

/* The next non-blank byte (not consumed), refilling; -1 at end of file, -2 on error. */
static int peek_byte(struct prof_input *in, struct buf *err)
{
	for (;;) {
		while (in->pos < in->len) {
			char ch = in->buf[in->pos];

			if (ch != ' ' && ch != '\n' && ch != '\r' && ch != '\t')
				return (unsigned char)ch;
			in->pos++;
		}
		switch (input_more(in, err)) {
		case -1:
			return -2;
		case 0:
			return -1;
		default:
			break;
		}
	}
}

enum { VALUE_OK = 1, VALUE_CUT = 0, VALUE_BAD = -1, VALUE_ERR = -2 };

/* Holds the whole value at in->pos in the window: *s, *n. */
static int window_value(struct prof_input *in, const char **s, size_t *n, struct buf *err)
{
	struct jscan js = JSCAN_INIT;

	for (;;) {
		int r = jscan_extent(&js, in->buf + in->pos, input_avail(in), in->eof != 0);
		long got;

		if (r == 1) {
			*s = in->buf + in->pos;
			*n = js.off;
			return VALUE_OK;
		}
		if (r < 0)
			return js.started && in->eof ? VALUE_CUT : VALUE_BAD;
		got = input_more(in, err);
		if (got < 0)
			return VALUE_ERR;
	}
}

static void cut_note(struct prof *p, const struct prof_input *in, const char *where)
{
	p->partial = 1;
	prof_note(p, "the trace ends early at byte %llu (%s); the %zu GPU %s before it %s kept",
		  (unsigned long long)input_offset(in), where, p->nacts,
		  plural_word((long long)p->nacts, "activity", "activities"),
		  plural_word((long long)p->nacts, "is", "are"));
}

/* The events array, from its '['. */
static int read_events(struct prof *p, struct prof_input *in, struct buf *err)
{
	struct buf scratch = BUF_INIT;
	int ret = 0;

	in->pos++;
	for (;;) {
		int ch = peek_byte(in, err);
		const char *s;
		size_t n;
		int r;

		if (ch == -2 || ch == -1) {
			if (ch == -1)
				cut_note(p, in, "inside traceEvents");
			ret = ch == -2 ? -1 : 0;
			break;
		}
		if (ch == ']') {
			in->pos++;
			break;
		}
		if (ch == ',') {
			in->pos++;
			continue;
		}
		r = window_value(in, &s, &n, err);
		if (r == VALUE_ERR) {
			ret = -1;
			break;
		}
		if (r == VALUE_CUT) {
			cut_note(p, in, "inside an event");
			break;
		}
		if (r == VALUE_BAD) {
			buf_addf(err, "'%s': not JSON at byte %llu inside traceEvents", in->path,
				 (unsigned long long)input_offset(in));
			ret = -1;
			break;
		}
		take_event(p, s, n, &scratch);
		in->pos += n;
	}
	buf_release(&scratch);
	return ret;
}

/* deviceProperties: the first device's name (of the first deviceProperties). */
static void take_devices(struct prof *p, const char *s, size_t n)
{
	struct jcur c = { s, s + n };
	const char *k, *v;
	size_t kn, vn;
	int esc;

	if (p->device || jc_array(&c) < 0 || jc_item(&c) != 1 || jc_object(&c) < 0)
		return;
	while (jc_key(&c, &k, &kn) == 1) {
		if (key_is(k, kn, "name") && jc_peek(&c) == JT_STRING &&
		    jc_string(&c, &v, &vn, &esc) == 0) {
			p->device = xstrndup(v, vn);
			return;
		}
		if (jc_skip(&c) < 0)
			return;
	}
}

enum { KEY_OTHER, KEY_EVENTS, KEY_DEVICES };

/* One "key": value of the top-level object; 1 more to come, 0 done, -1 error. */
static int read_member(struct prof *p, struct prof_input *in, int *saw_events, struct buf *err)
{
	const char *s, *k;
	size_t n, kn;
	int ch = peek_byte(in, err), r, esc, key;
	struct jcur c;

	if (ch == '}' || ch == -1)
		return 0;
	if (ch == ',')
		in->pos++;
	if (peek_byte(in, err) < 0 || window_value(in, &s, &n, err) != VALUE_OK)
		return in->eof ? 0 : -1;
	c.p = s;
	c.end = s + n;
	if (jc_string(&c, &k, &kn, &esc) < 0)
		return -1;
	/* told now: reading on may move the window under k */
	key = key_is(k, kn, "traceEvents") ? KEY_EVENTS :
	      key_is(k, kn, "deviceProperties") ? KEY_DEVICES : KEY_OTHER;
	in->pos += n;
	ch = peek_byte(in, err);
	if (ch != ':')
		return ch == -1 ? 0 : -1;
	in->pos++;
	ch = peek_byte(in, err);
	if (ch < 0)
		return 0;
	if (key == KEY_EVENTS && ch == '[') {
		*saw_events = 1;
		return read_events(p, in, err) < 0 ? -1 : 1;
	}
	r = window_value(in, &s, &n, err);
	if (r != VALUE_OK)
		return r == VALUE_CUT ? 0 : -1;
	if (key == KEY_DEVICES)
		take_devices(p, s, n);
	in->pos += n;
	return 1;
}

int chrome_read(struct prof *p, struct prof_input *in, struct buf *err)
{
	int ch = peek_byte(in, err), r, saw_events = 0;

	if (ch == '[') {
		if (read_events(p, in, err) < 0)
			return -1;
		return 0;
	}
	if (ch != '{') {
		buf_addf(err, "'%s': not a Chrome trace (no JSON object or array)", in->path);
		return -1;
	}
	in->pos++;
	while ((r = read_member(p, in, &saw_events, err)) == 1)
		;
	if (r < 0) {
		if (!err->len)
			buf_addf(err, "'%s': not JSON at byte %llu", in->path,
				 (unsigned long long)input_offset(in));
		return -1;
	}
	if (!saw_events) {
		buf_addf(err, "'%s': a JSON document without \"traceEvents\"; not a Chrome trace",
			 in->path);
		return -1;
	}
	if (in->eof == 2 && !p->partial)
		cut_note(p, in, "a cut gzip stream");
	return 0;
}
