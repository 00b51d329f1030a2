/*
 * Fuzzes the ISA scanner on SASS listings (cuobjdump -sass, nvdisasm)
 * (isa/scan.c isa_scan_text), then the findings, the JSON document and the
 * terminal and Markdown renderings of what it found (support.c fuzz_isa).
 */
#include "fuzz.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_isa(ISA_SASS, data, size);
	return 0;
}
