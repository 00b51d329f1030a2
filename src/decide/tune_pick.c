/*
 * The kernels `tko investigate --tune-top N` tunes (see tune_pick.h).
 */
#include <stdlib.h>

#include "decide/tune_pick.h"
#include "util/mem.h"
#include "banned.h"

static enum tune_pick_what what_of(const struct an_kernel *k)
{
	if (!k->kernel_dir)
		return TUNE_PICK_NO_INPUTS;
	return k->tune.file ? TUNE_PICK_TUNED : TUNE_PICK_TUNE;
}

size_t tune_pick(const struct an_run *r, size_t top, struct tune_pick **out)
{
	size_t i, n = 0, chosen = 0;

	*out = NULL;
	for (i = 0; i < r->nkernels && chosen < top; i++) {
		const struct an_kernel *k = &r->kernels[i];

		if (k->decision != DECISION_TUNE)
			continue;
		if (!*out)
			*out = xcalloc(r->nkernels, sizeof(**out));
		(*out)[n].k = k;
		(*out)[n].what = what_of(k);
		chosen += (*out)[n].what != TUNE_PICK_NO_INPUTS;
		n++;
	}
	return n;
}
