/* Fuzzes summarize's reader of TORCH_LOGS=+inductor autotune lines (parse/inductor_log.c), alone. */
#include "fuzz.h"
#include "parse/inductor_log.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct log_reader *const rs[] = { &inductor_log_reader };

	fuzz_log(rs, 1, data, size);
	return 0;
}
