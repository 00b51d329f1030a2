/* Fuzzes tko env's reader of `rocminfo` output (env/rocminfo.c). */
#include "fuzz.h"
#include "env/rocminfo.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rocminfo ri = ROCMINFO_INIT;
	struct buf err = BUF_INIT;
	size_t i;

	if (!rocminfo_parse((const char *)data, size, &ri, &err))
		for (i = 0; i < ri.nr; i++)
			rocm_agent_is_gpu(&ri.agents[i]);
	rocminfo_release(&ri);
	buf_release(&err);
	return 0;
}
