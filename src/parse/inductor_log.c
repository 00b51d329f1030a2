/*
 * Reader for TorchInductor's own autotune lines (TORCH_LOGS=+inductor),
 * as torch 2.11 prints them (corpus/h200-run1/log_profile.txt; format
 * strings in torch/_inductor/runtime/triton_heuristics.py,
 * coordinate_descent_tuner.py, autotune_cache.py, codegen/simd.py,
 * codegen/triton.py, graph.py):
 *
 *   Generating kernel code with kernel_name: K          codegen; a second one is a new instance
 *   CachingAutotuner gets N configs for K               + N lines of configs: the declared ones
 *   kernel src code for OrderedSet([...]) written to: P the source of the "triton_" kernel just built
 *   Output code written to: P                           the wrapper module: every kernel's source file
 *   Benchmark all input configs for K, get:             + "<config>: <ms>, nreg N, nspill N, #shared-mem N" lines
 *   Best config for K: <config>: <ms>, nreg N, ...      closes the benchmark
 *   Save heuristic|coordesc tuning result to P          the .best_config file of that tuning
 *   = Do coordinate descent tuning for K =              opens a coordinate-descent session:
 *   K: Baseline Config <config>, baseline timing <ms>
 *   Try config <config> / COORDESC: <timed config> / CACHED / Got exception E / Tune from ...
 *   K: Improve from <config> <ms> -> <config> <ms>, <x>x   closes it
 *   Function hash H has best config <config>            after it
 *   Skip config <config> because of register spilling: N
 *
 * Messages are matched by their fixed leading words through one keyword
 * table; the lines that follow an opening line (declared configs, rows)
 * carry no kernel name and belong to the record opened last. Benchmarks
 * and coordinate descent run in the model's main thread, so their lines
 * are not interleaved with another kernel's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse/inductor_log.h"
#include "parse/output_code.h"
#include "rundir/layout.h"
#include "parse/tconfig.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

struct ind_state {
	struct log_ctx *ctx;
	struct at_kernel *decl_k;	/* kernel whose declared configs are being listed */
	long decl_left;			/* config lines still expected for it */
	int decl_store;			/* 0: another input already listed them */
	struct at_kernel *gets_k;	/* kernel of the latest "CachingAutotuner gets" */
	struct at_kernel *bench_k;	/* open "Benchmark all input configs" block */
	struct at_tuning *bench;
	struct at_kernel *cd_k;		/* open coordinate-descent session */
	struct at_tuning *cd;
	char *try_text;			/* its pending "Try config" */
	struct at_tuning *last_done;	/* the tuning a "Save ... to" line reports */
};

typedef int (*ind_fn)(struct ind_state *st, const struct log_line *l,
		      const char *rest, size_t n);

static struct at_src src_of(const struct ind_state *st, const struct log_line *l)
{
	return log_src(st->ctx, l, AT_FMT_INDUCTOR_LOG);
}

/* A mention tells the kernel's compile id, when the line has one. */
static void mention(struct at_kernel *k, const struct log_line *l)
{
	if (l->g.compile_id_len && !k->compile_id)
		k->compile_id = xstrndup(l->g.compile_id, l->g.compile_id_len);
}

static struct at_kernel *kernel(struct ind_state *st, const struct log_line *l,
				const char *name, size_t n, int next)
{
	struct at_src src = src_of(st, l);
	struct at_kernel *k = next ? at_kernel_next(st->ctx->set, name, n, src)
				   : at_kernel_current(st->ctx->set, name, n, src);

	mention(k, l);
	return k;
}

static int on_codegen(struct ind_state *st, const struct log_line *l,
		      const char *rest, size_t n)
{
	struct at_kernel *k;

	if (!n)
		return LR_BAD;
	k = kernel(st, l, rest, n, 0);
	/*
	 * Within one graph a name is one kernel, even when its code is
	 * generated twice (log_profile.txt lines 3350 and 3363); the same
	 * name in another graph is another kernel.
	 */
	if (k->codegen_file == st->ctx->file + 1 && k->compile_id &&
	    (l->g.compile_id_len != strlen(k->compile_id) ||
	     memcmp(l->g.compile_id, k->compile_id, l->g.compile_id_len)))
		k = kernel(st, l, rest, n, 1);
	k->codegen_file = st->ctx->file + 1;
	return LR_USED;
}

