/*
 * Fuzzes the reader of Inductor output modules named by a log
 * (parse/output_code.c): "# kernel path:" comments and the kernel names
 * assigned under them.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "parse/output_code.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct oc_module m = { NULL, 0, 0, NULL, 0, 0 };
	size_t i;

	output_code_scan(&m, (const char *)data, size);
	for (i = 0; i < m.nr; i++) {
		free(m.k[i].name);
		free(m.k[i].path);
	}
	free(m.k);
	return 0;
}
