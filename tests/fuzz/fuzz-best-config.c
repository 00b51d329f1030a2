/*
 * Fuzzes the reader of Inductor's .best_config autotune cache records
 * (parse/best_config.c): the record is read as a loose file, with no
 * Triton cache to look its kernel up in, then the summarize outputs.
 */
#include "fuzz.h"
#include "parse/autotune.h"
#include "parse/best_config.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct autotune_set set;
	struct buf err = BUF_INIT;
	unsigned file;

	autotune_set_init(&set);
	file = at_input_add(&set, "fuzz.best_config");
	best_config_sniff((const char *)data, size);
	best_config_read(&set, file, (const char *)data, size, NULL, &err);
	fuzz_autotune_done(&set);
	buf_release(&err);
	return 0;
}
