/*
 * The small helpers the rule files share (rules.h): record the sentence,
 * the knobs and the numbers of a rule that fires, and the questions rules
 * ask of a kernel. Header-only, so each rule file keeps its functions
 * static.
 */
#ifndef TKO_DECIDE_RULES_KIT_H
#define TKO_DECIDE_RULES_KIT_H

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "decide/rules.h"
#include "json/reflect.h"
#include "util/buf.h"
#include "util/mem.h"

static inline void rk_ev(struct rule_out *o, const char *key, double value)
{
	struct an_fired *f = o->f;

	f->ev = rf_grow(f->ev, f->nev, sizeof(*f->ev));
	f->ev[f->nev].key = xstrdup(key);
	f->ev[f->nev++].value = value;
}

__attribute__((format(printf, 2, 3)))
static inline void rk_why(struct rule_out *o, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	o->f->why = buf_detach(&b, NULL);
}

static inline void rk_knobs(struct rule_out *o, const char *text)
{
	o->f->knobs = xstrdup(text);
}

/* Hot, or of unknown share (a rule that needs hotness still reports then). */
static inline int rk_hot(const struct rule_ctx *c, const struct an_kernel *k)
{
	return isnan(k->share) || k->share >= c->lim->hot_share;
}

/* Whether one of the kernel's ATen ops is in `ops` (NULL-terminated). */
static inline int rk_has_aten(const struct an_kernel *k, const char *const *ops)
{
	size_t i, j;

	for (i = 0; i < k->naten; i++)
		for (j = 0; ops[j]; j++)
			if (!strcmp(k->aten[i], ops[j]))
				return 1;
	return 0;
}

/* A pointwise or reduction kernel without tl.dot: bound by memory, not compute. */
static inline int rk_memory_bound(const struct an_kernel *k)
{
	return (kind_flags(k->kind) & KIND_MEMORY_BOUND) && k->src_dot <= 0;
}

/* Whether the ISA was read and under `share` of its >= `min_ops` accesses are 128-bit. */
static inline int rk_narrow(const struct rule_ctx *c, const struct an_kernel *k)
{
	return k->isa.file && k->isa.mem_ops >= c->lim->narrow_min_ops &&
	       !isnan(k->isa.vector_share) && k->isa.vector_share < c->lim->narrow_share;
}

#endif
