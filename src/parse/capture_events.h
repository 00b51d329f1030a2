/*
 * Reader for tko capture's event stream, RUN/capture/events.jsonl: one
 * JSON object per line, schema in docs/capture-events.md, the lines typed
 * by model/capture_events.h. Unknown event types and unknown fields are
 * skipped and counted; a line that is not JSON is counted as malformed,
 * except the last one when it has no newline (the process died
 * mid-write), which marks the input truncated. Every complete line is a
 * record. Fields of the wrong type are read as unknown and said in the
 * input's note.
 */
#ifndef TKO_PARSE_CAPTURE_EVENTS_H
#define TKO_PARSE_CAPTURE_EVENTS_H

#include <stddef.h>

#include "parse/autotune.h"

/* 1 when the first line of data is a JSON object with an "event" key. */
int capture_events_sniff(const char *data, size_t len);

/* Reads data[0..len) as input `file` of the set; counts go to that input. */
void capture_events_read(struct autotune_set *set, unsigned file,
			 const char *data, size_t len);

#endif
