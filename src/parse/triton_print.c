/*
 * Reader for what Triton's Autotuner prints with TRITON_PRINT_AUTOTUNING=1
 * (triton/runtime/autotuner.py, Autotuner.run). Triton 3.6 prints four lines:
 *
 *   Triton autotuning for function add_kernel,
 *   with key as (4096, 'torch.float32'),
 *   finished after 0.52s,
 *   best config selected: BLOCK: 128, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None;
 *
 * and Triton up to 3.4 one:
 *
 *   Triton autotuning for function add_kernel finished after 0.52s; best config selected: BLOCK: 128, ...;
 *
 * Forks add to it: a "[YYYY-mm-dd HH:MM:SS] " prefix and " with benchmark
 * time ...; evaluated N configurations;" after the config; Triton-Ascend
 * follows it with per-config times
 *
 *   Triton autotuning benchmark results for function kernel:
 *     config=BLOCK_M: 128, ...; p50=0.0100 ms, p20=0.0090 ms, p80=0.0110 ms [selected]
 *
 * and failures as "Triton autotuning: config=...; compile_failed; reason=...".
 * Triton's verbose "Autotuning failed with <error>" line precedes the
 * record it belongs to. Each record is a tuning (method user_autotune) of
 * the kernel named by the function.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/names.h"
#include "parse/tconfig.h"
#include "parse/triton_print.h"
#include "util/buf.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

#define HEAD "Triton autotuning for function "

struct tp_state {
	struct log_ctx *ctx;
	struct at_kernel *k;	/* the kernel of the record being read */
	struct at_tuning *t;	/* its tuning */
	int expect;		/* multi-line form: 1 key, 2 finished, 3 best config; 0 none */
	struct at_tuning *results;	/* open "benchmark results" block */
	struct buf failed;	/* pending "Autotuning failed with" text */
	struct at_src failed_src;
};

static struct at_src src_of(const struct tp_state *st, const struct log_line *l)
{
	return log_src(st->ctx, l, AT_FMT_TRITON_PRINT);
}

/* Drops a "[2024-01-01 10:00:00] " stamp some forks print first. */
static void unstamp(const char **s, size_t *n)
{
	const char *close;

	if (!*n || **s != '[' || !(close = memchr(*s, ']', *n)) ||
	    (size_t)(close - *s) + 2 > *n || close[1] != ' ')
		return;
	*n -= (size_t)(close + 2 - *s);
	*s = close + 2;
}

static void open_record(struct tp_state *st, const struct log_line *l,
			const char *name, size_t n)
{
	struct at_src src = src_of(st, l);

	st->k = at_kernel_current(st->ctx->set, name, n, src);
	at_set_str(&st->k->kind, &st->k->kind_src, kind_names[KIND_USER_AUTOTUNE],
		   strlen(kind_names[KIND_USER_AUTOTUNE]), src);
	st->t = at_tuning_add(st->k, AT_USER_AUTOTUNE, src);
	st->results = NULL;
	if (st->failed.len)
		at_note_add(&st->k->errors, &st->k->nerrors, &st->k->errors_alloc,
			    st->failed.buf, st->failed.len, st->failed_src);
	buf_reset(&st->failed);
}

/* "0.52s" at the start of s[0..n) (up to ',' ';' or the end). */
static int finished(struct tp_state *st, const char *s, size_t n)
{
	size_t i = 0;
	double secs;

	while (i < n && s[i] != 's')
		i++;
	if (i == n || span_double(s, i, &secs) < 0)
		return -1;
	st->t->elapsed_ms = secs * 1000.0;
	st->t->elapsed_src = st->t->src;
	return 0;
}

/* "<config>;[ with benchmark time ...]" -> the tuning's chosen config. */
static int best_config(struct tp_state *st, const struct log_line *l,
		       const char *s, size_t n)
{
	const char *semi = memchr(s, ';', n), *with;
	struct at_config *c;

	if (semi)
		n = (size_t)(semi - s);
	with = span_find(s, n, " with benchmark time ");
	if (with)
		n = (size_t)(with - s);
	c = at_config_push(&st->t->configs, &st->t->nr, &st->t->alloc,
			   src_of(st, l));
	if (tconfig_parse(c, s, n) < 0)
		return -1;
	st->t->best = (long)st->t->nr - 1;
	st->t->best_src = src_of(st, l);
	st->t->complete = 1;
	return 0;
}

static int head_line(struct tp_state *st, const struct log_line *l,
		     const char *s, size_t n)
{
	const char *fin = span_find(s, n, " finished after ");
	const char *best = span_find(s, n, "; best config selected: ");
	size_t name_len;

	if (n && s[n - 1] == ',' && !fin) {	/* the four-line form */
		open_record(st, l, s, n - 1);
		st->expect = 1;
		return LR_USED;
	}
	if (!fin || !best || best < fin)
		return LR_BAD;
	name_len = (size_t)(fin - s);
	open_record(st, l, s, name_len);
	st->expect = 0;
	if (finished(st, fin + 16, (size_t)(best - fin - 16)) < 0)
		return LR_BAD;
	best += strlen("; best config selected: ");
	return best_config(st, l, best, n - (size_t)(best - s)) < 0 ? LR_BAD : LR_USED;
}

