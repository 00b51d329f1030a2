/* Linking, classes, groups, busy time and steps of a profile (attrib.h). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profile/attrib.h"
#include "util/mem.h"
#include "util/plural.h"
#include "banned.h"

/* Case-insensitive substring test; names are short. */
static int has_ci(const char *s, const char *needle)
{
	size_t n = strlen(needle);

	for (; *s; s++)
		if (!strncasecmp(s, needle, n))
			return 1;
	return 0;
}

static int has_any(const char *s, const char *const *needles)
{
	for (; *needles; needles++)
		if (has_ci(s, *needles))
			return 1;
	return 0;
}

static const char *const copy_names[] = { "memcpy", "copybuffer", NULL };
static const char *const fill_names[] = { "memset", "fillbuffer", NULL };
static const char *const comm_names[] = { "nccl", "rccl", "msccl", "allreduce", "all_reduce",
					  "allgather", "all_gather", "reducescatter",
					  "reduce_scatter", NULL };
static const char *const attn_names[] = { "flash", "fmha", "attn", "attention", "sdpa", "mha_",
					  NULL };
/* cuBLAS/cuBLASLt (gemm, gemv, xmma, nvjet, splitKreduce), CUTLASS, Tensile (Cijk_) */
static const char *const gemm_names[] = { "gemm", "gemv", "cutlass", "xmma", "cublas", "nvjet",
					  "cijk_", "splitkreduce", "hipblaslt", "rocblas",
					  "wgmma", NULL };

enum prof_class prof_class_of_name(const char *name)
{
	if (has_any(name, copy_names))
		return PROF_CLASS_MEMCPY;
	if (has_any(name, fill_names))
		return PROF_CLASS_MEMSET;
	if (has_any(name, comm_names))
		return PROF_CLASS_COMM;
	if (has_any(name, attn_names))
		return PROF_CLASS_ATTENTION;
	if (!strncmp(name, "triton_", 7))
		return PROF_CLASS_TRITON;
	if (has_any(name, gemm_names))
		return PROF_CLASS_GEMM;
	return PROF_CLASS_OTHER;
}

int prof_op_is_matmul(const char *op)
{
	static const char *const ops[] = {
		"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::matmul",
		"aten::linear", "aten::_scaled_mm", "aten::_int_mm", "aten::addmv", "aten::mv",
		"aten::addbmm", "aten::einsum", "aten::_addmm_activation", NULL,
	};
	size_t i;

	for (i = 0; ops[i]; i++)
		if (!strcmp(op, ops[i]))
			return 1;
	return 0;
}

int prof_op_is_attention(const char *op)
{
	return !strncmp(op, "aten::", 6) && (has_ci(op, "attention") || has_ci(op, "flash"));
}

/* (key, index) pairs sorted by key, for the id lookups. */
struct idx {
	int64_t key;
	size_t i;
};

static int by_key(const void *a, const void *b)
{
	const struct idx *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static const struct idx *find_key(const struct idx *v, size_t n, int64_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].key == key ? &v[lo] : NULL;
}

/* External id -> launching op, for the ops that are not annotations. */
static struct idx *index_ops(const struct prof *p, size_t *n)
{
	struct idx *v = xmalloc((p->nops + 1) * sizeof(*v));
	size_t i;

	*n = 0;
	for (i = 0; i < p->nops; i++)
		if (p->ops[i].external >= 0 && !p->ops[i].annotation) {
			v[*n].key = p->ops[i].external;
			v[(*n)++].i = i;
		}
	qsort(v, *n, sizeof(*v), by_key);
	return v;
}

static struct idx *index_launches(const struct prof *p, size_t *n)
{
	struct idx *v = xmalloc((p->nlaunches + 1) * sizeof(*v));
	size_t i;

	for (i = 0; i < p->nlaunches; i++) {
		v[i].key = p->launches[i].correlation;
		v[i].i = i;
	}
	*n = p->nlaunches;
	qsort(v, *n, sizeof(*v), by_key);
	return v;
}

static int by_thread_start(const void *a, const void *b, void *ctx)
{
	const struct prof_op *ops = ctx;
	const struct prof_op *x = &ops[*(const size_t *)a], *y = &ops[*(const size_t *)b];

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->dur > y->dur ? -1 : x->dur < y->dur;	/* the enclosing one first */
}

