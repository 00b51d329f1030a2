/*
 * Reader for the seed skill's autotune.log (autotune_capture_patch.py; the
 * grammar is docs/seed-scripts.md section 2.1) and for its generated
 * runners' stdout, which prints the same blocks without timestamps:
 *
 *   2026-12-02 15:29:22 [AUTOTUNE] kernel=<name>  configs=<N>     (or [SINGLE-CONFIG])
 *   2026-12-02 15:29:22   in_ptr0             : shape=[4, 8]  dtype=torch.float16  stride=[8, 1]
 *   2026-12-02 15:29:22   xnumel              : 32
 *   2026-12-02 15:29:22   Kernel source saved    : <path>           (v2+: here; v1: at the end)
 *   2026-12-02 15:29:22   [TIMING] kernel=<name>  autotune elapsed: 0.123s (123.4ms)
 *   2026-12-02 15:29:22   Config                         ...     Time(ms)
 *   2026-12-02 15:29:22   ----------------------------------------------------------------------
 *   2026-12-02 15:29:22   XBLOCK: 1024, num_warps: 4, ...            0.0123  BEST
 *   2026-12-02 15:29:22   Total tensor bytes      : 201.33 MB
 *   2026-12-02 15:29:22   Footprint rate estimate     : 3216.14 GB/s  (v1: Effective bandwidth)
 *   2026-12-02 15:29:22 ================================================================
 *
 * A block runs from its header to the closing line of '='. Its argument
 * lines come first; the kernel the block belongs to is chosen once they
 * are read (bind()): the capture logs a name again only for another
 * autotuner or other arguments (v2+ dedups by both), so a block whose
 * arguments or config count differ from the last block of that name in
 * this input is the next instance of the name; one that repeats them (a
 * second run appended to the log) is the same kernel. The arguments and
 * the capture's estimates go to the kernel's struct at_launch.
 *
 * With TRITON_CAPTURE_SINGLE_CONFIG, v2+ saves the kernel before the run
 * and logs its block after it, so the "Kernel source saved" / "Inputs
 * saved" / "Run standalone" and [WARN] lines of a SINGLE-CONFIG block
 * come before its header. They are held and given to the next block,
 * the paths only when they name its kernel (<kernel>.py).
 *
 * Table rows are parsed from the end: the last number is the time, what
 * precedes it the config.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "parse/autotune_launch.h"
#include "parse/seed_log.h"
#include "parse/tconfig.h"
#include "util/lines.h"
#include "util/mem.h"
#include "util/strmap.h"
#include "banned.h"

/* The paths of one save, and the warnings around it. */
struct seed_saved {
	char *source;		/* "Kernel source saved" */
	struct at_src source_src;
	char *inputs;		/* "Inputs saved" */
	char *run;		/* "Run standalone" */
	struct at_note *warn;	/* "[WARN] ..." */
	size_t nwarn, warn_alloc;
};

struct seed_state {
	struct log_ctx *ctx;
	/* The open block, before bind(): its header and argument lines. */
	char *name;		/* the kernel's name, NULL when no block is waiting */
	long configs;		/* its "configs=" */
	int autotune;		/* [AUTOTUNE] rather than [SINGLE-CONFIG] */
	struct at_launch *pending;	/* its arguments so far */
	/* The open block, after bind(). */
	struct at_kernel *k;	/* its kernel, or NULL */
	struct at_tuning *t;	/* its tuning (AUTOTUNE blocks) */
	int in_table;		/* between the "Config ... Time(ms)" header and a blank line */
	struct seed_saved orphan;	/* lines logged before their block */
	struct strmap bound;	/* kernel name -> the highest instance a block of this input was bound to */
};

static struct at_src src_of(const struct seed_state *st, const struct log_line *l)
{
	return log_src(st->ctx, l, AT_FMT_SEED_LOG);
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_ident(char c, int first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && is_digit(c));
}

