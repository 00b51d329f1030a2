/*
 * A kernel's search space (see space.h): the parameters from a rule table,
 * the validity rules, the starting guess, and configs to and from text and
 * JSON.
 *
 * Ranges follow Inductor where it has one (TRITON_MAX_BLOCK in torch's
 * runtime/hints.py: X 4096, Y and Z 1024, R0 65536 and R1 32768, which its
 * coordinate descent caps at the size hint) and the hardware elsewhere:
 * at most 1024 threads per block, so 32 warps on NVIDIA and 16 waves on
 * AMD; shared memory per arch (target/target.c). A block larger than the
 * next power of two of its size hint only adds masked lanes, so it is not
 * tried.
 * waves_per_eu 0 is the compiler's choice; DAS defaults it to 1 on DCU
 * (docs/dcu.md section 11), so 0..4 covers both. schedule_hint is only known to
 * triton-das (gfx92x/93x).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "tune/space.h"
#include "util/mem.h"
#include "util/opts.h"
#include "util/plural.h"
#include "banned.h"

#define KIND(k) (1u << (k))
#define ALL_KINDS 0xffffu
#define LOOP_KINDS (KIND(TUNE_KIND_TEMPLATE) | KIND(TUNE_KIND_REDUCTION) | KIND(TUNE_KIND_USER))
#define HIP (1u << TARGET_HIP)
#define CUDA (1u << TARGET_CUDA)

/* Elements per thread past which a block only adds register pressure. */
#define MAX_ELEMS_PER_THREAD 128
/* A template's fp32 accumulator registers per thread. */
#define MAX_ACC_PER_THREAD 256

static const char *const nonkdim_choices[] = { "0", "16", "32", NULL };
static const char *const sched_choices[] = { "none", "local-prefetch", NULL };

struct rule {
	const char *name;		/* the parameter */
	enum tune_pkind kind;		/* how it steps */
	enum tune_at at;		/* how it reaches the compiler */
	unsigned kinds;			/* kernel kinds it applies to */
	unsigned backends;		/* HIP, CUDA */
	int hcu_only;			/* triton-das options */
	int min, max;			/* range (max may be lowered per kernel/arch) */
	const char *const *choices;	/* TUNE_CHOICE values */
	int dim;			/* tune_dim, or -1 */
	int tuned;			/* 0: carried at its base value */
	int split;			/* rows per program, not a block dimension */
};

