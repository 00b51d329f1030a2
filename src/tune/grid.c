/*
 * Launch grids (see grid.h). The y/z overflow split follows Inductor's
 * Grid2DWithYZOverflow: CUDA and HIP allow 65535 blocks in y and z.
 */
#include <string.h>

#include "tune/grid.h"
#include "tune/rewrite.h"
#include "tune/sweep.h"
#include "util/jsonio.h"
#include "banned.h"

#define MAX_YZ_GRID 65535

static long cdiv(long a, long b)
{
	return b > 0 ? (a + b - 1) / b : a;
}

int tune_grid_inductor(const char *grid_type, const long numel[3], const long block[3],
		       long grid[3], struct buf *err)
{
	int i, dims;

	if (!strcmp(grid_type, "Grid1D"))
		dims = 1;
	else if (!strcmp(grid_type, "Grid2D") || !strcmp(grid_type, "Grid2DWithYZOverflow"))
		dims = 2;
	else if (!strcmp(grid_type, "Grid3D"))
		dims = 3;
	else {
		buf_addf(err, "grid type '%s' is not supported by tko tune yet", grid_type);
		return -1;
	}
	for (i = 0; i < 3; i++)
		grid[i] = i < dims ? cdiv(numel[i], block[i]) : 1;
	if (!strcmp(grid_type, "Grid2DWithYZOverflow")) {
		grid[2] = cdiv(grid[1], MAX_YZ_GRID);
		grid[1] = cdiv(grid[1], grid[2]);
	}
	return 0;
}

/* A captured scalar argument's value. */
static int scalar(const struct tune_sweep *s, const char *name, long *v)
{
	const json_t *a;
	size_t i;

	json_array_foreach(json_object_get(s->capture, "args"), i, a)
		if (json_str(a, "name") && !strcmp(json_str(a, "name"), name) &&
		    json_is_integer(json_object_get(a, "value"))) {
			*v = (long)json_integer_value(json_object_get(a, "value"));
			return 0;
		}
	return -1;
}

static long value_or(const struct tune_space *sp, const struct tune_config *c,
		     const char *name, long fallback)
{
	int i = tune_space_find(sp, name);

	return i < 0 ? fallback : c->v[i];
}

static int inductor_grid(const struct tune_sweep *s, const struct tune_config *c,
			 long grid[3], struct buf *err)
{
	static const char *const numels[3] = { "xnumel", "ynumel", "znumel" };
	static const char *const blocks[3] = { "XBLOCK", "YBLOCK", "ZBLOCK" };
	long n[3] = { 1, 1, 1 }, b[3];
	int i;

	for (i = 0; i < 3; i++) {
		if (scalar(s, numels[i], &n[i]) < 0 && tune_kernel_arg(&s->k, numels[i])) {
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
	long m, n;

	if (rewrite_find_int(s->text.buf, s->text.len, &s->k, "M", &m) < 0 ||
	    rewrite_find_int(s->text.buf, s->text.len, &s->k, "N", &n) < 0) {
		buf_addf(err, "template '%s' has no 'M = <int>' and 'N = <int>' lines", s->k.name);
		return -1;
	}
	grid[0] = cdiv(m, value_or(&s->plan.space, c, "BLOCK_M", m)) *
		  cdiv(n, value_or(&s->plan.space, c, "BLOCK_N", n));
	grid[1] = grid[2] = 1;
	return 0;
}

static int user_grid(const struct tune_sweep *s, const struct tune_config *c,
		     long grid[3], struct buf *err)
{
	const json_t *g = json_object_get(s->capture, "grid");
	const struct tune_space *sp = &s->plan.space;
	const struct tune_config *base = &s->plan.v[s->plan.base].cfg;
	size_t i, blocks = 0;
	int at = -1;

	if (json_array_size(g) != 3) {
		buf_addf(err, "capture.json of '%s' has no grid", s->k.name);
		return -1;
	}
	for (i = 0; i < 3; i++)
		grid[i] = (long)json_integer_value(json_array_get(g, i));
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

int tune_grid(const struct tune_sweep *s, const struct tune_config *cfg, long grid[3],
	      struct buf *err)
{
	if (s->k.kind == TUNE_KIND_TEMPLATE)
		return template_grid(s, cfg, grid, err);
	if (s->k.grid_type)
		return inductor_grid(s, cfg, grid, err);
	return user_grid(s, cfg, grid, err);
}
