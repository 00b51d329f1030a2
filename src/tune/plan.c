/*
 * The variant plan (see plan.h): the phases in their order per purpose,
 * dedupe by key, and the budget.
 */
#include <stdlib.h>
#include <string.h>

#include "tune/plan.h"
#include "util/mem.h"
#include "banned.h"

#define HIP (1u << TARGET_HIP)
#define CUDA (1u << TARGET_CUDA)

static const struct {
	unsigned flag;		/* TUNE_SRC_* */
	const char *name;	/* in labels and JSON */
	unsigned backends;	/* where it means something */
} srcvars[] = {
	{ TUNE_SRC_HINTS, "hints", HIP | CUDA },
	{ TUNE_SRC_ASSUME, "assume", HIP | CUDA },
	{ TUNE_SRC_PTR32, "ptr32", HIP },
	{ TUNE_SRC_BUF_ON, "bufops", HIP },
	{ TUNE_SRC_BUF_OFF, "nobufops", HIP },
	{ TUNE_SRC_TWO_PASS, "twopass", HIP | CUDA },
};

static const char *const origin_names[] = {
	"autotune", "inductor", "given", "default", "source", "grid", "descent", "pairs",
	"ladder", "confirm",
};

/* Phase orders: what the plan is for decides what is tried first. */
static const enum tune_phase order_compile[] = {
	TUNE_PH_BASE, TUNE_PH_LADDER, TUNE_PH_STARTS, TUNE_PH_SOURCE, TUNE_PH_GRID, TUNE_PH_DESCENT, TUNE_PH_DONE,
};
static const enum tune_phase order_timed_cuda[] = {
	TUNE_PH_BASE, TUNE_PH_LADDER, TUNE_PH_DESCENT, TUNE_PH_PAIRS, TUNE_PH_GRID, TUNE_PH_STARTS,
	TUNE_PH_SOURCE, TUNE_PH_WIDEN, TUNE_PH_DONE,
};
static const enum tune_phase order_timed_hip[] = {
	TUNE_PH_BASE, TUNE_PH_LADDER, TUNE_PH_SOURCE, TUNE_PH_DESCENT, TUNE_PH_PAIRS, TUNE_PH_GRID,
	TUNE_PH_STARTS, TUNE_PH_WIDEN, TUNE_PH_DONE,
};

const char *tune_origin_name(enum tune_origin o)
{
	return origin_names[o];
}

void tune_src_names(unsigned src, struct buf *out)
{
	size_t i;
	int first = 1;

	for (i = 0; i < sizeof(srcvars) / sizeof(srcvars[0]); i++)
		if (src & srcvars[i].flag) {
			buf_addf(out, "%s%s", first ? "" : "+", srcvars[i].name);
			first = 0;
		}
}

/* ---- the plan ---------------------------------------------------------- */

static void make_key(const struct tune_plan *p, const struct tune_config *c,
		     unsigned src, struct buf *out)
{
	tune_config_diff(&p->space, c, NULL, out);
	buf_addf(out, "|%x", src);
}

static void make_label(const struct tune_plan *p, const struct tune_variant *v,
		       struct buf *out)
{
	const struct tune_config *base = p->base >= 0 ? &p->v[p->base].cfg : NULL;

	if (base)
		tune_config_diff(&p->space, &v->cfg, base, out);
	if (v->src) {
		if (out->len)
			buf_addch(out, ' ');
		buf_addch(out, '+');
		tune_src_names(v->src, out);
	}
	if (!out->len)
		buf_adds(out, "base");
}

static long find_key(const struct tune_plan *p, const char *key)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		if (!strcmp(p->v[i].key, key))
			return (long)i;
	return -1;
}

/* Configs tko derives must respect the space's rules; the configs it
 * starts from (Inductor's, the user's) are measured whatever they are. */
static int derived(enum tune_origin origin)
{
	return origin == TUNE_FROM_SOURCE || origin == TUNE_FROM_GRID ||
	       origin == TUNE_FROM_DESCENT || origin == TUNE_FROM_PAIRS ||
	       origin == TUNE_FROM_LADDER;
}