static const struct rule rules[] = {
	{ "XBLOCK", TUNE_POW2, TUNE_AT_CONSTEXPR, ALL_KINDS, HIP | CUDA, 0, 1, 4096, NULL, TUNE_DIM_X, 1, 0 },
	{ "YBLOCK", TUNE_POW2, TUNE_AT_CONSTEXPR, ALL_KINDS, HIP | CUDA, 0, 1, 1024, NULL, TUNE_DIM_Y, 1, 0 },
	{ "ZBLOCK", TUNE_POW2, TUNE_AT_CONSTEXPR, ALL_KINDS, HIP | CUDA, 0, 1, 1024, NULL, TUNE_DIM_Z, 1, 0 },
	{ "R0_BLOCK", TUNE_POW2, TUNE_AT_CONSTEXPR, ALL_KINDS, HIP | CUDA, 0, 2, 65536, NULL, TUNE_DIM_R0, 1, 0 },
	{ "R1_BLOCK", TUNE_POW2, TUNE_AT_CONSTEXPR, ALL_KINDS, HIP | CUDA, 0, 2, 32768, NULL, TUNE_DIM_R1, 1, 0 },
	/* a mix-order reduction's rows per program (workspace.c sets its range) */
	{ "RSPLIT_SIZE", TUNE_POW2, TUNE_AT_CONSTEXPR, ALL_KINDS, HIP | CUDA, 0, 1, 8192, NULL, -1, 1, 1 },
	/* its row loop's software pipelining (tl.range num_stages), which Inductor's
	 * own configs keep at 1 (mix_order_reduction_allow_multi_stages) */
	{ "NUM_STAGES", TUNE_STEP, TUNE_AT_CONSTEXPR, ALL_KINDS, HIP | CUDA, 0, 1, 4, NULL, -1, 1, 0 },
	{ "BLOCK_M", TUNE_POW2, TUNE_AT_BODY, KIND(TUNE_KIND_TEMPLATE), HIP | CUDA, 0, 16, 256, NULL, -1, 1, 0 },
	{ "BLOCK_N", TUNE_POW2, TUNE_AT_BODY, KIND(TUNE_KIND_TEMPLATE), HIP | CUDA, 0, 16, 256, NULL, -1, 1, 0 },
	{ "BLOCK_K", TUNE_POW2, TUNE_AT_BODY, KIND(TUNE_KIND_TEMPLATE), HIP | CUDA, 0, 16, 128, NULL, -1, 1, 0 },
	{ "num_warps", TUNE_POW2, TUNE_AT_WARPS, ALL_KINDS, HIP | CUDA, 0, 1, 32, NULL, -1, 1, 0 },
	{ "num_stages", TUNE_STEP, TUNE_AT_STAGES, LOOP_KINDS, HIP | CUDA, 0, 1, 5, NULL, -1, 1, 0 },
	{ "num_stages", TUNE_STEP, TUNE_AT_STAGES, ALL_KINDS & ~LOOP_KINDS, HIP | CUDA, 0, 1, 1, NULL, -1, 0, 0 },
	{ "waves_per_eu", TUNE_STEP, TUNE_AT_OPTION, ALL_KINDS, HIP, 0, 0, 4, NULL, -1, 1, 0 },
	{ "matrix_instr_nonkdim", TUNE_CHOICE, TUNE_AT_OPTION, KIND(TUNE_KIND_TEMPLATE), HIP, 0, 0, 2, nonkdim_choices, -1, 1, 0 },
	{ "schedule_hint", TUNE_CHOICE, TUNE_AT_OPTION, KIND(TUNE_KIND_TEMPLATE), HIP, 1, 0, 1, sched_choices, -1, 1, 0 },
};

static int is_pow2(long v)
{
	return v > 0 && !(v & (v - 1));
}

static long next_pow2(long v)
{
	long p = 1;

	while (p < v && p < (1L << 40))
		p <<= 1;
	return p;
}

/* Bytes of one element of a Triton type ("*fp16" -> 2). */
static int type_bytes(const char *t)
{
	static const struct { const char *suffix; int bytes; } sizes[] = {
		{ "fp64", 8 }, { "i64", 8 }, { "u64", 8 }, { "fp32", 4 }, { "i32", 4 },
		{ "u32", 4 }, { "fp16", 2 }, { "bf16", 2 }, { "i16", 2 }, { "u16", 2 },
	};
	size_t i;

	if (!t)
		return 0;
	if (*t == '*')
		t++;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (!strcmp(t, sizes[i].suffix))
			return sizes[i].bytes;
	return 1;
}

int tune_space_freeze(struct tune_space *s, int (*grid_param)(const struct tune_param *p,
							      void *ctx), void *ctx)
{
	size_t i;
	int n = 0;

	for (i = 0; i < s->n; i++)
		if (s->p[i].tuned && grid_param(&s->p[i], ctx)) {
			s->p[i].tuned = 0;
			n++;
		}
	return n;
}

int tune_space_find(const struct tune_space *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->p[i].name, name))
			return (int)i;
	return -1;
}

static int is_constexpr_arg(const struct tune_kernel *k, const char *name)
{
	const struct tune_arg *a = tune_kernel_arg(k, name);

	return a && a->type && !strcmp(a->type, "constexpr");
}

