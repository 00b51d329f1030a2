/*
 * Fuzzes a whole text log as `tko summarize` reads it: every line offered
 * to every log reader in turn (parse/logscan.c), so their interplay on a
 * mixed log is covered too.
 */
#include "fuzz.h"
#include "parse/inductor_log.h"
#include "parse/max_autotune.h"
#include "parse/seed_log.h"
#include "parse/triton_print.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct log_reader *const rs[] = {
		&inductor_log_reader, &max_autotune_reader, &triton_print_reader, &seed_log_reader,
	};

	fuzz_log(rs, sizeof(rs) / sizeof(rs[0]), data, size);
	return 0;
}
