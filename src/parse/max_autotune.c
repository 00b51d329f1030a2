/*
 * Reader for max-autotune's choice tables (torch/_inductor/select_algorithm.py),
 * as in corpus/h200-run1/log_profile.txt lines 5646-5711:
 *
 *   Max autotune selects from 21 choices.                  (glog, opens a selection)
 *   Precompilation elapsed time: 4.85s
 *   Runtime error during autotuning:                       (E lines, same prefix, one message)
 *   No valid triton configs. OutOfMemoryError: ...
 *   Autotune Choices Stats:
 *   {"num_choices": 21, "best_kernel": "triton_mm_18", ...} (one JSON line)
 *   Autotuning elapsed time: 12.57s
 *   AUTOTUNE mm(2048x2048, 2048x2048)                      (plain stdout from here)
 *   strides: [2048, 1], [2048, 1]
 *   dtypes: torch.float16, torch.float16
 *     triton_mm_18 0.0291 ms 100.0% ACC_TYPE='tl.float32', ..., num_stages=5, num_warps=8
 *     mm 0.0388 ms 74.8%
 *   SingleProcess AUTOTUNE benchmarking takes 12.5744 seconds and 4.8515 seconds precompiling for 21 choices
 *
 * The lines before the table are kept as pending facts of the selection
 * and given to the table that follows; the line after it belongs to the
 * table before. The table shows only the fastest choices (a setting,
 * TORCHINDUCTOR_AUTOTUNE_NUM_CHOICES_DISPLAYED), so num_choices comes from
 * the stats or the "selects from" line. Rows may be indented or not, and
 * aligned with extra spaces (older torch). Each table becomes a tuning of
 * a kernel named by the operation ("mm(2048x2048, 2048x2048)").
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json/jsonio.h"
#include "model/names.h"
#include "parse/max_autotune.h"
#include "parse/tconfig.h"
#include "util/buf.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

struct ma_state {
	struct log_ctx *ctx;
	long choices;		/* pending: choices of the selection, -1 */
	struct at_src choices_src;
	double elapsed_s;	/* pending: "Autotuning elapsed time", NAN */
	struct at_src elapsed_src;
	double precompile_s;	/* pending: "Precompilation elapsed time", NAN */
	char *best_label;	/* pending: the stats' best_kernel */
	int want_stats;		/* the next line is the stats JSON */
	struct buf error;	/* pending: autotune error message */
	struct at_src error_src;
	char error_where[160];	/* its glog location, for continuation lines */
	struct at_tuning *table;	/* the table being read */
	struct at_kernel *table_k;
	int header;		/* strides:/dtypes: may still come */
	struct at_tuning *last;	/* the last table, for the line after it */
};

static struct at_src src_of(const struct ma_state *st, const struct log_line *l)
{
	return log_src(st->ctx, l, AT_FMT_MAX_AUTOTUNE);
}

static void reset_pending(struct ma_state *st)
{
	st->choices = -1;
	st->elapsed_s = NAN;
	st->precompile_s = NAN;
	free(st->best_label);
	st->best_label = NULL;
	buf_reset(&st->error);
	st->error_where[0] = '\0';
}

/* "12.57s" / "4.85s" */
static int seconds(const char *s, size_t n, double *out)
{
	if (n && s[n - 1] == 's')
		n--;
	return span_double(s, n, out);
}

/* The best row: the stats' choice, else the 100% row, else the fastest. */
static long pick_best(const struct at_tuning *t, const char *label)
{
	long best = -1;
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (label && t->configs[i].label && !strcmp(t->configs[i].label, label))
			return (long)i;
	for (i = 0; i < t->nr; i++) {
		const struct at_config *c = &t->configs[i];

		if (c->pct_of_best >= 99.95)
			return (long)i;
		if (!isnan(c->time_ms) &&
		    (best < 0 || c->time_ms < t->configs[best].time_ms))
			best = (long)i;
	}
	return best;
}

static void close_table(struct ma_state *st, int complete)
{
	struct at_tuning *t = st->table;

	if (!t)
		return;
	t->best = pick_best(t, st->best_label);
	if (t->best >= 0)
		t->best_src = t->configs[t->best].src;
	t->complete = complete;
	st->last = t;
	st->table = NULL;
	st->table_k = NULL;
	reset_pending(st);
}