static int rule_applies(const struct rule *r, const struct tune_kernel *k,
		      const struct target *arch)
{
	if (!(r->kinds & KIND(k->kind)) || !(r->backends & (1u << arch->backend)))
		return 0;
	if (r->hcu_only && !arch->hcu)
		return 0;
	if (r->at == TUNE_AT_CONSTEXPR)
		return is_constexpr_arg(k, r->name);
	if (r->at == TUNE_AT_BODY)
		return json_is_integer(json_object_get(k->body_consts, r->name));
	return 1;
}

static void add_param(struct tune_space *s, const struct tune_param *p)
{
	if (s->n < TUNE_MAXP)
		s->p[s->n++] = *p;
}

static void add_rule(struct tune_space *s, const struct rule *r,
		     const struct tune_kernel *k, const struct target *arch)
{
	struct tune_param p = { r->name, r->kind, r->at, r->min, r->max,
				r->choices, r->dim, r->tuned, r->split };

	if (r->at == TUNE_AT_WARPS)
		p.max = arch->max_threads / arch->wave;
	if (r->at == TUNE_AT_STAGES && r->tuned)
		p.max = k->kind == TUNE_KIND_REDUCTION ? 2 : arch->max_stages;
	if (r->dim >= 0 && k->size_hint[r->dim] > 0) {
		long cap = next_pow2(k->size_hint[r->dim]);

		if (cap < p.max)
			p.max = cap < p.min ? p.min : (int)cap;
	}
	add_param(s, &p);
}

/* A hand-written kernel's *BLOCK* constexprs, not already in the table. */
static void add_user_blocks(struct tune_space *s, const struct tune_kernel *k)
{
	size_t i;

	for (i = 0; i < k->nargs; i++) {
		struct tune_param p = { k->args[i].name, TUNE_POW2, TUNE_AT_CONSTEXPR,
					16, 8192, NULL, -1, 1, 0 };

		if (is_constexpr_arg(k, k->args[i].name) &&
		    strstr(k->args[i].name, "BLOCK") &&
		    tune_space_find(s, k->args[i].name) < 0)
			add_param(s, &p);
	}
}

/*
 * The block a foreach kernel's body fixes (`XBLOCK: tl.constexpr = 1024`;
 * per sub-kernel XBLOCK_0, XBLOCK_1, ...: the smallest, whose threads idle
 * first), over every dim; 1 if none.
 */
static long foreach_numel(const struct tune_kernel *k)
{
	long n = 1;
	int d;

	for (d = 0; d < TUNE_NDIMS; d++) {
		const char *block = tune_dim_block((enum tune_dim)d), *key;
		size_t len = strlen(block);
		long least = 0;
		json_t *v;

		json_object_foreach((json_t *)k->body_consts, key, v) {
			const char *tail = key + len;

			if (strncmp(key, block, len) || !json_is_integer(v) ||
			    json_integer_value(v) < 1 || is_constexpr_arg(k, key) ||
			    (*tail && (tail[0] != '_' || tail[1] < '0' || tail[1] > '9')))
				continue;
			if (!least || json_integer_value(v) < least)
				least = (long)json_integer_value(v);
		}
		if (least)
			n *= least;
	}
	return n;
}

void tune_space_build(struct tune_space *s, const struct tune_kernel *k,
		      const struct target *arch)
{
	size_t i;
	json_t *r0 = json_object_get(k->body_consts, "R0_BLOCK");

	memset(s, 0, sizeof(*s));
	s->kind = k->kind;
	s->arch = arch;
	s->fixed_numel = json_is_integer(r0) && !is_constexpr_arg(k, "R0_BLOCK")
		? (long)json_integer_value(r0) : 1;
	if (k->kind == TUNE_KIND_FOREACH)
		s->fixed_numel = foreach_numel(k);
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (rule_applies(&rules[i], k, arch))
			add_rule(s, &rules[i], k, arch);
	if (k->kind == TUNE_KIND_USER)
		add_user_blocks(s, k);
	if (k->even_k && k->tmpl_dims[2] > 0)
		s->tmpl_k = k->tmpl_dims[2];
	for (i = 0; i < k->nargs && !s->elt_bytes; i++)
		if (tune_arg_is_ptr(&k->args[i]))
			s->elt_bytes = type_bytes(k->args[i].type);
}