/* Adds a variant unless it is invalid or planned already; its index or -1. */
static long add_variant(struct tune_plan *p, const struct tune_config *c,
			unsigned src, enum tune_origin origin)
{
	struct buf key = BUF_INIT, label = BUF_INIT;
	struct tune_variant *v;

	if (derived(origin) && !tune_config_valid(&p->space, c, NULL))
		return -1;
	make_key(p, c, src, &key);
	if (find_key(p, key.buf) >= 0) {
		buf_release(&key);
		return -1;
	}
	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	v = &p->v[p->nr];
	memset(v, 0, sizeof(*v));
	v->index = p->nr;
	v->cfg = *c;
	v->src = src;
	v->origin = origin;
	v->key = buf_detach(&key, NULL);
	v->inductor_ms = v->time_ms = -1;
	make_label(p, v, &label);
	v->label = buf_detach(&label, NULL);
	return (long)p->nr++;
}

int tune_plan_init(struct tune_plan *p, const struct tune_kernel *k,
		   const struct target *arch, const struct tune_plan_opts *opts,
		   struct buf *err)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	p->base = p->best = p->descent_center = p->plain_center = -1;
	p->opts = *opts;
	tune_space_build(&p->space, k, arch);
	if (!p->space.n) {
		buf_addf(err, "kernel '%s' has no launch parameter to tune", k->name);
		return -1;
	}
	for (i = 0; i < sizeof(srcvars) / sizeof(srcvars[0]); i++)
		if (srcvars[i].backends & (1u << arch->backend))
			p->src_allowed |= srcvars[i].flag;
	if (!k->two_pass)
		p->src_allowed &= ~(unsigned)TUNE_SRC_TWO_PASS;
	p->order = !opts->timed ? order_compile
		: arch->backend == TARGET_HIP ? order_timed_hip : order_timed_cuda;
	return 0;
}

long tune_plan_config_only(struct tune_plan *p, size_t c)
{
	struct buf key = BUF_INIT;
	long i;

	make_key(p, &p->v[c].cfg, 0, &key);
	i = find_key(p, key.buf);
	buf_release(&key);
	/* planned by a search the limits stopped first: timed for the confirmation */
	if (i >= 0 && !p->v[i].done)
		p->v[i].origin = TUNE_FROM_CONFIRM;
	/* c's config passed the rules already: without its source flags it still does */
	return i >= 0 ? i : add_variant(p, &p->v[c].cfg, 0, TUNE_FROM_CONFIRM);
}

void tune_plan_release(struct tune_plan *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++) {
		free(p->v[i].key);
		free(p->v[i].label);
	}
	free(p->v);
	free(p->starts);
	memset(p, 0, sizeof(*p));
	p->base = p->best = -1;
}

/* 1 when a kept starting config has the config's key. */
static int start_kept(const struct tune_plan *p, const char *key)
{
	struct buf k = BUF_INIT;
	size_t i;
	int found = 0;

	for (i = 0; i < p->starts_nr && !found; i++) {
		buf_reset(&k);
		make_key(p, &p->starts[i].cfg, 0, &k);
		found = !strcmp(k.buf, key);
	}
	buf_release(&k);
	return found;
}

long tune_plan_add_base(struct tune_plan *p, const struct tune_config *cfg,
			enum tune_origin origin, double inductor_ms)
{
	struct buf key = BUF_INIT;
	long i;
	int dup;

	if (p->base < 0) {
		i = add_variant(p, cfg, 0, origin);
		p->base = i;
		p->v[i].inductor_ms = inductor_ms;
		free(p->v[i].label);
		p->v[i].label = xstrdup("base");
		/* a different algorithm, not a hint: timed right after the
		 * base, so that the descent can start from it when it wins */
		if ((p->src_allowed & TUNE_SRC_TWO_PASS) && !p->opts.no_source)
			add_variant(p, cfg, TUNE_SRC_TWO_PASS, TUNE_FROM_SOURCE);
		return i;
	}
	make_key(p, cfg, 0, &key);
	dup = find_key(p, key.buf) >= 0 || start_kept(p, key.buf);
	buf_release(&key);
	if (dup)
		return -1;
	ALLOC_GROW(p->starts, p->starts_nr + 1, p->starts_alloc);
	p->starts[p->starts_nr].cfg = *cfg;
	p->starts[p->starts_nr].origin = origin;
	p->starts[p->starts_nr].inductor_ms = inductor_ms;
	p->starts_nr++;
	return 1;
}

/* The kept starting configs; one planned already (by another phase) gets Inductor's time. */
static void plan_starts(struct tune_plan *p)
{
	struct buf key = BUF_INIT;
	size_t i;

	for (i = 0; i < p->starts_nr; i++) {
		long v;

		buf_reset(&key);
		make_key(p, &p->starts[i].cfg, 0, &key);
		v = find_key(p, key.buf);
		if (v < 0)
			v = add_variant(p, &p->starts[i].cfg, 0, p->starts[i].origin);
		if (v >= 0 && p->v[v].inductor_ms < 0)
			p->v[v].inductor_ms = p->starts[i].inductor_ms;
	}
	buf_release(&key);
}