/* Drops the logger's "YYYY-mm-dd HH:MM:SS " prefix. */
static void unstamp(const char **s, size_t *n)
{
	const char *p = *s;

	if (*n >= 20 && is_digit(p[0]) && is_digit(p[3]) && p[4] == '-' &&
	    p[7] == '-' && p[10] == ' ' && p[13] == ':' && p[16] == ':' &&
	    p[19] == ' ') {
		*s += 20;
		*n -= 20;
	}
	span_trim(s, n);
}

static int all_same(const char *s, size_t n, char ch, size_t min)
{
	size_t i;

	if (n < min)
		return 0;
	for (i = 0; i < n; i++)
		if (s[i] != ch)
			return 0;
	return 1;
}

/*
 * "<key> : <value>": the key (trimmed) and the value (trimmed) of a
 * colon line; 0 when the line has no " :"-style separator.
 */
static int key_value(const char *s, size_t n, const char **key, size_t *klen,
		     const char **val, size_t *vlen)
{
	const char *colon = memchr(s, ':', n);

	if (!colon || colon == s)
		return 0;
	*key = s;
	*klen = (size_t)(colon - s);
	span_trim(key, klen);
	*val = colon + 1;
	*vlen = n - (size_t)(*val - s);
	span_trim(val, vlen);
	return *klen > 0;
}

static void saved_release(struct seed_saved *sv)
{
	size_t i;

	free(sv->source);
	free(sv->inputs);
	free(sv->run);
	for (i = 0; i < sv->nwarn; i++)
		free(sv->warn[i].text);
	free(sv->warn);
	memset(sv, 0, sizeof(*sv));
}

/* Whether path's file is <name><suffix> (how the capture names what it saves). */
static int names_kernel(const char *path, const char *name, const char *suffix)
{
	const char *base = strrchr(path, '/');
	size_t n = strlen(name);

	base = base ? base + 1 : path;
	return !strncmp(base, name, n) && !strcmp(base + n, suffix);
}

/* Gives the held lines to the block just bound, then forgets them. */
static void adopt_orphans(struct seed_state *st)
{
	struct seed_saved *o = &st->orphan;
	struct at_kernel *k = st->k;
	size_t i;

	for (i = 0; i < o->nwarn; i++)
		at_note_add(&k->errors, &k->nerrors, &k->errors_alloc, o->warn[i].text,
			    strlen(o->warn[i].text), o->warn[i].src);
	if (o->source && names_kernel(o->source, k->name, ".py"))
		at_set_str(&k->source_file, &k->source_src, o->source, strlen(o->source),
			   o->source_src);
	if (o->inputs && names_kernel(o->inputs, k->name, "_inputs.pt") && !k->launch->inputs_saved)
		k->launch->inputs_saved = xstrdup(o->inputs);
	if (o->run && o->source && names_kernel(o->source, k->name, ".py") &&
	    !k->launch->run_standalone)
		k->launch->run_standalone = xstrdup(o->run);
	saved_release(o);
}

/*
 * The instance of the waiting block's name that its arguments say it is:
 * one this input already bound with the same config count and arguments,
 * else the next after the highest it bound.
 */
static struct at_kernel *instance_for(struct seed_state *st)
{
	struct autotune_set *set = st->ctx->set;
	size_t len = strlen(st->name), max = 0;
	struct at_src src = st->pending->src;
	unsigned i;
	int added;

	strmap_get(&st->bound, st->name, len, &max);
	for (i = 1; i <= max; i++) {
		struct at_kernel *k = at_kernel_instance(set, st->name, len, i, src);

		if (k->num_configs == st->configs &&
		    (!k->launch || at_launch_same_args(k->launch, st->pending)))
			return k;
	}
	*strmap_put(&st->bound, st->name, len, &added) = max + 1;
	return at_kernel_instance(set, st->name, len, (unsigned)max + 1, src);
}

/* Chooses the waiting block's kernel, now that its arguments are read. */
static void bind(struct seed_state *st)
{
	struct at_src src;
	struct at_kernel *k;

	if (!st->name)
		return;
	src = st->pending->src;
	k = instance_for(st);
	if (k->num_configs < 0) {
		k->num_configs = st->configs;
		k->num_configs_src = src;
	}
	if (!k->launch) {
		k->launch = st->pending;
	} else {
		at_launch_fill(k->launch, st->pending);
		at_launch_free(st->pending);
	}
	st->pending = NULL;
	st->k = k;
	st->t = st->autotune ? at_tuning_add(k, AT_BENCHMARK, src) : NULL;
	st->in_table = 0;
	free(st->name);
	st->name = NULL;
	adopt_orphans(st);
}