static int value_of(const struct tune_space *s, const struct tune_config *c,
		    const char *name, int fallback)
{
	int i = tune_space_find(s, name);

	return i < 0 ? fallback : c->v[i];
}

static int range_ok(const struct tune_space *s, const struct tune_config *c,
		    struct buf *why)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct tune_param *p = &s->p[i];
		int v = c->v[i];

		if (v < p->min || v > p->max || (p->kind == TUNE_POW2 && !is_pow2(v))) {
			if (why)
				buf_addf(why, "%s=%d is outside %s[%d, %d]", p->name, v,
					 p->kind == TUNE_POW2 ? "powers of two in " : "",
					 p->min, p->max);
			return 0;
		}
	}
	return 1;
}

static int template_ok(const struct tune_space *s, const struct tune_config *c,
		       long threads, struct buf *why)
{
	long bm = value_of(s, c, "BLOCK_M", 0), bn = value_of(s, c, "BLOCK_N", 0);
	long bk = value_of(s, c, "BLOCK_K", 0), stages = value_of(s, c, "num_stages", 1);
	long bufs = s->arch->backend == TARGET_HIP && stages > 1 ? stages - 1 : stages;
	long lds = bufs * (bm * bk + bk * bn) * (s->elt_bytes ? s->elt_bytes : 2);

	if (bm && bn && bm * bn / threads > MAX_ACC_PER_THREAD) {
		if (why)
			buf_addf(why, "a %ldx%ld tile needs %ld accumulators per thread",
				 bm, bn, bm * bn / threads);
		return 0;
	}
	/* EVEN_K templates load K unmasked: a BLOCK_K that does not divide K
	 * would read past the operands */
	if (bk && s->tmpl_k && s->tmpl_k % bk) {
		if (why)
			buf_addf(why, "BLOCK_K=%ld does not divide K=%ld (the template has EVEN_K)",
				 bk, s->tmpl_k);
		return 0;
	}
	if (lds > s->arch->smem_block) {
		if (why)
			buf_addf(why, "needs %ld bytes of shared memory, %s has %d",
				 lds, s->arch->name, s->arch->smem_block);
		return 0;
	}
	return 1;
}

static long block_numel(const struct tune_space *s, const struct tune_config *c)
{
	long n = s->fixed_numel;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->p[i].at == TUNE_AT_CONSTEXPR && s->p[i].kind == TUNE_POW2 && !s->p[i].split)
			n *= c->v[i];
	return n;
}

/* A mix-order reduction steps through its RSPLIT_SIZE rows XBLOCK at a
 * time without a row mask: a larger XBLOCK would read the next split's. */
static int split_ok(const struct tune_space *s, const struct tune_config *c, struct buf *why)
{
	size_t i;
	long xblock = value_of(s, c, "XBLOCK", 1);

	for (i = 0; i < s->n; i++)
		if (s->p[i].split && xblock > c->v[i]) {
			if (why)
				buf_addf(why, "XBLOCK=%ld is more than %s=%d row%s", xblock,
					 s->p[i].name, c->v[i], plural(c->v[i]));
			return 0;
		}
	return 1;
}

int tune_config_valid(const struct tune_space *s, const struct tune_config *c,
		      struct buf *why)
{
	long warps = value_of(s, c, "num_warps", 4);
	long threads = warps * s->arch->wave, numel;

