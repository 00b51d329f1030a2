/* Fuzzes summarize's reader of max-autotune AUTOTUNE tables (parse/max_autotune.c), alone. */
#include "fuzz.h"
#include "parse/max_autotune.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct log_reader *const rs[] = { &max_autotune_reader };

	fuzz_log(rs, 1, data, size);
	return 0;
}
