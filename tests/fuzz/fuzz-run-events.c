/*
 * Fuzzes the events.jsonl summary tko capture and tko run print from a RUN
 * (capture/summary.c on model/capture_events.c): the input is written as
 * RUN/capture/events.jsonl in a private directory and summarised.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "capture/summary.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *events;
	struct buf err = BUF_INIT;
	struct run_manifest m;

	if (!events) {
		char *dir = path_join(fuzz_tmpdir(), "capture");

		if (mkdir_p(dir, &err) < 0)
			abort();
		events = path_join(dir, "events.jsonl");
		free(dir);
	}
	if (write_file_atomic(events, data, size, &err) < 0)
		abort();
	manifest_init(&m);
	capture_summary_read(fuzz_tmpdir(), &m.capture);
	manifest_release(&m);
	buf_release(&err);
	return 0;
}