/* Forgets the open block: the line `l` ended it, or the input did. */
static void end_block(struct seed_state *st)
{
	bind(st);
	st->k = NULL;
	st->t = NULL;
	st->in_table = 0;
}

/* "[AUTOTUNE] kernel=<name>  configs=<N>" / "[SINGLE-CONFIG] ..." */
static int header(struct seed_state *st, const struct log_line *l,
		  const char *s, size_t n, int autotune)
{
	const char *name = span_find(s, n, "kernel="), *end, *cfg;
	long count;

	end_block(st);
	if (!name)
		return LR_BAD;
	name += 7;
	end = memchr(name, ' ', n - (size_t)(name - s));
	cfg = span_find(s, n, "configs=");
	if (!end || end == name || !cfg ||
	    span_long(cfg + 8, n - (size_t)(cfg + 8 - s), &count) < 0)
		return LR_BAD;
	st->name = xstrndup(name, (size_t)(end - name));
	st->configs = count;
	st->autotune = autotune;
	st->pending = at_launch_new(src_of(st, l));
	st->pending->end_line = l->lineno;
	return LR_USED;
}

/* "shape=[4, 8]  dtype=torch.float16  stride=[8, 1]" into a. */
static int tensor_arg(struct at_arg *a, const char *v, size_t n)
{
	const char *close = memchr(v, ']', n), *dt = span_find(v, n, "dtype=");
	const char *st = span_find(v, n, "stride=["), *end;
	long dims[64];

	if (!close || !dt || !st || dt < close || st < dt)
		return -1;
	end = memchr(dt, ' ', (size_t)(st - dt));
	if (!end || end == dt + 6 || v[n - 1] != ']' ||
	    at_dims_parse(v + 6, (size_t)(close + 1 - v - 6), dims, 64) < 0 ||
	    at_dims_parse(st + 7, n - (size_t)(st + 7 - v), dims, 64) < 0)
		return -1;
	a->shape = xstrndup(v + 6, (size_t)(close + 1 - v - 6));
	a->dtype = xstrndup(dt + 6, (size_t)(end - dt - 6));
	a->stride = xstrndup(st + 7, n - (size_t)(st + 7 - v));
	return 0;
}

/*
 * "<name padded to 20>: <value>", the argument lines after a header:
 * a Python identifier, spaces, a colon. The estimate lines' keys have
 * spaces inside, so they never match.
 */
static int arg_line(struct seed_state *st, const char *s, size_t n)
{
	const char *key, *val;
	size_t klen, vlen, i;
	struct at_arg *a;

	if (!n || !is_ident(s[0], 1) || !key_value(s, n, &key, &klen, &val, &vlen))
		return LR_NO;
	for (i = 1; i < klen; i++)
		if (!is_ident(key[i], 0))
			return LR_NO;
	a = at_launch_add_arg(st->pending, key, klen);
	if (!span_starts(val, vlen, "shape=")) {
		a->value = xstrndup(val, vlen);
		return LR_USED;
	}
	return tensor_arg(a, val, vlen) < 0 ? LR_BAD : LR_USED;
}

/* "[TIMING] kernel=<name>  autotune elapsed: 0.123s (123.4ms)" */
static int timing(struct seed_state *st, const struct log_line *l,
		  const char *s, size_t n)
{
	const char *open = memchr(s, '(', n);
	const char *close = open ? memchr(open, ')', n - (size_t)(open - s)) : NULL;
	double ms;

	if (!st->t || !close || close - open < 4 || memcmp(close - 2, "ms", 2) ||
	    span_double(open + 1, (size_t)(close - 2 - open - 1), &ms) < 0)
		return LR_BAD;
	st->t->elapsed_ms = ms;
	st->t->elapsed_src = src_of(st, l);
	return LR_USED;
}