	if (!range_ok(s, c, why))
		return 0;
	if (threads > s->arch->max_threads) {
		if (why)
			buf_addf(why, "%ld threads exceed %d", threads, s->arch->max_threads);
		return 0;
	}
	if (s->kind == TUNE_KIND_TEMPLATE)
		return template_ok(s, c, threads, why);
	if (!split_ok(s, c, why))
		return 0;
	numel = block_numel(s, c);
	if (warps > 1 && numel < threads) {
		if (why)
			buf_addf(why, "a block of %ld element%s leaves threads of %ld idle",
				 numel, plural(numel), threads);
		return 0;
	}
	if (s->kind != TUNE_KIND_USER && numel / threads > MAX_ELEMS_PER_THREAD) {
		if (why)
			buf_addf(why, "%ld elements per thread", numel / threads);
		return 0;
	}
	return 1;
}

static int clamp_pow2(long v, const struct tune_param *p)
{
	long x = next_pow2(v < 1 ? 1 : v);

	if (x > p->max)
		x = p->max;
	if (x < p->min)
		x = p->min;
	return (int)x;
}

/* Inductor-like starting points: 1024 elements of a 1-D pointwise block,
 * 32x32 tiles, 16^3 cubes, R0_BLOCK up to 1024 with XBLOCK filling 2048,
 * about 256 elements per warp. */
static void default_blocks(const struct tune_space *s, const struct tune_kernel *k,
			   struct tune_config *c)
{
	int ndims = 0, i;
	long rblock = 1;

	for (i = 0; i < (int)s->n; i++)
		if (s->p[i].dim >= 0 && s->p[i].dim < TUNE_DIM_R0)
			ndims++;
	for (i = 0; i < (int)s->n; i++) {
		const struct tune_param *p = &s->p[i];

		if (p->dim >= TUNE_DIM_R0) {
			c->v[i] = clamp_pow2(1024, p);
			rblock *= c->v[i];
		}
	}
	rblock *= s->fixed_numel;
	for (i = 0; i < (int)s->n; i++) {
		const struct tune_param *p = &s->p[i];
		long want = ndims <= 1 ? 1024 : ndims == 2 ? 32 : 16;

		if (p->dim >= 0 && p->dim < TUNE_DIM_R0)
			c->v[i] = clamp_pow2(rblock > 1 ? 2048 / rblock : want, p);
		else if (p->at == TUNE_AT_BODY)
			c->v[i] = clamp_pow2((long)json_integer_value(
				json_object_get(k->body_consts, p->name)), p);
		else if (p->at == TUNE_AT_CONSTEXPR && p->dim < 0)
			c->v[i] = clamp_pow2((long)json_integer_value(
				json_object_get(k->constants, p->name)), p);
	}
}

void tune_config_default(const struct tune_space *s, const struct tune_kernel *k,
			 struct tune_config *c)
{
	size_t i;
	long numel;
	int w;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < s->n; i++)
		c->v[i] = s->p[i].min;
	default_blocks(s, k, c);
	numel = s->kind == TUNE_KIND_TEMPLATE
		? (long)value_of(s, c, "BLOCK_M", 64) * value_of(s, c, "BLOCK_N", 64)
		: block_numel(s, c);
	for (i = 0; i < s->n; i++) {
		const struct tune_param *p = &s->p[i];

		if (p->at == TUNE_AT_WARPS) {
			w = k->num_warps ? k->num_warps : (int)(numel / 256);
			c->v[i] = clamp_pow2(w > 8 ? 8 : w, p);
		} else if (p->at == TUNE_AT_STAGES) {
			w = k->num_stages ? k->num_stages : 1;
			c->v[i] = w > p->max ? p->max : w;
		}
	}
}

static int set_value(const struct tune_space *s, struct tune_config *c,
		     const char *name, const char *val, struct buf *err)
{
	int i = tune_space_find(s, name), j;
	long v;

	if (i < 0) {
		buf_addf(err, "'%s' is not a parameter of this kernel", name);
		return -1;
	}
	if (s->p[i].kind == TUNE_CHOICE) {
		for (j = 0; s->p[i].choices[j]; j++)
			if (!strcmp(s->p[i].choices[j], val)) {
				c->v[i] = j;
				return 0;
			}
		buf_addf(err, "'%s' is not a value of %s", val, name);
		return -1;
	}
	if (parse_long(val, &v) < 0 || v < 0 || v > (1L << 30)) {
		buf_addf(err, "'%s' is not a number for %s", val, name);
		return -1;
	}
	c->v[i] = (int)v;
	return 0;
}

