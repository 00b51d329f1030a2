/* Fuzzes summarize's reader of the seed skill's autotune.log (parse/seed_log.c), alone. */
#include "fuzz.h"
#include "parse/seed_log.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct log_reader *const rs[] = { &seed_log_reader };

	fuzz_log(rs, 1, data, size);
	return 0;
}
