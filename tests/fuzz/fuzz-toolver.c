/*
 * Fuzzes tko env's reader of `TOOL --version` output (env/toolver.c),
 * with and without the hint word that picks the version line.
 */
#include "fuzz.h"
#include "env/toolver.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const hints[] = { NULL, "release", "version", "HIP" };
	struct tool_version v;
	size_t i;

	for (i = 0; i < sizeof(hints) / sizeof(hints[0]); i++)
		tool_version_parse((const char *)data, size, hints[i], &v);
	return 0;
}
