/*
 * tune/exit: the exit status (src/exitcode.h) of one kernel's tuning, the
 * same for `tko tune` and for the tuning `tko investigate --tune-top` does
 * (docs/exit-codes.md): 1 a bad input or a failed sweep (its files not
 * written, its base failed), 3 no Python or worker, or a target that
 * cannot be compiled here, 4 --kernel matched none or several, 5 the
 * worker failed.
 */
#ifndef TKO_TUNE_EXIT_H
#define TKO_TUNE_EXIT_H

#include "tune/tune.h"

/* EXIT_OK, or the status of what went wrong with `out`'s input. */
int tune_exit_of(const struct tune_outcome *out);

#endif