static int on_gets(struct ind_state *st, const struct log_line *l,
		   const char *rest, size_t n)
{
	const char *mid = span_find(rest, n, " configs for ");
	const char *name;
	struct at_kernel *k;
	long count;

	if (!mid || span_long(rest, (size_t)(mid - rest), &count) < 0 || count < 0)
		return LR_BAD;
	name = mid + strlen(" configs for ");
	n -= (size_t)(name - rest);
	if (!n)
		return LR_BAD;
	k = kernel(st, l, name, n, 0);
	if (k->num_configs >= 0 && k->num_configs_src.file == st->ctx->file &&
	    k->num_configs_src.fmt == AT_FMT_INDUCTOR_LOG)
		k = kernel(st, l, name, n, 1);
	st->decl_store = !k->ndeclared;
	if (k->num_configs < 0) {
		k->num_configs = count;
		k->num_configs_src = src_of(st, l);
	}
	st->decl_k = k;
	st->decl_left = count;
	st->gets_k = k;
	return LR_USED;
}

/* A declared config line after "gets N configs"; LR_NO ends the list. */
static int declared_line(struct ind_state *st, const struct log_line *l)
{
	struct at_config c;
	struct at_kernel *k = st->decl_k;

	at_config_init(&c, src_of(st, l));
	if (tconfig_parse(&c, l->msg, l->msg_len) < 0) {
		at_config_release(&c);
		st->decl_left = 0;
		return LR_NO;
	}
	st->decl_left--;
	if (st->decl_store) {
		ALLOC_GROW(k->declared, k->ndeclared + 1, k->declared_alloc);
		k->declared[k->ndeclared++] = c;
	} else {
		at_config_release(&c);
	}
	return LR_USED;
}

static void set_source(struct ind_state *st, struct at_kernel *k,
		       const char *path, size_t n, struct at_src src)
{
	if (at_set_str(&k->source_file, &k->source_src, path, n, src))
		k->source_local = rd_resolve_logged(st->ctx->root, path, n);
}

static int on_src_written(struct ind_state *st, const struct log_line *l,
			  const char *rest, size_t n)
{
	const char *to = span_find(rest, n, " written to: ");
	const char *path;

	if (!to)
		return LR_NO;
	path = to + strlen(" written to: ");
	n -= (size_t)(path - rest);
	if (!n)
		return LR_BAD;
	if (st->gets_k)
		set_source(st, st->gets_k, path, n, src_of(st, l));
	return LR_USED;
}

static int on_output_code(struct ind_state *st, const struct log_line *l,
			  const char *rest, size_t n)
{
	const struct oc_module *m;
	size_t i;

	if (!n)
		return LR_BAD;
	if (!st->ctx->wrappers)
		return LR_USED;
	m = output_code_get(st->ctx->wrappers, st->ctx->set, st->ctx->root,
			    rest, n);
	for (i = 0; i < m->nr; i++) {
		struct at_src src = { m->input, m->k[i].line, AT_FMT_OUTPUT_CODE };
		struct at_kernel *k = at_kernel_current(st->ctx->set, m->k[i].name,
							strlen(m->k[i].name),
							src_of(st, l));

		set_source(st, k, m->k[i].path, strlen(m->k[i].path), src);
	}
	return LR_USED;
}

static int on_bench(struct ind_state *st, const struct log_line *l,
		    const char *rest, size_t n)
{
	const char *get = span_rfind(rest, n, ", get:");
	struct at_kernel *k;

	if (!get || get == rest)
		return LR_BAD;
	k = kernel(st, l, rest, (size_t)(get - rest), 0);
	st->bench_k = k;
	st->bench = at_tuning_add(k, AT_BENCHMARK, src_of(st, l));
	return LR_USED;
}

/* Adds a timed config to t unless one with the same text is there; its index. */
static long add_timed(struct at_tuning *t, struct at_config *c)
{
	long i = at_tuning_find(t, c->text, strlen(c->text));

	if (i >= 0) {
		struct at_config *have = &t->configs[i];

		if (isnan(have->time_ms)) {
			at_config_release(have);
			*have = *c;
		} else {
			at_config_release(c);
		}
		return i;
	}
	ALLOC_GROW(t->configs, t->nr + 1, t->alloc);
	t->configs[t->nr] = *c;
	return (long)t->nr++;
}

/* A "<config>: <ms>, nreg ..." row of the open benchmark; LR_NO if not one. */
static int bench_row(struct ind_state *st, const struct log_line *l)
{
	struct at_config c;

	at_config_init(&c, src_of(st, l));
	if (tconfig_timed(&c, l->msg, l->msg_len) < 0) {
		at_config_release(&c);
		return LR_NO;
	}
	add_timed(st->bench, &c);
	return LR_USED;
}