static int on_header(struct ma_state *st, const struct log_line *l,
		     const char *op, size_t n)
{
	struct at_src src = src_of(st, l);
	struct at_kernel *k;
	struct at_tuning *t;
	const char *paren = memchr(op, '(', n);

	if (!paren || paren == op || op[n - 1] != ')')
		return LR_BAD;
	close_table(st, 1);
	k = at_kernel_current(st->ctx->set, op, n, src);
	at_set_str(&k->kind, &k->kind_src, kind_names[KIND_MAX_AUTOTUNE],
		   strlen(kind_names[KIND_MAX_AUTOTUNE]), src);
	t = at_tuning_add(k, AT_MAX_AUTOTUNE, src);
	t->num_choices = st->choices;
	if (!isnan(st->elapsed_s)) {
		t->elapsed_ms = st->elapsed_s * 1000.0;
		t->elapsed_src = st->elapsed_src;
	}
	t->precompile_ms = st->precompile_s * 1000.0;
	if (st->error.len)
		at_note_add(&k->errors, &k->nerrors, &k->errors_alloc,
			    st->error.buf, st->error.len, st->error_src);
	buf_reset(&st->error);
	st->table = t;
	st->table_k = k;
	st->header = 1;
	return LR_USED;
}

/* "strides: ..." / "dtypes: ..." right under the header: the tuning's key. */
static int header_line(struct ma_state *st, const struct log_line *l)
{
	struct at_tuning *t = st->table;
	char *key;

	if (!span_starts(l->msg, l->msg_len, "strides: ") &&
	    !span_starts(l->msg, l->msg_len, "dtypes: "))
		return LR_NO;
	key = t->key ? xstrfmt("%s; %.*s", t->key, (int)l->msg_len, l->msg)
		     : xstrndup(l->msg, l->msg_len);
	free(t->key);
	t->key = key;
	return LR_USED;
}

/* The next space-separated token of s[*i..n), skipping leading spaces. */
static size_t token(const char *s, size_t n, size_t *i, const char **tok)
{
	size_t start;

	while (*i < n && s[*i] == ' ')
		(*i)++;
	start = *i;
	while (*i < n && s[*i] != ' ')
		(*i)++;
	*tok = s + start;
	return *i - start;
}

/* "name 0.0291 ms 100.0% desc"; LR_NO when the line is not a row. */
static int table_row(struct ma_state *st, const struct log_line *l)
{
	const char *s = l->msg, *name, *ms, *unit, *pct, *desc;
	size_t n = l->msg_len, i = 0, nn, msn, un, pn, dn;
	struct at_config c;

	nn = token(s, n, &i, &name);
	msn = token(s, n, &i, &ms);
	un = token(s, n, &i, &unit);
	pn = token(s, n, &i, &pct);
	if (!nn || un != 2 || memcmp(unit, "ms", 2) || pn < 2 || pct[pn - 1] != '%')
		return LR_NO;
	at_config_init(&c, src_of(st, l));
	if (span_double(ms, msn, &c.time_ms) < 0 ||
	    span_double(pct, pn - 1, &c.pct_of_best) < 0) {
		at_config_release(&c);
		return LR_BAD;
	}
	c.label = xstrndup(name, nn);
	desc = s + i;
	dn = n - i;
	span_trim(&desc, &dn);
	if (dn) {
		struct at_config d;

		at_config_init(&d, c.src);
		if (tconfig_parse(&d, desc, dn) == 0) {
			d.label = c.label;
			d.time_ms = c.time_ms;
			d.pct_of_best = c.pct_of_best;
			c = d;
		} else {
			at_config_release(&d);
			c.text = xstrndup(desc, dn);
		}
	}
	ALLOC_GROW(st->table->configs, st->table->nr + 1, st->table->alloc);
	st->table->configs[st->table->nr++] = c;
	return LR_USED;
}

static int on_selects(struct ma_state *st, const struct log_line *l,
		      const char *rest, size_t n)
{
	const char *sp = memchr(rest, ' ', n);

	close_table(st, 1);
	reset_pending(st);
	if (!sp || span_long(rest, (size_t)(sp - rest), &st->choices) < 0)
		return LR_BAD;
	st->choices_src = src_of(st, l);
	return LR_USED;
}

static int on_precompile(struct ma_state *st, const struct log_line *l,
			 const char *rest, size_t n)
{
	(void)l;
	return seconds(rest, n, &st->precompile_s) < 0 ? LR_BAD : LR_USED;
}

static int on_elapsed(struct ma_state *st, const struct log_line *l,
		      const char *rest, size_t n)
{
	if (seconds(rest, n, &st->elapsed_s) < 0)
		return LR_BAD;
	st->elapsed_src = src_of(st, l);
	return LR_USED;
}

static int on_stats(struct ma_state *st, const struct log_line *l,
		    const char *rest, size_t n)
{
	(void)l; (void)rest; (void)n;
	st->want_stats = 1;
	return LR_USED;
}

