/*
 * tune_pick: which kernels `tko investigate --tune-top N` tunes. The
 * decision step marks kernels "tune"; of those, in rank order (most GPU
 * time first), the first N that have captured inputs (a capture kernel
 * directory, which tko tune needs to time and check a variant) are
 * chosen. A chosen kernel that already has a tune result is not tuned
 * again (tko tune KERNEL_DIR does that on purpose) but still counts, so
 * that N names the same kernels however often it is run. A kernel marked
 * tune without captured inputs that ranks above the last chosen one is
 * listed too, so the caller can say why it was passed over.
 *
 *	struct tune_pick *p;
 *	size_t i, n = tune_pick(&run, 3, &p);
 *	for (i = 0; i < n; i++)
 *		if (p[i].what == TUNE_PICK_TUNE)
 *			... tune p[i].k->kernel_dir
 *	free(p);
 */
#ifndef TKO_DECIDE_TUNE_PICK_H
#define TKO_DECIDE_TUNE_PICK_H

#include <stddef.h>

#include "model/analysis.h"

enum tune_pick_what {
	TUNE_PICK_TUNE,		/* to tune: marked tune, captured, not tuned yet */
	TUNE_PICK_TUNED,	/* chosen, but it has a tune result already */
	TUNE_PICK_NO_INPUTS,	/* marked tune, uncaptured, ranked above the last chosen */
};

struct tune_pick {
	const struct an_kernel *k;	/* borrowed from the run */
	enum tune_pick_what what;
};

/*
 * The kernels of r to tune, at most `top` chosen ones (TUNE_PICK_TUNE or
 * TUNE_PICK_TUNED), in rank order, into a new array *out (NULL when none;
 * the caller frees it). Returns its length.
 */
size_t tune_pick(const struct an_run *r, size_t top, struct tune_pick **out);

#endif
