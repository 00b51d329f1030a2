/*
 * report/replay_text: what `tko run` prints: one row per replayed config
 * (time, the autotuner-style time, the recorded time, the bytes the launch
 * moves, that rate and its fraction of the copy rate, whether the outputs
 * agree), the notes on host copies and doubted rates, the peak line and
 * the legend; then where the document was kept, and on stderr what went
 * wrong. `tko investigate` prints a replay the same way.
 */
#ifndef TKO_REPORT_REPLAY_TEXT_H
#define TKO_REPORT_REPLAY_TEXT_H

#include <stdio.h>

#include "run/replay.h"

/* The table, notes, peak line and legend of a "tko run" document. */
void replay_text_print(FILE *fp, const struct replay_doc *doc);

/*
 * All that `tko run` shows of an outcome: with `table`, the document's
 * table on stdout and "kept in PATH"; then on stderr, under the step name
 * `step` ("tko run: ..."), why there is no document, why it was not kept,
 * or how many kernels failed.
 */
void replay_text_show(const struct replay_outcome *out, int table, const char *step);

#endif