static int is_aten(const struct prof *p, const struct prof_op *o)
{
	return !o->annotation && !strncmp(prof_str(p, o->name), "aten::", 6);
}

/*
 * For every ATen op, the outermost ATen op enclosing it on its thread
 * (itself when none does): one sweep per thread with a stack of the ops
 * still open.
 */
static void set_outer(struct prof *p)
{
	size_t *order = xmalloc((p->nops + 1) * sizeof(*order)), *stack, i, depth = 0;

	for (i = 0; i < p->nops; i++)
		order[i] = i;
	qsort_r(order, p->nops, sizeof(*order), by_thread_start, p->ops);
	stack = xmalloc((p->nops + 1) * sizeof(*stack));
	for (i = 0; i < p->nops; i++) {
		struct prof_op *o = &p->ops[order[i]];
		size_t k;

		while (depth) {
			const struct prof_op *top = &p->ops[stack[depth - 1]];

			if (top->tid == o->tid && o->start < top->start + top->dur)
				break;
			depth--;
		}
		if (is_aten(p, o)) {
			o->outer = (uint32_t)order[i] + 1;
			for (k = 0; k < depth; k++)
				if (is_aten(p, &p->ops[stack[k]])) {
					o->outer = (uint32_t)stack[k] + 1;
					break;
				}
		}
		stack[depth++] = order[i];
	}
	free(stack);
	free(order);
}

/* Links each activity to its launching op; returns each activity's CPU launch time. */
static double *link_ops(struct prof *p)
{
	size_t nops, nl, i;
	struct idx *ops = index_ops(p, &nops), *launches = index_launches(p, &nl);
	double *cpu = xmalloc((p->nacts + 1) * sizeof(*cpu));

	for (i = 0; i < p->nacts; i++) {
		struct prof_act *a = &p->acts[i];
		const struct idx *l = a->correlation >= 0 ? find_key(launches, nl, a->correlation) : NULL;
		const struct idx *o;

		cpu[i] = l ? p->launches[l->i].start : NAN;
		if (a->external < 0 && l)
			a->external = p->launches[l->i].external;
		o = a->external >= 0 ? find_key(ops, nops, a->external) : NULL;
		if (o) {
			a->op = (uint32_t)o->i + 1;
			if (isnan(cpu[i]))
				cpu[i] = p->ops[o->i].start;
		}
	}
	free(ops);
	free(launches);
	return cpu;
}

/* The op a library kernel is grouped under: the outermost ATen op, else the launching op. */
static const struct prof_op *group_op(const struct prof *p, const struct prof_act *a)
{
	const struct prof_op *o = a->op ? &p->ops[a->op - 1] : NULL;

	if (o && o->outer)
		return &p->ops[o->outer - 1];
	return o;
}

enum { OP_MATMUL = 16, OP_ATTENTION = 32, OP_KNOWN = 64 };

/* An op name's kind bits, memoised in the high bits of memo[id]'s companion. */
static int op_kind(const struct prof *p, uint32_t id, signed char *memo)
{
	signed char *m = memo + p->nstrv;

	if (!(m[id] & OP_KNOWN)) {
		const char *s = prof_str(p, id);

		m[id] = (signed char)(OP_KNOWN | (prof_op_is_matmul(s) ? OP_MATMUL : 0) |
				      (prof_op_is_attention(s) ? OP_ATTENTION : 0));
	}
	return m[id];
}

/* Names repeat millions of times: each is classified once (memo[id], -1 unknown). */
static enum prof_class class_of_id(const struct prof *p, uint32_t id, signed char *memo)
{
	if (memo[id] < 0)
		memo[id] = (signed char)prof_class_of_name(prof_str(p, id));
	return (enum prof_class)memo[id];
}

static enum prof_class classify(const struct prof *p, const struct prof_act *a, signed char *memo)
{
	const struct prof_op *launch = a->op ? &p->ops[a->op - 1] : NULL, *op = group_op(p, a);
	enum prof_class byname = class_of_id(p, a->name, memo);