/* "K: <timed config>" after "Best config for ". */
static int on_best(struct ind_state *st, const struct log_line *l,
		   const char *rest, size_t n)
{
	const char *colon = span_find(rest, n, ": ");
	struct at_kernel *k;
	struct at_tuning *t;
	struct at_config c;
	const char *cfg;

	if (!colon || colon == rest)
		return LR_BAD;
	cfg = colon + 2;
	at_config_init(&c, src_of(st, l));
	if (tconfig_timed(&c, cfg, n - (size_t)(cfg - rest)) < 0) {
		at_config_release(&c);
		return LR_BAD;
	}
	k = kernel(st, l, rest, (size_t)(colon - rest), 0);
	t = st->bench && st->bench_k == k ? st->bench
					  : at_tuning_add(k, AT_BENCHMARK, src_of(st, l));
	t->best = add_timed(t, &c);
	t->best_src = src_of(st, l);
	t->complete = 1;
	st->last_done = t;
	st->bench = NULL;
	st->bench_k = NULL;
	return LR_USED;
}

static int on_save(struct ind_state *st, const struct log_line *l,
		   const char *rest, size_t n)
{
	const char *to = span_find(rest, n, " tuning result to ");
	const char *path;

	(void)l;
	if (!to)
		return LR_NO;
	path = to + strlen(" tuning result to ");
	n -= (size_t)(path - rest);
	if (!n)
		return LR_BAD;
	if (st->last_done)
		at_tuning_saved_to(st->ctx->set, st->last_done, path, n);
	return LR_USED;
}

static struct at_tuning *coordesc(struct ind_state *st, struct at_kernel *k,
				  const struct log_line *l)
{
	if (!st->cd || st->cd_k != k) {
		st->cd = at_tuning_add(k, AT_COORDESC, src_of(st, l));
		st->cd_k = k;
	}
	return st->cd;
}

static int on_do_coordesc(struct ind_state *st, const struct log_line *l,
			  const char *rest, size_t n)
{
	if (n < 3 || memcmp(rest + n - 2, " =", 2))
		return LR_BAD;
	st->cd = NULL;
	coordesc(st, kernel(st, l, rest, n - 2, 0), l);
	return LR_USED;
}

static int on_try(struct ind_state *st, const struct log_line *l,
		  const char *rest, size_t n)
{
	(void)l;
	free(st->try_text);
	st->try_text = xstrndup(rest, n);
	return LR_USED;
}

static int on_coordesc_row(struct ind_state *st, const struct log_line *l,
			   const char *rest, size_t n)
{
	struct at_config c;

	at_config_init(&c, src_of(st, l));
	if (tconfig_timed(&c, rest, n) < 0) {
		at_config_release(&c);
		return LR_BAD;
	}
	if (st->cd)
		add_timed(st->cd, &c);
	else
		at_config_release(&c);
	free(st->try_text);
	st->try_text = NULL;
	return LR_USED;
}

static int on_exception(struct ind_state *st, const struct log_line *l,
			const char *rest, size_t n)
{
	struct at_config c;

	if (!st->cd)
		return LR_NO;
	if (!st->try_text)
		return LR_USED;
	at_config_init(&c, src_of(st, l));
	if (tconfig_parse(&c, st->try_text, strlen(st->try_text)) < 0) {
		at_config_release(&c);
		return LR_BAD;
	}
	c.time_ms = INFINITY;
	c.error = xstrndup(rest, n);
	add_timed(st->cd, &c);
	return LR_USED;
}

static int on_known(struct ind_state *st, const struct log_line *l,
		    const char *rest, size_t n)
{
	(void)st; (void)l; (void)rest; (void)n;
	return LR_USED;
}

static int on_skip(struct ind_state *st, const struct log_line *l,
		   const char *rest, size_t n)
{
	struct at_kernel *k = st->gets_k;

	if (k)
		at_note_add(&k->errors, &k->nerrors, &k->errors_alloc,
			    l->msg, l->msg_len, src_of(st, l));
	(void)rest; (void)n;
	return LR_USED;
}

/* "<config> <ms>" (one side of "A tA -> B tB"): parses into c. */
static int config_and_time(struct at_config *c, const char *s, size_t n)
{
	const char *sp = span_rfind(s, n, " ");

	if (!sp || span_double(sp + 1, n - (size_t)(sp + 1 - s), &c->time_ms) < 0)
		return -1;
	return tconfig_parse(c, s, (size_t)(sp - s));
}

/* "K: Baseline Config <config>, baseline timing <ms>" */
static int on_baseline(struct ind_state *st, const struct log_line *l,
		       const char *name, size_t nlen, const char *rest, size_t n)
{
	const char *t = span_rfind(rest, n, ", baseline timing ");
	struct at_config c;

	if (!t)
		return LR_BAD;
	at_config_init(&c, src_of(st, l));
	if (span_double(t + 18, n - (size_t)(t + 18 - rest), &c.time_ms) < 0 ||
	    tconfig_parse(&c, rest, (size_t)(t - rest)) < 0) {
		at_config_release(&c);
		return LR_BAD;
	}
	add_timed(coordesc(st, kernel(st, l, name, nlen, 0), l), &c);
	return LR_USED;
}

