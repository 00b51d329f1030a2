/* Fuzzes summarize's reader of TRITON_PRINT_AUTOTUNING=1 lines (parse/triton_print.c), alone. */
#include "fuzz.h"
#include "parse/triton_print.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct log_reader *const rs[] = { &triton_print_reader };

	fuzz_log(rs, 1, data, size);
	return 0;
}