/* The second to fourth lines of the four-line form. */
static int next_line(struct tp_state *st, const struct log_line *l)
{
	static const char *const want[] = {
		NULL, "with key as ", "finished after ", "best config selected: ",
	};
	const char *s = l->msg, *prefix = want[st->expect];
	size_t n = l->msg_len, k = strlen(prefix);
	int stage = st->expect;

	if (!span_starts(s, n, prefix)) {
		st->expect = 0;
		return LR_NO;
	}
	s += k;
	n -= k;
	st->expect = stage == 3 ? 0 : stage + 1;
	if (stage == 1) {
		if (n && s[n - 1] == ',')
			n--;
		free(st->t->key);
		st->t->key = xstrndup(s, n);
		return LR_USED;
	}
	if (stage == 2)
		return finished(st, s, n) < 0 ? LR_BAD : LR_USED;
	return best_config(st, l, s, n) < 0 ? LR_BAD : LR_USED;
}

/* "config=<cfg>; p50=0.0100 ms, ... [selected]" or "... mean=0.01 ms" */
static int result_row(struct tp_state *st, const struct log_line *l)
{
	const char *s = l->msg, *semi, *t;
	size_t n = l->msg_len;
	struct at_config c;
	long i;

	if (!span_starts(s, n, "config=") || !(semi = memchr(s, ';', n)))
		return LR_NO;
	t = span_find(semi, n - (size_t)(semi - s), "p50=");
	if (!t)
		t = span_find(semi, n - (size_t)(semi - s), "mean=");
	at_config_init(&c, src_of(st, l));
	if (!t || tconfig_parse(&c, s + 7, (size_t)(semi - s - 7)) < 0) {
		at_config_release(&c);
		return LR_BAD;
	}
	t = (const char *)memchr(t, '=', n - (size_t)(t - s)) + 1;
	if (span_lead_double(t, n - (size_t)(t - s), &c.time_ms) < 0) {
		at_config_release(&c);
		return LR_BAD;
	}
	i = at_tuning_find(st->results, c.text, strlen(c.text));
	if (i >= 0) {
		st->results->configs[i].time_ms = c.time_ms;
		at_config_release(&c);
	} else {
		ALLOC_GROW(st->results->configs, st->results->nr + 1, st->results->alloc);
		st->results->configs[st->results->nr++] = c;
	}
	return LR_USED;
}

static int on_results(struct tp_state *st, const struct log_line *l,
		      const char *s, size_t n)
{
	struct at_kernel *k;

	if (n && s[n - 1] == ':')
		n--;
	if (!n)
		return LR_BAD;
	k = at_kernel_current(st->ctx->set, s, n, src_of(st, l));
	st->results = st->t && st->k == k ? st->t
					  : at_tuning_add(k, AT_USER_AUTOTUNE, src_of(st, l));
	return LR_USED;
}

/* "config=<cfg>; compile_failed; reason=<why>" */
static int on_failure(struct tp_state *st, const struct log_line *l,
		      const char *s, size_t n)
{
	struct at_src src = src_of(st, l);

	if (st->k)
		at_note_add(&st->k->errors, &st->k->nerrors, &st->k->errors_alloc,
			    s, n, src);
	else
		at_note_add(&st->ctx->set->errors, &st->ctx->set->nerrors,
			    &st->ctx->set->errors_alloc, s, n, src);
	return LR_USED;
}

static int on_failed_with(struct tp_state *st, const struct log_line *l,
			  const char *s, size_t n)
{
	if (st->failed.len)
		buf_addch(&st->failed, ' ');
	buf_add(&st->failed, s, n);
	st->failed_src = src_of(st, l);
	return LR_USED;
}

static const struct {
	const char *prefix;
	int (*fn)(struct tp_state *, const struct log_line *, const char *, size_t);
} keywords[] = {
	{ HEAD, head_line },
	{ "Triton autotuning benchmark results for function ", on_results },
	{ "Triton autotuning: ", on_failure },
	{ "Autotuning failed with ", on_failed_with },
};

static int tp_line(void *state, const struct log_line *l)
{
	struct tp_state *st = state;
	const char *s = l->msg;
	size_t n = l->msg_len, i;
	int r;

	if (!n)
		return LR_NO;
	if (st->expect && (r = next_line(st, l)))
		return r;
	if (st->results && (r = result_row(st, l)))
		return r;
	st->results = NULL;
	if (s[0] != 'T' && s[0] != 'A' && s[0] != '[')
		return LR_NO;
	unstamp(&s, &n);
	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
		size_t k = strlen(keywords[i].prefix);

		if (span_starts(s, n, keywords[i].prefix))
			return keywords[i].fn(st, l, s + k, n - k);
	}
	return LR_NO;
}

static void *tp_open(struct log_ctx *ctx)
{
	struct tp_state *st = xcalloc(1, sizeof(*st));

	st->ctx = ctx;
	buf_init(&st->failed);
	return st;
}

static void tp_close(void *state)
{
	struct tp_state *st = state;

	buf_release(&st->failed);
	free(st);
}

const struct log_reader triton_print_reader = {
	"triton_print", AT_FMT_TRITON_PRINT, tp_open, tp_line, tp_close,
};
