/*
 * Fuzzes tko env's readers of hy-smi / rocm-smi text and nvidia-smi
 * --format=csv output (env/smi.c), the same bytes through both.
 */
#include "fuzz.h"
#include "env/smi.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smi s = SMI_INIT, c = SMI_INIT;
	struct buf err = BUF_INIT;

	hysmi_parse((const char *)data, size, &s, &err);
	nvsmi_parse_csv((const char *)data, size, &c, &err);
	smi_release(&s);
	smi_release(&c);
	buf_release(&err);
	return 0;
}
