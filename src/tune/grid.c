/*
 * Launch grids (see grid.h). The y/z overflow split follows Inductor's
 * Grid2DWithYZOverflow: CUDA and HIP allow 65535 blocks in y and z.
 * MixOrderReductionGrid (torch 2.10+, a row and a column reduction fused:
 * the backward of a norm) gives each program RSPLIT_SIZE rows of x, which
 * it walks XBLOCK at a time: its grid is cdiv(xnumel, RSPLIT_SIZE), and
 * XBLOCK does not shape it.
 */
#include <string.h>

#include "json/jsonio.h"
#include "tune/grid.h"
#include "tune/rewrite.h"
#include "tune/sweep.h"
#include "banned.h"

#define MAX_YZ_GRID 65535

static const struct {
	const char *name;	/* inductor_meta grid_type */
	int dims;		/* numel/block pairs it divides */
	int yz_overflow;	/* y blocks spread over y and z */
	int split;		/* x is divided by RSPLIT_SIZE, not XBLOCK */
} grid_types[] = {
	{ "Grid1D", 1, 0, 0 },
	{ "Grid2D", 2, 0, 0 },
	{ "Grid3D", 3, 0, 0 },
	{ "Grid2DWithYZOverflow", 2, 1, 0 },
	{ "MixOrderReductionGrid", 1, 0, 1 },
};

static long cdiv(long a, long b)
{
	return b > 0 ? (a + b - 1) / b : a;
}

static int grid_type_index(const char *grid_type)
{
	size_t i;

	for (i = 0; grid_type && i < sizeof(grid_types) / sizeof(grid_types[0]); i++)
		if (!strcmp(grid_types[i].name, grid_type))
			return (int)i;
	return -1;
}

int tune_grid_inductor(const char *grid_type, const long numel[3], const long block[3],
		       long grid[3], struct buf *err)
{
	int t = grid_type_index(grid_type), i;

	if (t < 0) {
		buf_addf(err, "grid type '%s' is not one tko tune computes", grid_type);
		return -1;
	}
	for (i = 0; i < 3; i++)
		grid[i] = i < grid_types[t].dims ? cdiv(numel[i], block[i]) : 1;
	if (grid_types[t].yz_overflow) {
		grid[2] = cdiv(grid[1], MAX_YZ_GRID);
		grid[1] = cdiv(grid[1], grid[2]);
	}
	return 0;
}

const struct capture_arg *tune_captured_arg(const struct tune_sweep *s, const char *name)
{
	size_t i;

	for (i = 0; s->capture && i < s->capture->nargs; i++)
		if (s->capture->args[i].name && !strcmp(s->capture->args[i].name, name))
			return &s->capture->args[i];
	return NULL;
}

int tune_captured_scalar(const struct tune_sweep *s, const char *name, long *v)
{
	const struct capture_arg *a = tune_captured_arg(s, name);
	const json_t *value = a ? a->value : NULL;

	if (!json_is_integer(value))
		return -1;
	*v = (long)json_integer_value(value);
	return 0;
}

/* The captured launch grid, 0 or -1 when capture.json has none. */
static int captured(const struct tune_sweep *s, long grid[3])
{
	const json_t *g = s->capture ? s->capture->grid : NULL;
	size_t i;

	if (json_array_size(g) != 3)
		return -1;
	for (i = 0; i < 3; i++) {
		if (!json_is_integer(json_array_get(g, i)))
			return -1;
		grid[i] = (long)json_integer_value(json_array_get(g, i));
	}
	return 0;
}

static long value_or(const struct tune_space *sp, const struct tune_config *c,
		     const char *name, long fallback)
{
	int i = tune_space_find(sp, name);

	return i < 0 ? fallback : c->v[i];
}

static int split_grid(const char *grid_type)
{
	int t = grid_type_index(grid_type);

	return t >= 0 && grid_types[t].split;
}

static int inductor_grid(const struct tune_sweep *s, const struct tune_config *c,
			 long grid[3], struct buf *err)
{
	static const char *const numels[3] = { "xnumel", "ynumel", "znumel" };
	const char *blocks[3] = { "XBLOCK", "YBLOCK", "ZBLOCK" };
	long n[3] = { 1, 1, 1 }, b[3];
	int i;

	if (split_grid(s->k.grid_type))
		blocks[0] = "RSPLIT_SIZE";
	for (i = 0; i < 3; i++) {
		if (tune_captured_scalar(s, numels[i], &n[i]) < 0 && tune_kernel_arg(&s->k, numels[i])) {
			buf_addf(err, "capture.json has no value for '%s'", numels[i]);
			return -1;
		}
		b[i] = value_or(&s->plan.space, c, blocks[i], 1);
	}
	return tune_grid_inductor(s->k.grid_type, n, b, grid, err);
}