static const struct tune_variant *center(const struct tune_plan *p)
{
	return &p->v[p->best >= 0 ? p->best : p->base];
}

/* src with flag added; the two buffer-ops switches exclude each other. */
static unsigned with_flag(unsigned src, unsigned flag)
{
	if (flag & (TUNE_SRC_BUF_ON | TUNE_SRC_BUF_OFF))
		src &= ~(unsigned)(TUNE_SRC_BUF_ON | TUNE_SRC_BUF_OFF);
	return src | flag;
}

/* Each source variant, then all of them, on the best config so far. */
static void plan_source(struct tune_plan *p)
{
	const struct tune_variant *c = center(p);
	struct tune_config cfg = c->cfg;
	unsigned all = p->src_allowed & ~TUNE_SRC_BUF_OFF, src = c->src;
	size_t i;

	for (i = 0; i < sizeof(srcvars) / sizeof(srcvars[0]); i++)
		if (p->src_allowed & srcvars[i].flag)
			add_variant(p, &cfg, with_flag(src, srcvars[i].flag), TUNE_FROM_SOURCE);
	add_variant(p, &cfg, with_flag(src & ~(unsigned)TUNE_SRC_BUF_OFF, all), TUNE_FROM_SOURCE);
}

/* One step of parameter i from value v, up (dir > 0) or down; -1 when none. */
static int step(const struct tune_param *t, int v, int dir)
{
	long n;

	if (t->kind == TUNE_POW2)
		n = dir > 0 ? (long)v * 2 : v / 2;
	else
		n = v + (dir > 0 ? 1 : -1);
	return n < t->min || n > t->max || n == v ? -1 : (int)n;
}

/* Every one-step neighbour of variant c (the array may move: c is an index). */
static void plan_neighbours(struct tune_plan *p, size_t c)
{
	struct tune_config base = p->v[c].cfg;
	unsigned src = p->v[c].src;
	size_t i;
	int dir;

	p->v[c].centered = 1;
	for (i = 0; i < p->space.n; i++) {
		if (!p->space.p[i].tuned)
			continue;
		for (dir = 1; dir >= -1; dir -= 2) {
			struct tune_config n = base;
			int v = step(&p->space.p[i], base.v[i], dir);

			if (v < 0)
				continue;
			n.v[i] = v;
			add_variant(p, &n, src, TUNE_FROM_DESCENT);
		}
	}
}

/* A block size: a constexpr of a tiling dim, or a template's BLOCK_M/N/K. */
static int is_block(const struct tune_param *t)
{
	return t->tuned && t->kind == TUNE_POW2 &&
	       ((t->at == TUNE_AT_CONSTEXPR && t->dim >= 0) || t->at == TUNE_AT_BODY ||
		(t->at == TUNE_AT_CONSTEXPR && strstr(t->name, "BLOCK")));
}

/* Moves parameters i and j one step each, in directions di and dj. */
static void add_pair(struct tune_plan *p, size_t i, int di, size_t j, int dj)
{
	const struct tune_variant *c = center(p);
	struct tune_config n = c->cfg;
	int vi = step(&p->space.p[i], n.v[i], di), vj = step(&p->space.p[j], n.v[j], dj);

	if (vi < 0 || vj < 0)
		return;
	n.v[i] = vi;
	n.v[j] = vj;
	add_variant(p, &n, c->src, TUNE_FROM_PAIRS);
}

/* The tuned parameter that reaches the compiler as `at`, or -1. */
static int tuned_at(const struct tune_plan *p, enum tune_at at)
{
	size_t i;

	for (i = 0; i < p->space.n; i++)
		if (p->space.p[i].at == at && p->space.p[i].tuned)
			return (int)i;
	return -1;
}

/*
 * Block and warps together (the same work per thread), two blocks against
 * each other (the same block, another shape), and for a template a block
 * doubled with one stage less (the shared memory a larger tile needs).
 */
