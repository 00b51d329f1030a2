/*
 * capture/summary: what a capture left in a RUN, counted for tko-run.json's
 * "capture" (model/manifest.h): the lines of capture/events.jsonl by
 * event type (docs/capture-events.md) and the capture/kernels/ folders.
 */
#ifndef TKO_CAPTURE_SUMMARY_H
#define TKO_CAPTURE_SUMMARY_H

#include "model/manifest.h"

/*
 * Counts into `c` (manifest_init'ed, or zeroed with an empty by_type),
 * the lines read through model/capture_events.h. A missing events file
 * counts as none; a line that is not a JSON object with a string "event"
 * (a truncated last line) is an unreadable line, not an error; a blank one
 * is neither.
 */
void capture_summary_read(const char *run, struct manifest_capture *c);

#endif