	if (a->kind == PROF_ACT_MEMCPY || byname == PROF_CLASS_MEMCPY)
		return PROF_CLASS_MEMCPY;
	if (a->kind == PROF_ACT_MEMSET || byname == PROF_CLASS_MEMSET)
		return PROF_CLASS_MEMSET;
	if (launch && launch->kernel_hash)
		return PROF_CLASS_TRITON;
	if (byname == PROF_CLASS_COMM || byname == PROF_CLASS_TRITON)
		return byname;
	if (op && (op_kind(p, op->name, memo) & OP_ATTENTION))
		return PROF_CLASS_ATTENTION;
	if (byname == PROF_CLASS_ATTENTION || byname == PROF_CLASS_GEMM)
		return byname;
	if (op && (op_kind(p, op->name, memo) & OP_MATMUL))
		return PROF_CLASS_GEMM;
	return PROF_CLASS_OTHER;
}

/* Groups by a composite key; map holds key -> index+1. */
static uint32_t group_of(struct prof *p, struct strmap *map, struct prof_act *a, size_t *alloc)
{
	const struct prof_op *launch = a->op ? &p->ops[a->op - 1] : NULL, *op = group_op(p, a);
	uint32_t key = a->name, hash = 0, opname = op ? op->name : 0;
	uint32_t dtype = op && op->dtype ? op->dtype : launch ? launch->dtype : 0;
	struct prof_group *g;
	char k[48];
	size_t *slot;
	int added;

	/*
	 * A Triton kernel is its own group. Library kernels group by op and
	 * input type: under autocast one model runs aten::mm in bf16 and fp32,
	 * and an fp32-only rule must see the fp32 calls' share alone.
	 */
	if (a->cls == PROF_CLASS_TRITON) {
		hash = launch ? launch->kernel_hash : 0;
		opname = 0;
	} else if (opname) {
		key = opname;
	}
	snprintf(k, sizeof(k), "%u/%u/%u/%u", (unsigned)a->cls, (unsigned)key, (unsigned)hash,
		 (unsigned)(a->cls == PROF_CLASS_TRITON ? 0 : dtype));
	slot = strmap_put(map, k, strlen(k), &added);
	if (!added)
		return (uint32_t)*slot - 1;
	if (p->ngroups == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 64;
		p->groups = xrealloc(p->groups, *alloc * sizeof(*p->groups));
	}
	g = &p->groups[p->ngroups];
	memset(g, 0, sizeof(*g));
	g->cls = a->cls;
	g->key = key;
	g->op = opname;
	g->kernel_hash = hash;
	g->num_warps = g->num_stages = -1;
	if (launch && a->cls == PROF_CLASS_TRITON) {
		g->kernel_file = launch->kernel_file;
		g->kernel_kwargs = launch->kernel_kwargs;
		g->num_warps = launch->num_warps;
		g->num_stages = launch->num_stages;
	}
	g->dtype = dtype;
	*slot = ++p->ngroups;
	return (uint32_t)p->ngroups - 1;
}

/*
 * A boundary of an activity's interval, for the sweep. At one instant,
 * ends come first (touching intervals do not overlap), then starts, then
 * the ends of empty intervals, which must follow their own starts.
 */
enum { EDGE_END, EDGE_START, EDGE_END_EMPTY };

struct edge {
	double t;
	uint32_t act;
	int kind;
};

static int by_time(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->kind - y->kind;
}

static void gap(struct prof *p, double len)
{
	if (len <= 0)
		return;
	if (len > PROF_CLOCK_JUMP_US) {
		p->clock_jumps++;
		return;
	}
	p->idle += len;
	p->gaps += len >= 1.0;
	if (len > p->largest_gap)
		p->largest_gap = len;
}

/*
 * The sweep: F(t) grows by dt / (activities running) over busy stretches,
 * so an activity's share of the busy time is F(end) - F(start).
 */