/* "<config padded to 60> <ms>[  BEST]" */
static int table_row(struct seed_state *st, const struct log_line *l,
		     const char *s, size_t n)
{
	const char *sp;
	struct at_config *c;
	int best = 0;

	if (n > 4 && !memcmp(s + n - 4, "BEST", 4)) {
		best = 1;
		n -= 4;
		span_trim(&s, &n);
	}
	sp = span_rfind(s, n, " ");
	if (!sp || !st->t)
		return LR_BAD;
	c = at_config_push(&st->t->configs, &st->t->nr, &st->t->alloc,
			   src_of(st, l));
	if (span_double(sp + 1, n - (size_t)(sp + 1 - s), &c->time_ms) < 0 ||
	    tconfig_parse(c, s, (size_t)(sp - s)) < 0) {
		at_config_release(c);
		st->t->nr--;
		return LR_BAD;
	}
	if (best) {
		st->t->best = (long)st->t->nr - 1;
		st->t->best_src = src_of(st, l);
	}
	return LR_USED;
}

/* The estimates, by the keys v1 and v2+ print (docs/seed-scripts.md 2.1 item 8). */
static const struct {
	const char *key;
	size_t off;		/* the double in struct at_launch */
	double scale;		/* to the unit at_launch keeps */
} estimates[] = {
	{ "Total tensor bytes", offsetof(struct at_launch, total_bytes), 1e6 },
	{ "Best config time", offsetof(struct at_launch, best_ms), 1 },
	{ "Effective bandwidth", offsetof(struct at_launch, rate_gbps), 1 },
	{ "Footprint rate estimate", offsetof(struct at_launch, rate_gbps), 1 },
	{ "HW peak bandwidth", offsetof(struct at_launch, peak_gbps), 1 },
	{ "Bandwidth utilization", offsetof(struct at_launch, peak_pct), 1 },
	{ "Footprint/peak ratio (not HBM utilization)", offsetof(struct at_launch, peak_pct), 1 },
};

/* "<number>[ unit]" or "<number>%": Python prints "nan" when it had no value. */
static int estimate_value(const char *v, size_t n, double *out)
{
	size_t i = 0;

	while (i < n && v[i] != ' ' && v[i] != '%')
		i++;
	return span_double(v, i, out);
}

static int estimate(struct seed_state *st, const struct log_line *l, size_t which,
		    const char *v, size_t n)
{
	double *field = (double *)(void *)((char *)st->k->launch + estimates[which].off);
	double x;

	if (estimate_value(v, n, &x) < 0)
		return LR_BAD;
	if (isnan(*field))
		*field = x * estimates[which].scale;
	if (st->k->launch->metrics_src.fmt == AT_FMT_NONE)
		st->k->launch->metrics_src = src_of(st, l);
	return LR_USED;
}

static void set_path(char **field, const char *v, size_t n)
{
	if (!*field)
		*field = xstrndup(v, n);
}

/*
 * "Kernel source saved" / "Inputs saved" / "Run standalone": given to the
 * open block's kernel, or held for the next block (sv); -1 when the key
 * is none of them.
 */
static int saved_line(struct seed_state *st, const struct log_line *l,
		      const char *key, size_t klen, const char *v, size_t n)
{
	struct seed_saved *o = st->k ? NULL : &st->orphan;
	struct at_kernel *k = st->k;

	if (klen == 19 && !memcmp(key, "Kernel source saved", 19)) {
		if (o) {
			free(o->source);
			o->source = xstrndup(v, n);
			o->source_src = src_of(st, l);
		} else {
			at_set_str(&k->source_file, &k->source_src, v, n, src_of(st, l));
		}
	} else if (klen == 12 && !memcmp(key, "Inputs saved", 12)) {
		set_path(o ? &o->inputs : &k->launch->inputs_saved, v, n);
	} else if (klen == 14 && !memcmp(key, "Run standalone", 14)) {
		set_path(o ? &o->run : &k->launch->run_standalone, v, n);
	} else {
		return -1;
	}
	return LR_USED;
}

