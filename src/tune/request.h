/*
 * The worker requests of tko tune: for one variant, the compile request
 * (source, kernel, Triton signature, constants, specialisation attrs,
 * num_warps, num_stages, backend options, target, out_dir), mirroring what
 * Inductor's _precompile_config passes to triton.compile; and in GPU mode
 * the bench request, which adds the captured inputs, the launch grid, the
 * arguments to restore and compare, the reference variant and the
 * tolerances by dtype.
 */
#ifndef TKO_TUNE_REQUEST_H
#define TKO_TUNE_REQUEST_H

#include <jansson.h>

#include "tune/kernel.h"
#include "tune/space.h"
#include "util/buf.h"

struct tune_sweep;
struct tune_variant;

/*
 * Checks that every constexpr argument gets a value (a tuned parameter or
 * a constant). 0, or -1 with a line in err naming the first that does not.
 */
int tune_request_check(const struct tune_kernel *k, const struct tune_space *s,
		       struct buf *err);

/* The request for variant v, whose source is `source` and files go to `dir`. */
json_t *tune_request_new(const struct tune_sweep *s, const struct tune_variant *v,
			 const char *source, const char *dir);

/* {dtype: [rtol, atol]}: what "equal" means per output dtype. A new reference. */
json_t *tune_tolerances(void);

#endif