/* "K: Improve from <config> <ms> -> <config> <ms>, <x>x" */
static int on_improve(struct ind_state *st, const struct log_line *l,
		      const char *name, size_t nlen, const char *rest, size_t n)
{
	const char *arrow = span_find(rest, n, " -> ");
	const char *right, *comma;
	struct at_config from, to;
	struct at_tuning *t;
	double x;
	size_t rn;

	if (!arrow)
		return LR_BAD;
	right = arrow + 4;
	rn = n - (size_t)(right - rest);
	comma = span_rfind(right, rn, ", ");
	at_config_init(&from, src_of(st, l));
	at_config_init(&to, src_of(st, l));
	if (!comma || rest[n - 1] != 'x' ||
	    span_double(comma + 2, (size_t)(rest + n - 1 - comma - 2), &x) < 0 ||
	    config_and_time(&from, rest, (size_t)(arrow - rest)) < 0 ||
	    config_and_time(&to, right, (size_t)(comma - right)) < 0) {
		at_config_release(&from);
		at_config_release(&to);
		return LR_BAD;
	}
	t = coordesc(st, kernel(st, l, name, nlen, 0), l);
	add_timed(t, &from);
	t->best = add_timed(t, &to);
	t->best_src = src_of(st, l);
	t->speedup = x;
	t->complete = 1;
	st->last_done = t;
	st->cd = NULL;
	st->cd_k = NULL;
	return LR_USED;
}

/* Messages that open with the kernel's name: "K: Baseline ..." and "K: Improve ...". */
static int named_line(struct ind_state *st, const struct log_line *l)
{
	static const struct {
		const char *word;
		int (*fn)(struct ind_state *, const struct log_line *,
			  const char *, size_t, const char *, size_t);
	} named[] = {
		{ ": Baseline Config ", on_baseline },
		{ ": Improve from ", on_improve },
	};
	const char *colon = memchr(l->msg, ':', l->msg_len);
	size_t i, nlen, off;

	if (!colon || colon == l->msg)
		return LR_NO;
	nlen = (size_t)(colon - l->msg);
	if (memchr(l->msg, ' ', nlen))
		return LR_NO;
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		if (!span_starts(colon, l->msg_len - nlen, named[i].word))
			continue;
		off = nlen + strlen(named[i].word);
		return named[i].fn(st, l, l->msg, nlen, l->msg + off,
				   l->msg_len - off);
	}
	return LR_NO;
}

#define KW(prefix, fn) { prefix, sizeof(prefix) - 1, fn }

static const struct {
	const char *prefix;
	size_t len;
	ind_fn fn;
} keywords[] = {
	KW("Generating kernel code with kernel_name: ", on_codegen),
	KW("CachingAutotuner gets ", on_gets),
	KW("kernel src code for ", on_src_written),
	KW("Output code written to: ", on_output_code),
	KW("Benchmark all input configs for ", on_bench),
	KW("Best config for ", on_best),
	KW("Save ", on_save),
	KW("= Do coordinate descent tuning for ", on_do_coordesc),
	KW("Try config ", on_try),
	KW("COORDESC: ", on_coordesc_row),
	KW("CACHED", on_known),
	KW("Got exception ", on_exception),
	KW("Tune from ", on_known),
	KW("Function hash ", on_known),
	KW("Skip config ", on_skip),
};

static int ind_line(void *state, const struct log_line *l)
{
	struct ind_state *st = state;
	size_t i;
	int r;

	if (!l->msg_len)
		return LR_NO;
	if (st->decl_left > 0 && (r = declared_line(st, l)))
		return r;
	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
		size_t k = keywords[i].len;

		if (l->msg[0] == keywords[i].prefix[0] && l->msg_len >= k &&
		    !memcmp(l->msg, keywords[i].prefix, k) &&
		    (r = keywords[i].fn(st, l, l->msg + k, l->msg_len - k)))
			return r;
	}
	if (st->bench && (r = bench_row(st, l)))
		return r;
	return named_line(st, l);
}

static void *ind_open(struct log_ctx *ctx)
{
	struct ind_state *st = xcalloc(1, sizeof(*st));

	st->ctx = ctx;
	return st;
}

static void ind_close(void *state)
{
	struct ind_state *st = state;

	free(st->try_text);
	free(st);
}

const struct log_reader inductor_log_reader = {
	"inductor_log", AT_FMT_INDUCTOR_LOG, ind_open, ind_line, ind_close,
};
