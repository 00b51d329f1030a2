/*
 * Fuzzes the reader of tko capture's events.jsonl (parse/capture_events.c
 * on model/capture_events.c, with config_json.c): every line as an event,
 * then the summarize outputs.
 */
#include "fuzz.h"
#include "parse/autotune.h"
#include "parse/capture_events.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct autotune_set set;
	unsigned file;

	autotune_set_init(&set);
	file = at_input_add(&set, "events.jsonl");
	capture_events_sniff((const char *)data, size);
	capture_events_read(&set, file, (const char *)data, size);
	fuzz_autotune_done(&set);
	return 0;
}
