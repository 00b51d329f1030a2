/*
 * Reader for the seed skill's autotune.log (autotune_capture_patch.py; the
 * grammar is docs/seed-scripts.md section 2.1) and for its generated
 * runners' stdout, which prints the same blocks without timestamps:
 *
 *   2026-12-02 15:29:22 [AUTOTUNE] kernel=<name>  configs=<N>     (or [SINGLE-CONFIG])
 *   2026-12-02 15:29:22   in_ptr0             : shape=[4, 8]  dtype=torch.float16  stride=[8, 1]
 *   2026-12-02 15:29:22   [TIMING] kernel=<name>  autotune elapsed: 0.123s (123.4ms)
 *   2026-12-02 15:29:22 Config                         ...     Time(ms)
 *   2026-12-02 15:29:22 ----------------------------------------------------------------------
 *   2026-12-02 15:29:22 XBLOCK: 1024, num_warps: 4, ...            0.0123  BEST
 *   2026-12-02 15:29:22 Best config time        : 0.0123 ms
 *   2026-12-02 15:29:22   Kernel source saved    : <path>          (v1)
 *   2026-12-02 15:29:22 ================================================================
 *
 * A block runs from its header to the closing line of '='; inside it every
 * line is part of the record (argument lines and bandwidth estimates are
 * not kept: tko computes its own from capture). Table rows are parsed from
 * the end: the last number is the time, what precedes it the config.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse/seed_log.h"
#include "parse/tconfig.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

struct seed_state {
	struct log_ctx *ctx;
	struct at_kernel *k;	/* the open block's kernel, or NULL */
	struct at_tuning *t;	/* its tuning (AUTOTUNE blocks) */
	int in_table;		/* between the "Config ... Time(ms)" header and a blank line */
};

static struct at_src src_of(const struct seed_state *st, const struct log_line *l)
{
	return log_src(st->ctx, l, AT_FMT_SEED_LOG);
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
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

/* "[AUTOTUNE] kernel=<name>  configs=<N>" / "[SINGLE-CONFIG] ..." */
static int header(struct seed_state *st, const struct log_line *l,
		  const char *s, size_t n, int autotune)
{
	const char *name = span_find(s, n, "kernel="), *end, *cfg;
	long count;

	if (!name)
		return LR_BAD;
	name += 7;
	end = memchr(name, ' ', n - (size_t)(name - s));
	cfg = span_find(s, n, "configs=");
	if (!end || end == name || !cfg ||
	    span_long(cfg + 8, n - (size_t)(cfg + 8 - s), &count) < 0)
		return LR_BAD;
	st->k = at_kernel_current(st->ctx->set, name, (size_t)(end - name),
				  src_of(st, l));
	if (st->k->num_configs < 0) {
		st->k->num_configs = count;
		st->k->num_configs_src = src_of(st, l);
	}
	st->t = autotune ? at_tuning_add(st->k, AT_BENCHMARK, src_of(st, l)) : NULL;
	st->in_table = 0;
	return LR_USED;
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

/* "  Kernel source saved    : <path>" (v1) */
static void saved_source(struct seed_state *st, const struct log_line *l,
			 const char *s, size_t n)
{
	const char *colon = memchr(s, ':', n);
	const char *p;
	size_t pn;

	if (!colon)
		return;
	p = colon + 1;
	pn = n - (size_t)(p - s);
	span_trim(&p, &pn);
	at_set_str(&st->k->source_file, &st->k->source_src, p, pn, src_of(st, l));
}

static int close_block(struct seed_state *st)
{
	if (st->t)
		st->t->complete = 1;
	st->k = NULL;
	st->t = NULL;
	st->in_table = 0;
	return LR_USED;
}

/*
 * A line no block has (every argument, metric and note line has a ':'):
 * the block was cut off, so it ends incomplete and the line is not ours.
 */
static int abandon_block(struct seed_state *st)
{
	st->k = NULL;
	st->t = NULL;
	st->in_table = 0;
	return LR_NO;
}

static int block_line(struct seed_state *st, const struct log_line *l,
		      const char *s, size_t n)
{
	if (all_same(s, n, '=', 32))
		return close_block(st);
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
	if (span_starts(s, n, "[WARN] "))
		at_note_add(&st->k->errors, &st->k->nerrors, &st->k->errors_alloc,
			    s, n, src_of(st, l));
	else if (span_starts(s, n, "Kernel source saved"))
		saved_source(st, l, s, n);
	else if (!memchr(s, ':', n) && !span_starts(s, n, "[NOTE] "))
		return abandon_block(st);
	return LR_USED;
}

static int seed_line(void *state, const struct log_line *l)
{
	struct seed_state *st = state;
	const char *s = l->raw;
	size_t n = l->raw_len;

	unstamp(&s, &n);
	if (!st->k && (!n || (s[0] != '[' && s[0] != '=')))
		return LR_NO;
	if (span_starts(s, n, "[AUTOTUNE] "))
		return header(st, l, s, n, 1);
	if (span_starts(s, n, "[SINGLE-CONFIG] "))
		return header(st, l, s, n, 0);
	if (st->k)
		return block_line(st, l, s, n);
	if (span_starts(s, n, "[capture] enabled") || all_same(s, n, '=', 32))
		return LR_USED;
	return LR_NO;
}

static void *seed_open(struct log_ctx *ctx)
{
	struct seed_state *st = xcalloc(1, sizeof(*st));

	st->ctx = ctx;
	return st;
}

static void seed_close(void *state)
{
	free(state);
}

const struct log_reader seed_log_reader = {
	"seed_log", AT_FMT_SEED_LOG, seed_open, seed_line, seed_close,
};
