/*
 * The scanning entry points' internal half: running one scanner over a
 * text without finishing the result, so that callers can merge sibling
 * metadata (Triton's <name>.json, cuobjdump -res-usage) before the
 * findings are computed by isa_file_finish().
 */
#ifndef TKO_ISA_SCAN_H
#define TKO_ISA_SCAN_H

#include "isa/isa.h"

/* Scans p[0..n) with the scanner for `kind`; 0 or ISA_ERR_INPUT. */
int isa_scan_raw(const char *p, size_t n, enum isa_kind kind,
		 struct isa_file_result *out, struct buf *err);

#endif