static int stats_line(struct ma_state *st, const struct log_line *l)
{
	json_t *j = json_loadb(l->msg, l->msg_len, 0, NULL);
	const char *best;

	st->want_stats = 0;
	if (!json_is_object(j)) {
		json_decref(j);
		return LR_BAD;
	}
	st->choices = (long)json_int(j, "num_choices", st->choices);
	best = json_str(j, "best_kernel");
	free(st->best_label);
	st->best_label = best ? xstrdup(best) : NULL;
	json_decref(j);
	return LR_USED;
}

/* "SingleProcess AUTOTUNE benchmarking takes X seconds[ and Y seconds precompiling][ for N choices]" */
static int on_bench_time(struct ma_state *st, const struct log_line *l,
			 const char *rest, size_t n)
{
	const char *and = span_find(rest, n, " and ");
	const char *forp = span_find(rest, n, " for ");
	struct at_tuning *t;
	double secs, pre, choices;

	close_table(st, 1);
	if (span_lead_double(rest, n, &secs) < 0)
		return LR_BAD;
	t = st->last;
	st->last = NULL;	/* one such line per table */
	if (!t)
		return LR_USED;
	t->elapsed_ms = secs * 1000.0;
	t->elapsed_src = src_of(st, l);
	if (and && span_lead_double(and + 5, n - (size_t)(and + 5 - rest), &pre) == 0)
		t->precompile_ms = pre * 1000.0;
	if (forp && t->num_choices < 0 &&
	    span_lead_double(forp + 5, n - (size_t)(forp + 5 - rest), &choices) == 0)
		t->num_choices = (long)choices;
	return LR_USED;
}

static int on_error(struct ma_state *st, const struct log_line *l,
		    const char *rest, size_t n)
{
	size_t w = l->g.where_len < sizeof(st->error_where) ?
		   l->g.where_len : sizeof(st->error_where) - 1;

	buf_reset(&st->error);
	buf_add(&st->error, rest, n);
	st->error_src = src_of(st, l);
	memcpy(st->error_where, l->g.where, w);
	st->error_where[w] = '\0';
	return LR_USED;
}

/* A continuation line of the pending error (same glog location). */
static int error_line(struct ma_state *st, const struct log_line *l)
{
	if (!st->error_where[0] || !l->g.where_len ||
	    strlen(st->error_where) != l->g.where_len ||
	    memcmp(st->error_where, l->g.where, l->g.where_len))
		return LR_NO;
	if (st->error.len)
		buf_addch(&st->error, ' ');
	buf_add(&st->error, l->msg, l->msg_len);
	return LR_USED;
}

#define KW(prefix, fn) { prefix, sizeof(prefix) - 1, fn }

static const struct {
	const char *prefix;
	size_t len;
	int (*fn)(struct ma_state *, const struct log_line *, const char *, size_t);
} keywords[] = {
	KW("AUTOTUNE ", on_header),
	KW("Max autotune selects from ", on_selects),
	KW("Precompilation elapsed time: ", on_precompile),
	KW("Autotuning elapsed time: ", on_elapsed),
	KW("Autotune Choices Stats:", on_stats),
	KW("SingleProcess AUTOTUNE benchmarking takes ", on_bench_time),
	KW("SubProcess AUTOTUNE benchmarking takes ", on_bench_time),
	KW("Runtime error during autotuning:", on_error),
};

static int ma_line(void *state, const struct log_line *l)
{
	struct ma_state *st = state;
	size_t i;
	int r;

	if (!l->msg_len)
		return LR_NO;
	if (st->want_stats && l->msg[0] == '{')
		return stats_line(st, l);
	st->want_stats = 0;
	if (st->table) {
		if (st->header && (r = header_line(st, l)))
			return r;
		st->header = 0;
		if ((r = table_row(st, l)))
			return r;
		close_table(st, 1);
	}
	if ((r = error_line(st, l)))
		return r;
	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
		size_t k = keywords[i].len;

		if (l->msg[0] == keywords[i].prefix[0] && l->msg_len >= k &&
		    !memcmp(l->msg, keywords[i].prefix, k))
			return keywords[i].fn(st, l, l->msg + k, l->msg_len - k);
	}
	return LR_NO;
}

static void *ma_open(struct log_ctx *ctx)
{
	struct ma_state *st = xcalloc(1, sizeof(*st));

	st->ctx = ctx;
	buf_init(&st->error);
	reset_pending(st);
	return st;
}

static void ma_close(void *state)
{
	struct ma_state *st = state;

	close_table(st, 0);
	free(st->best_label);
	buf_release(&st->error);
	free(st);
}

const struct log_reader max_autotune_reader = {
	"max_autotune", AT_FMT_MAX_AUTOTUNE, ma_open, ma_line, ma_close,
};