static void sweep(struct prof *p)
{
	struct edge *e = xmalloc((2 * p->nacts + 1) * sizeof(*e));
	double *fstart = xmalloc((p->nacts + 1) * sizeof(*fstart)), f = 0, prev = 0;
	size_t i, n = 0;
	long active = 0;

	for (i = 0; i < p->nacts; i++) {
		double t0 = p->acts[i].start, t1 = t0 + p->acts[i].dur;

		e[n++] = (struct edge){ t0, (uint32_t)i, EDGE_START };
		e[n++] = (struct edge){ t1, (uint32_t)i, t1 == t0 ? EDGE_END_EMPTY : EDGE_END };
	}
	qsort(e, n, sizeof(*e), by_time);
	for (i = 0; i < n; i++) {
		double dt = i ? e[i].t - prev : 0;

		if (active > 0) {
			f += dt / (double)active;
			p->busy += dt;
		} else if (i) {
			gap(p, dt);
		}
		prev = e[i].t;
		if (e[i].kind == EDGE_START) {
			fstart[e[i].act] = f;
			active++;
		} else {
			p->acts[e[i].act].busy = f - fstart[e[i].act];
			active--;
		}
	}
	p->first = n ? e[0].t : NAN;
	p->last = n ? e[n - 1].t : NAN;
	free(fstart);
	free(e);
}

static int step_number(const struct prof *p, const struct prof_op *o, long *n)
{
	const char *s = prof_str(p, o->name);
	char *end;

	if (!o->annotation || strncmp(s, "ProfilerStep#", 13))
		return 0;
	*n = strtol(s + 13, &end, 10);
	return *end == '\0';
}

static int by_cpu_start(const void *a, const void *b)
{
	const struct prof_step *x = a, *y = b;

	return (x->cpu_start > y->cpu_start) - (x->cpu_start < y->cpu_start);
}

static void collect_steps(struct prof *p)
{
	size_t i;
	long n;

	for (i = 0; i < p->nops; i++)
		if (step_number(p, &p->ops[i], &n)) {
			struct prof_step *s;

			p->steps = xrealloc(p->steps, (p->nsteps + 1) * sizeof(*p->steps));
			s = &p->steps[p->nsteps++];
			s->number = n;
			s->cpu_start = p->ops[i].start;
			s->cpu_dur = p->ops[i].dur;
			s->gpu_start = s->gpu_end = NAN;
			s->acts = 0;
		}
	if (p->nsteps)
		qsort(p->steps, p->nsteps, sizeof(*p->steps), by_cpu_start);
}

/* The step whose CPU range holds t, or NULL. */
static struct prof_step *step_at(struct prof *p, double t)
{
	size_t lo = 0, hi = p->nsteps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->steps[mid].cpu_start <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || isnan(t))
		return NULL;
	return t < p->steps[lo - 1].cpu_start + p->steps[lo - 1].cpu_dur ? &p->steps[lo - 1] : NULL;
}

static void assign_steps(struct prof *p, const double *cpu)
{
	size_t i, with = 0;
	double first = NAN, last = NAN;

	for (i = 0; i < p->nacts; i++) {
		struct prof_step *s = step_at(p, cpu[i]);
		const struct prof_act *a = &p->acts[i];

		if (!s)
			continue;
		s->acts++;
		if (isnan(s->gpu_start) || a->start < s->gpu_start)
			s->gpu_start = a->start;
		if (isnan(s->gpu_end) || a->start + a->dur > s->gpu_end)
			s->gpu_end = a->start + a->dur;
	}
	for (i = 0; i < p->nsteps; i++) {
		if (!p->steps[i].acts)
			continue;
		if (!with++)
			first = p->steps[i].gpu_start;
		last = p->steps[i].gpu_start;
	}
	if (with >= 2)
		p->step_time = (last - first) / (double)(with - 1);
	else if (with == 1)
		for (i = 0; i < p->nsteps; i++)
			if (p->steps[i].acts)
				p->step_time = p->steps[i].gpu_end - p->steps[i].gpu_start;
}

/* Per group: calls, totals, distinct kernels and the largest kernel. */
static void total_groups(struct prof *p)
{
	struct strmap seen = STRMAP_INIT;
	double *best;
	size_t i;

	best = xcalloc(p->ngroups + 1, sizeof(*best));
	for (i = 0; i < p->nacts; i++) {
		const struct prof_act *a = &p->acts[i];
		struct prof_group *g = &p->groups[a->group];
		char k[32];
		size_t *tot;
		int added;

		g->calls += a->calls;
		g->total += a->dur;
		g->busy += a->busy;
		snprintf(k, sizeof(k), "%u/%u", (unsigned)a->group, (unsigned)a->name);
		tot = strmap_put(&seen, k, strlen(k), &added);
		g->kernels += added;
		/* the per-kernel total, in ns as an integer, to pick the group's largest */
		*tot += (size_t)llround(a->dur * 1e3);
		if ((double)*tot > best[a->group]) {
			best[a->group] = (double)*tot;
			g->top = a->name;
		}
	}
	free(best);
	strmap_release(&seen);
}