/* A "<key> : <value>" line of a bound block; LR_NO when it has no colon. */
static int keyed_line(struct seed_state *st, const struct log_line *l,
		      const char *s, size_t n)
{
	const char *key, *v;
	size_t klen, vlen, i;
	int r;

	if (!key_value(s, n, &key, &klen, &v, &vlen))
		return LR_NO;
	for (i = 0; i < sizeof(estimates) / sizeof(estimates[0]); i++)
		if (strlen(estimates[i].key) == klen && !memcmp(key, estimates[i].key, klen))
			return estimate(st, l, i, v, vlen);
	r = saved_line(st, l, key, klen, v, vlen);
	return r < 0 ? LR_USED : r;	/* a key this reader does not know */
}

static int block_line(struct seed_state *st, const struct log_line *l,
		      const char *s, size_t n)
{
	int r;

	if (all_same(s, n, '=', 32)) {
		if (st->t)
			st->t->complete = 1;
		end_block(st);
		return LR_USED;
	}
	if (!n) {
		st->in_table = 0;
		return LR_USED;
	}
	if (span_starts(s, n, "[TIMING] "))
		return timing(st, l, s, n);
	if (span_find(s, n, "Time(ms)") && span_starts(s, n, "Config")) {
		st->in_table = 1;
		return LR_USED;
	}
	if (all_same(s, n, '-', 32))
		return LR_USED;
	if (st->in_table)
		return table_row(st, l, s, n);
	if (span_starts(s, n, "[WARN] ")) {
		at_note_add(&st->k->errors, &st->k->nerrors, &st->k->errors_alloc,
			    s, n, src_of(st, l));
		return LR_USED;
	}
	if (span_starts(s, n, "[NOTE] "))
		return LR_USED;
	r = keyed_line(st, l, s, n);
	if (r != LR_NO)
		return r;
	/* Every line of a block has a ':': it was cut off and this line is not ours. */
	end_block(st);
	return LR_NO;
}

/* A line outside any block: a save or warning of the block to come, or nothing. */
static int between_blocks(struct seed_state *st, const struct log_line *l,
			  const char *s, size_t n)
{
	const char *key, *v;
	size_t klen, vlen;

	if (span_starts(s, n, "[capture] enabled") || all_same(s, n, '=', 32))
		return LR_USED;
	if (span_starts(s, n, "[WARN] ")) {
		at_note_add(&st->orphan.warn, &st->orphan.nwarn, &st->orphan.warn_alloc,
			    s, n, src_of(st, l));
		return LR_USED;
	}
	if (key_value(s, n, &key, &klen, &v, &vlen) &&
	    saved_line(st, l, key, klen, v, vlen) == LR_USED)
		return LR_USED;
	return LR_NO;
}

static int seed_line(void *state, const struct log_line *l)
{
	struct seed_state *st = state;
	const char *s = l->raw;
	size_t n = l->raw_len;
	int r;

	unstamp(&s, &n);
	if (span_starts(s, n, "[AUTOTUNE] "))
		return header(st, l, s, n, 1);
	if (span_starts(s, n, "[SINGLE-CONFIG] "))
		return header(st, l, s, n, 0);
	if (st->name) {
		r = arg_line(st, s, n);
		if (r != LR_NO) {
			st->pending->end_line = l->lineno;
			return r;
		}
		bind(st);
	}
	if (st->k) {
		struct at_launch *la = st->k->launch;

		r = block_line(st, l, s, n);
		if (r != LR_NO && la->end_line < l->lineno)
			la->end_line = l->lineno;
		return r;
	}
	return between_blocks(st, l, s, n);
}

static void *seed_open(struct log_ctx *ctx)
{
	struct seed_state *st = xcalloc(1, sizeof(*st));

	st->ctx = ctx;
	return st;
}

static void seed_close(void *state)
{
	struct seed_state *st = state;

	end_block(st);
	saved_release(&st->orphan);
	strmap_release(&st->bound);
	free(st);
}

const struct log_reader seed_log_reader = {
	"seed_log", AT_FMT_SEED_LOG, seed_open, seed_line, seed_close,
};