static void plan_pairs(struct tune_plan *p)
{
	int w = tuned_at(p, TUNE_AT_WARPS), st = tuned_at(p, TUNE_AT_STAGES);
	size_t i, j;

	for (i = 0; i < p->space.n; i++) {
		if (!is_block(&p->space.p[i]))
			continue;
		if (w >= 0) {
			add_pair(p, i, 1, (size_t)w, 1);
			add_pair(p, i, -1, (size_t)w, -1);
		}
		if (st >= 0 && p->space.kind == TUNE_KIND_TEMPLATE)
			add_pair(p, i, 1, (size_t)st, -1);
	}
	for (i = 0; i < p->space.n; i++)
		for (j = i + 1; is_block(&p->space.p[i]) && j < p->space.n; j++)
			if (is_block(&p->space.p[j])) {
				add_pair(p, i, 1, j, -1);
				add_pair(p, i, -1, j, 1);
			}
}

/*
 * With no block size to tune, every value of each stepped launch option,
 * one option at a time, around the center (the base, when it comes right
 * after it).
 */
static void plan_ladder(struct tune_plan *p)
{
	const struct tune_variant *c = center(p);
	struct tune_config base = c->cfg;
	unsigned src = c->src;
	size_t i;

	for (i = 0; i < p->space.n; i++)
		if (is_block(&p->space.p[i]))
			return;
	for (i = 0; i < p->space.n; i++) {
		const struct tune_param *t = &p->space.p[i];
		long v;

		if (!t->tuned || t->kind == TUNE_CHOICE)
			continue;
		for (v = t->min; v <= t->max; v = t->kind == TUNE_POW2 ? v * 2 : v + 1) {
			struct tune_config n = base;

			n.v[i] = (int)v;
			add_variant(p, &n, src, TUNE_FROM_LADDER);
			if (v < 1 && t->kind == TUNE_POW2)
				break;
		}
	}
}

/* Block sizes x1, x4, /4 and warps x1, x2, /2 around the center, odometer order. */
static void plan_grid(struct tune_plan *p)
{
	const struct tune_variant *c = center(p);
	int idx[TUNE_MAXP], nidx = 0, digit[TUNE_MAXP] = { 0 }, i;
	size_t added = 0, before = p->nr;
	unsigned src = c->src;
	struct tune_config base = c->cfg;

	for (i = 0; i < (int)p->space.n; i++)
		if (p->space.p[i].tuned && p->space.p[i].kind == TUNE_POW2)
			idx[nidx++] = i;
	while (nidx && added < p->opts.grid_max) {
		struct tune_config n = base;
		int k, carry = 1;

		for (k = 0; k < nidx && carry; k++) {
			digit[k] = (digit[k] + 1) % 3;
			carry = digit[k] == 0;
		}
		if (carry)
			break;
		for (k = 0; k < nidx; k++) {
			int f = p->space.p[idx[k]].at == TUNE_AT_WARPS ? 2 : 4;
			long v = base.v[idx[k]];

			v = digit[k] == 1 ? v * f : digit[k] == 2 ? v / f : v;
			n.v[idx[k]] = (int)v;
		}
		if (add_variant(p, &n, src, TUNE_FROM_GRID) >= 0)
			added = p->nr - before;
	}
}

/* Is variant a faster than variant b by more than the noise? */
static int beats(const struct tune_plan *p, long a, long b)
{
	return p->v[a].time_ms < p->v[b].time_ms * (1 - p->opts.noise);
}

/* The best moved by more than the noise since the last descent round. */
static int improved(const struct tune_plan *p)
{
	return p->best >= 0 && p->descent_center >= 0 && p->best != p->descent_center &&
	       beats(p, p->best, p->descent_center);
}

static void descend(struct tune_plan *p)
{
	p->descent_center = (long)center(p)->index;
	plan_neighbours(p, (size_t)p->descent_center);
}

/* The fastest timed usable variant with no source variant, or -1. */
static long best_plain(const struct tune_plan *p)
{
	long r = -1;
	size_t i;

	for (i = 0; i < p->nr; i++) {
		const struct tune_variant *v = &p->v[i];

		if (v->done && v->usable && v->time_ms >= 0 && !v->src &&
		    (r < 0 || v->time_ms < p->v[r].time_ms))
			r = (long)i;
	}
	return r;
}

/*
 * The config-only track's round is due (plan.h): the best is a source
 * variant, and the fastest config-only variant's neighbours were not
 * planned and it is the first center or beats the last by the noise.
 */
static long plain_due(const struct tune_plan *p)
{
	long b = p->best >= 0 && p->v[p->best].src ? best_plain(p) : -1;

	if (b < 0 || p->v[b].centered)
		return -1;
	if (p->plain_center >= 0 && !beats(p, b, p->plain_center))
		return -1;
	return b;
}