struct parse_ctx {
	const struct tune_space *s;	/* the parameters */
	struct tune_config *c;		/* what is set */
};

static int parse_item(void *ctx, const char *item, struct buf *err)
{
	struct parse_ctx *pc = ctx;
	char *name = xstrdup(item), *eq = strchr(name, '=');
	int ret = -1;

	if (eq) {
		*eq = '\0';
		ret = set_value(pc->s, pc->c, name, eq + 1, err);
	} else {
		buf_addf(err, "'%s' is not NAME=VALUE", item);
	}
	free(name);
	return ret;
}

int tune_config_parse(const struct tune_space *s, const char *text,
		      struct tune_config *c, struct buf *err)
{
	struct parse_ctx pc = { s, c };

	return tune_each_item(text, parse_item, &pc, err);
}

static void from_json_value(const struct tune_space *s, struct tune_config *c,
			    const char *name, const json_t *v)
{
	struct buf ignore = BUF_INIT;

	if (json_is_integer(v)) {
		char num[32];

		snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
		set_value(s, c, name, num, &ignore);
	} else if (json_is_string(v)) {
		set_value(s, c, name, json_string_value(v), &ignore);
	}
	buf_release(&ignore);
}

void tune_config_from_json(const struct tune_space *s, const json_t *j,
			   struct tune_config *c)
{
	const json_t *kw = json_object_get(j, "kwargs");
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)(kw ? kw : j), key, v)
		if (tune_space_find(s, key) >= 0)
			from_json_value(s, c, key, v);
	json_object_foreach((json_t *)j, key, v)
		if (strcmp(key, "kwargs") && tune_space_find(s, key) >= 0)
			from_json_value(s, c, key, v);
}

void tune_param_value(const struct tune_param *p, int v, struct buf *out)
{
	if (p->kind == TUNE_CHOICE)
		buf_adds(out, p->choices[v]);
	else
		buf_addf(out, "%d", v);
}

static json_t *param_json(const struct tune_param *p, int v)
{
	long n;

	if (p->kind == TUNE_CHOICE)
		return parse_long(p->choices[v], &n) == 0 ? json_integer(n)
			: json_string(p->choices[v]);
	return json_integer(v);
}

json_t *tune_config_to_json(const struct tune_space *s, const struct tune_config *c)
{
	json_t *j = json_object(), *kw = json_object(), *body = json_object();
	json_t *opt = json_object();
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct tune_param *p = &s->p[i];
		json_t *v = param_json(p, c->v[i]);

		switch (p->at) {
		case TUNE_AT_CONSTEXPR:
			json_object_set_new(kw, p->name, v);
			break;
		case TUNE_AT_BODY:
			json_object_set_new(body, p->name, v);
			break;
		case TUNE_AT_OPTION:
			json_object_set_new(opt, p->name, v);
			break;
		default:
			json_object_set_new(j, p->name, v);
			break;
		}
	}
	json_object_set_new(j, "kwargs", kw);
	json_object_set_new(j, "body", body);
	json_object_set_new(j, "options", opt);
	return j;
}

void tune_config_diff(const struct tune_space *s, const struct tune_config *a,
		      const struct tune_config *b, struct buf *out)
{
	size_t i;
	int first = 1;

	for (i = 0; i < s->n; i++) {
		if (b && a->v[i] == b->v[i])
			continue;
		buf_addf(out, "%s%s=", first ? "" : ",", s->p[i].name);
		tune_param_value(&s->p[i], a->v[i], out);
		first = 0;
	}
}