static int by_busy(const void *a, const void *b, void *ctx)
{
	const struct prof_group *g = ctx;
	const struct prof_group *x = &g[*(const size_t *)a], *y = &g[*(const size_t *)b];

	if (x->busy != y->busy)
		return x->busy > y->busy ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* Most busy time first; the activities' group indices follow. */
static void sort_groups(struct prof *p)
{
	size_t *order = xmalloc((p->ngroups + 1) * sizeof(*order));
	uint32_t *where = xmalloc((p->ngroups + 1) * sizeof(*where));
	struct prof_group *sorted = xmalloc((p->ngroups + 1) * sizeof(*sorted));
	size_t i;

	for (i = 0; i < p->ngroups; i++)
		order[i] = i;
	qsort_r(order, p->ngroups, sizeof(*order), by_busy, p->groups);
	for (i = 0; i < p->ngroups; i++) {
		sorted[i] = p->groups[order[i]];
		where[order[i]] = (uint32_t)i;
	}
	for (i = 0; i < p->nacts; i++)
		p->acts[i].group = where[p->acts[i].group];
	free(p->groups);
	p->groups = sorted;
	free(where);
	free(order);
}

static void count_streams(struct prof *p)
{
	struct strmap dev = STRMAP_INIT, str = STRMAP_INIT;
	size_t i;

	for (i = 0; i < p->nacts; i++) {
		char k[32];
		int added;

		snprintf(k, sizeof(k), "%d", (int)p->acts[i].device);
		strmap_put(&dev, k, strlen(k), &added);
		snprintf(k, sizeof(k), "%d/%d", (int)p->acts[i].device, (int)p->acts[i].stream);
		strmap_put(&str, k, strlen(k), &added);
	}
	p->devices = (long)dev.nr;
	p->streams = (long)str.nr;
	strmap_release(&dev);
	strmap_release(&str);
}

static void no_timeline(struct prof *p)
{
	size_t i;

	for (i = 0; i < p->nacts; i++) {
		p->acts[i].busy = p->acts[i].dur;
		p->busy += p->acts[i].dur;
	}
	prof_note(p, "a %s table has no timeline: busy time is the sum of kernel times (overlap"
		  " unknown), and idle time and steps are unknown", prof_format_names[p->format]);
}

void prof_attribute(struct prof *p)
{
	struct strmap map = STRMAP_INIT;
	signed char *memo = xmalloc(2 * p->nstrv + 1);
	double *cpu;
	size_t i, alloc = 0;

	memset(memo, -1, p->nstrv);
	memset(memo + p->nstrv, 0, p->nstrv + 1);

	p->timeline = p->nacts && !isnan(p->acts[0].start);
	set_outer(p);
	cpu = link_ops(p);
	for (i = 0; i < p->nacts; i++) {
		p->acts[i].cls = (uint8_t)classify(p, &p->acts[i], memo);
		p->acts[i].group = group_of(p, &map, &p->acts[i], &alloc);
		p->total += p->acts[i].dur;
	}
	if (p->timeline)
		sweep(p);
	else
		no_timeline(p);
	if (p->clock_jumps)
		prof_note(p, "%ld idle stretch%s over %.0f s left out of idle time: a clock jump, not"
			  " idle GPU time (two traces joined, or timestamps from two clocks)",
			  p->clock_jumps, plural_word(p->clock_jumps, "", "es"), PROF_CLOCK_JUMP_US / 1e6);
	collect_steps(p);
	assign_steps(p, cpu);
	total_groups(p);
	for (i = 0; i < p->ngroups; i++)
		p->groups[i].share = p->busy > 0 ? p->groups[i].busy / p->busy : NAN;
	count_streams(p);
	free(cpu);
	free(memo);
	strmap_release(&map);
	sort_groups(p);
}
