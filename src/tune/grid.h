/*
 * Launch grids for tko tune's variants. Since torch 2.7 Inductor computes
 * the grid inside its launcher from the numel arguments and the config
 * (inductor_meta grid_type); a variant with other block sizes needs its
 * own grid, so tko computes it here from the captured scalar arguments.
 *
 *   Grid1D, Grid2D, Grid3D   cdiv(xnumel, XBLOCK), cdiv(ynumel, YBLOCK), ...
 *   Grid2DWithYZOverflow     the y blocks spread over y and z, 65535 each
 *   FixedGrid (mm templates) cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N), with M
 *                            and N read from the template body
 *   hand-written kernels     the captured grid, its x scaled by the one
 *                            tuned *BLOCK* parameter (a kernel launched
 *                            otherwise is caught by the output check)
 */
#ifndef TKO_TUNE_GRID_H
#define TKO_TUNE_GRID_H

#include "tune/space.h"
#include "util/buf.h"

struct tune_sweep;

/* The grid of `cfg` into grid[3]. 0, or -1 with a line in err. */
int tune_grid(const struct tune_sweep *s, const struct tune_config *cfg, long grid[3],
	      struct buf *err);

/* The Inductor grid of one grid type from numels and blocks (x, y, z). */
int tune_grid_inductor(const char *grid_type, const long numel[3], const long block[3],
		       long grid[3], struct buf *err);

#endif
