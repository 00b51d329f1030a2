/* Conditional-assembly state and condition evaluation (see asmcond.h). */
#include <string.h>

#include "isa/asmcond.h"
#include "isa/tok.h"
#include "util/lines.h"
#include "banned.h"

enum { ASM_COND_ACTIVE = 1, ASM_COND_TAKEN = 2, ASM_COND_PARENT = 4 };

int asm_cond_active(const struct asm_cond *c)
{
	int d = c->depth < ASM_COND_MAX ? c->depth : ASM_COND_MAX;
	unsigned both = ASM_COND_ACTIVE | ASM_COND_PARENT;

	return !d || (c->level[d - 1] & both) == both;
}

void asm_cond_if(struct asm_cond *c, int value)
{
	int parent = asm_cond_active(c);

	if (c->depth < ASM_COND_MAX)
		c->level[c->depth] = (unsigned char)
			((value ? ASM_COND_ACTIVE | ASM_COND_TAKEN : 0) |
			 (parent ? ASM_COND_PARENT : 0));
	c->depth++;
}

static unsigned char *top(struct asm_cond *c)
{
	return c->depth && c->depth <= ASM_COND_MAX ? &c->level[c->depth - 1] : NULL;
}

void asm_cond_elseif(struct asm_cond *c, int value)
{
	unsigned char *t = top(c);

	if (!t)
		return;
	if (*t & ASM_COND_TAKEN)
		*t &= (unsigned char)~ASM_COND_ACTIVE;
	else if (value)
		*t |= ASM_COND_ACTIVE | ASM_COND_TAKEN;
}

void asm_cond_else(struct asm_cond *c)
{
	asm_cond_elseif(c, 1);
}

void asm_cond_endif(struct asm_cond *c)
{
	if (c->depth)
		c->depth--;
}

static int term(const struct strmap *syms, const char **pp, const char *e,
		long long *v)
{
	const char *p = tok_skip_ws(*pp, e), *w;
	size_t val;
	int neg = 0;

	if (p < e && *p == '!') {
		neg = 1;
		p++;
	}
	if (tok_int(&p, e, v) < 0) {
		for (w = p; w < e && tok_is_ident(*w); w++)
			;
		if (w == p || !strmap_get(syms, p, (size_t)(w - p), &val))
			return -1;
		*v = (long long)val;
		p = w;
	}
	if (neg)
		*v = !*v;
	*pp = p;
	return 0;
}

int asm_cond_eval(const struct strmap *syms, const char *p, const char *e,
		  long long *v)
{
	static const char *const ops[] = { "==", "!=", "<=", ">=", "&&", "||", "<", ">" };
	long long a, b;
	size_t i, nops = sizeof(ops) / sizeof(ops[0]);

	if (term(syms, &p, e, &a) < 0)
		return -1;
	p = tok_skip_ws(p, e);
	if (p >= e) {
		*v = a;
		return 0;
	}
	for (i = 0; i < nops && !span_starts(p, (size_t)(e - p), ops[i]); i++)
		;
	if (i == nops)
		return -1;
	p += strlen(ops[i]);
	if (term(syms, &p, e, &b) < 0 || tok_skip_ws(p, e) < e)
		return -1;
	switch (i) {
	case 0: *v = a == b; break;
	case 1: *v = a != b; break;
	case 2: *v = a <= b; break;
	case 3: *v = a >= b; break;
	case 4: *v = a && b; break;
	case 5: *v = a || b; break;
	case 6: *v = a < b; break;
	default: *v = a > b; break;
	}
	return 0;
}