static int template_grid(const struct tune_sweep *s, const struct tune_config *c,
			 long grid[3], struct buf *err)
{
	long m = s->k.tmpl_dims[0], n = s->k.tmpl_dims[1];

	if (m <= 0 || n <= 0) {
		buf_addf(err, "template '%s' has no 'M = <int>' and 'N = <int>' lines", s->k.name);
		return -1;
	}
	if (captured(s, grid) < 0)
		grid[1] = grid[2] = 1;
	grid[0] = cdiv(m, value_or(&s->plan.space, c, "BLOCK_M", m)) *
		  cdiv(n, value_or(&s->plan.space, c, "BLOCK_N", n));
	return 0;
}

static int user_grid(const struct tune_sweep *s, const struct tune_config *c,
		     long grid[3], struct buf *err)
{
	const struct tune_space *sp = &s->plan.space;
	const struct tune_config *base = &s->plan.v[s->plan.base].cfg;
	size_t i, blocks = 0;
	int at = -1;

	if (captured(s, grid) < 0) {
		buf_addf(err, "capture.json of '%s' has no grid", s->k.name);
		return -1;
	}
	for (i = 0; i < sp->n; i++)
		if (sp->p[i].at == TUNE_AT_CONSTEXPR && sp->p[i].dim < 0 &&
		    c->v[i] != base->v[i]) {
			blocks++;
			at = (int)i;
		}
	if (blocks > 1) {
		buf_addf(err, "cannot scale the grid of '%s' for two block sizes", s->k.name);
		return -1;
	}
	if (at >= 0)
		grid[0] = cdiv(grid[0] * base->v[at], c->v[at]);
	return 0;
}

int tune_grid_param(const struct tune_param *p, void *ctx)
{
	const struct tune_sweep *s = ctx;

	if (s->k.kind == TUNE_KIND_TEMPLATE)
		return p->at == TUNE_AT_BODY &&
		       (!strcmp(p->name, "BLOCK_M") || !strcmp(p->name, "BLOCK_N"));
	if (p->at != TUNE_AT_CONSTEXPR)
		return 0;
	if (split_grid(s->k.grid_type))
		return p->split;
	if (s->k.grid_type && grid_type_index(s->k.grid_type) >= 0)
		return p->dim >= 0 && p->dim < TUNE_DIM_R0;
	return 1;
}

/* 1 when every grid parameter of c has the base's value. */
static int same_grid_params(const struct tune_sweep *s, const struct tune_config *c)
{
	const struct tune_space *sp = &s->plan.space;
	const struct tune_config *base;
	size_t i;

	if (s->plan.base < 0)
		return 0;
	base = &s->plan.v[s->plan.base].cfg;
	for (i = 0; i < sp->n; i++)
		if (tune_grid_param(&sp->p[i], (void *)s) && c->v[i] != base->v[i])
			return 0;
	return 1;
}

static int formula(const struct tune_sweep *s, const struct tune_config *cfg, long grid[3],
		   struct buf *err)
{
	if (s->k.kind == TUNE_KIND_TEMPLATE)
		return template_grid(s, cfg, grid, err);
	if (s->k.grid_type)
		return inductor_grid(s, cfg, grid, err);
	return user_grid(s, cfg, grid, err);
}

int tune_grid(const struct tune_sweep *s, const struct tune_config *cfg, long grid[3],
	      struct buf *err)
{
	if (same_grid_params(s, cfg) && captured(s, grid) == 0)
		return 0;
	return formula(s, cfg, grid, err);
}

int tune_grid_check(const struct tune_sweep *s, struct buf *why)
{
	long want[3], got[3];

	if (s->plan.base < 0 || captured(s, want) < 0)
		return 0;
	if (formula(s, &s->plan.v[s->plan.base].cfg, got, why) < 0)
		return -1;
	if (memcmp(want, got, sizeof(want))) {
		buf_addf(why, "the grid tko computes for the base config (%ld, %ld, %ld) is not "
			 "the captured one (%ld, %ld, %ld)", got[0], got[1], got[2],
			 want[0], want[1], want[2]);
		return -1;
	}
	return 0;
}