/* The config-only round after the best's own, when due; 1 when planned. */
static int descend_plain(struct tune_plan *p)
{
	long b = plain_due(p);

	if (b < 0)
		return 0;
	p->plain_center = b;
	plan_neighbours(p, (size_t)b);
	return 1;
}

/* The fastest timed usable variant within opts.widen of the best whose
 * neighbours were not planned, or -1. */
static long runner_up(const struct tune_plan *p)
{
	double limit = p->v[p->best].time_ms * (1 + p->opts.widen);
	long r = -1;
	size_t i;

	for (i = 0; i < p->nr; i++) {
		const struct tune_variant *v = &p->v[i];

		if (v->done && v->usable && v->time_ms >= 0 && !v->centered &&
		    v->time_ms <= limit && (r < 0 || v->time_ms < p->v[r].time_ms))
			r = (long)i;
	}
	return r;
}

/*
 * Plans the neighbours of the next runner-up that has any not yet
 * planned; 0 when none is left. The descent center stays the best's, so
 * improved() still asks whether the best itself moved.
 */
static int widen(struct tune_plan *p)
{
	size_t before = p->nr;
	long r;

	if (p->best < 0 || p->opts.widen <= 0 || p->opts.no_search)
		return 0;
	while (p->nr == before && (r = runner_up(p)) >= 0)
		plan_neighbours(p, (size_t)r);
	return p->nr > before;
}

/* Fills the queue with the next phase; 0 when the plan is complete. */
static int advance(struct tune_plan *p)
{
	enum tune_phase ph;

	if (p->descending && !p->opts.no_search) {
		int moved = improved(p);

		if (moved)
			descend(p);
		if (descend_plain(p) || moved)
			return 1;
	}
	ph = p->order[p->step];
	if (ph == TUNE_PH_WIDEN) {
		p->phase = ph;
		if (widen(p))
			return 1;
		ph = p->order[++p->step];
	}
	if (ph == TUNE_PH_DONE) {
		p->phase = TUNE_PH_DONE;
		return 0;
	}
	p->step++;
	p->phase = ph;
	if (ph == TUNE_PH_STARTS)
		plan_starts(p);
	else if (ph == TUNE_PH_SOURCE && !p->opts.no_source)
		plan_source(p);
	else if (ph == TUNE_PH_DESCENT && !p->opts.no_search) {
		p->descending = 1;
		descend(p);
		descend_plain(p);
	} else if (ph == TUNE_PH_PAIRS && !p->opts.no_search)
		plan_pairs(p);
	else if (ph == TUNE_PH_GRID && !p->opts.no_search)
		plan_grid(p);
	else if (ph == TUNE_PH_LADDER && !p->opts.no_search)
		plan_ladder(p);
	return 1;
}

/*
 * Would one more variant pass the budget? Only measured costs can say: a
 * guess made before any would stop a short budget before its first
 * variant (an H200 run with --budget 3 timed the base alone on all 21
 * kernels), so the first search variant always runs.
 */
static int over_budget(const struct tune_plan *p)
{
	return p->opts.budget_s > 0 && p->costed &&
	       p->spent_s + p->spent_s / (double)p->costed > p->opts.budget_s;
}

static struct tune_variant *stop(struct tune_plan *p, const char *why)
{
	p->stopped = 1;
	p->stop_reason = why;
	return NULL;
}

struct tune_variant *tune_plan_next(struct tune_plan *p)
{
	if (p->base < 0)
		return NULL;
	while (!p->stopped) {
		if (p->next < p->nr) {
			struct tune_variant *v = &p->v[p->next];

			if (p->opts.max_variants && p->next >= p->opts.max_variants)
				return stop(p, "max-variants");
			if ((long)p->next != p->base && over_budget(p))
				return stop(p, "budget");
			p->next++;
			return v;
		}
		if (!advance(p))
			return NULL;
	}
	return NULL;
}

void tune_plan_record(struct tune_plan *p, size_t index, double time_ms,
		      int usable, double cost_s)
{
	struct tune_variant *v;

	if (index >= p->nr)
		return;
	v = &p->v[index];
	v->time_ms = time_ms;
	v->usable = usable;
	v->done = 1;
	/* the base's cost is setup (inputs loaded, reference kept, a cold
	 * compile): the budget is for the search around it */
	if ((long)index != p->base) {
		p->spent_s += cost_s > 0 ? cost_s : 0;
		p->costed++;
	}
	if (usable && time_ms >= 0 &&
	    (p->best < 0 || time_ms < p->v[p->best].time_ms))
		p->best = (long)index;
}
