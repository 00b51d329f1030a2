/*
 * Launch grids for tko tune's variants. Since torch 2.7 Inductor computes
 * the grid inside its launcher from the numel arguments and the config
 * (inductor_meta grid_type, the GridExpr classes of torch's
 * triton_heuristics.py); a variant with other block sizes needs its own
 * grid, so tko computes it here from the captured scalar arguments:
 *
 *   Grid1D, Grid2D, Grid3D   cdiv(xnumel, XBLOCK), cdiv(ynumel, YBLOCK), ...
 *   Grid2DWithYZOverflow     x as Grid2D; the y blocks spread over y and z:
 *                            z = cdiv(cdiv(ynumel, YBLOCK), 65535) and
 *                            y = cdiv(cdiv(ynumel, YBLOCK), z)
 *                            (get_max_y_grid() is 65535 in torch 2.9-2.11)
 *   MixOrderReductionGrid    cdiv(xnumel, RSPLIT_SIZE): a norm backward's
 *                            fused row and column reduction; each program
 *                            walks RSPLIT_SIZE rows XBLOCK at a time and
 *                            writes one row of partial sums (workspace.h)
 *   FixedGrid (mm templates) cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N) in x, the
 *                            captured y and z (a bmm's batch), with M and N
 *                            read from the template body (`M = 2048`)
 *   hand-written kernels     the captured grid, its x scaled by the one
 *                            tuned *BLOCK* parameter (a kernel launched
 *                            otherwise is caught by the output check)
 *
 * A variant whose grid parameters equal the base's gets the captured grid
 * as it is, so kernels of any grid type can still be tuned in num_warps,
 * num_stages and the other parameters; tune_grid_check() says whether the
 * formulas reproduce the captured grid for the base (when they do not, the
 * sweep keeps the grid parameters at their base values).
 */
#ifndef TKO_TUNE_GRID_H
#define TKO_TUNE_GRID_H

#include "model/capture.h"
#include "tune/space.h"
#include "util/buf.h"

struct tune_sweep;

/* The grid of `cfg` into grid[3]. 0, or -1 with a line in err. */
int tune_grid(const struct tune_sweep *s, const struct tune_config *cfg, long grid[3],
	      struct buf *err);

/*
 * Checks the formulas against the capture: 0 when they give the captured
 * grid for the base config (or nothing was captured), -1 with the reason
 * in why when they cannot or do not.
 */
int tune_grid_check(const struct tune_sweep *s, struct buf *why);

/* 1 when parameter p decides the grid of the sweep's kernel (ctx: the sweep). */
int tune_grid_param(const struct tune_param *p, void *ctx);

/* The Inductor grid of one grid type from numels and blocks (x, y, z; the
 * x block of MixOrderReductionGrid is RSPLIT_SIZE). */
int tune_grid_inductor(const char *grid_type, const long numel[3], const long block[3],
		       long grid[3], struct buf *err);

/* The captured argument `name` (an entry of capture.json's args), or NULL. */
const struct capture_arg *tune_captured_arg(const struct tune_sweep *s, const char *name);

/* A captured integer argument's value (capture.json args). 0, or -1 when
 * there is none. */
int tune_captured_scalar(const struct tune_sweep *s, const char *name, long *v);

#endif
