/*
 * The AMDGCN mnemonic table: which family an AMDGCN (or DCU) mnemonic
 * belongs to and how many bits per lane it moves. amdgcn.c asks
 * amd_candidate() on every instruction line (a test on the first letters
 * that keeps ALU lines away from lookups) and amd_classify() once per
 * distinct mnemonic, whose answer is interned with it.
 */
#ifndef TKO_ISA_AMDGCN_OPS_H
#define TKO_ISA_AMDGCN_OPS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/tok.h"

/* Could mnemonic m[0..n) start a counted family? */
static inline __attribute__((always_inline)) int amd_candidate(const char *m, size_t n)
{
	if (n < 4)
		return 0;
	switch (m[0]) {
	case 'v':
		return m[1] == '_' &&
		       ((m[2] == 'm' && (m[3] == 'f' || m[3] == 'm')) ||
			(m[2] == 'w' && m[3] == 'm') ||
			(m[2] == 's' && (m[3] == 'm' || m[3] == 'w')) ||
			(m[2] == 'a' && m[3] == 'c') ||
			(m[2] == 'c' && n > 11 && !memcmp(m, "v_cvt_scale", 11)));
	case 's':
		if (m[1] == 'c')
			return tok_prefix8(m, n, "scratch_", 8);
		if (m[1] != '_')
			return 0;
		return (m[2] == 'l' && tok_prefix8(m, n, "s_load_", 7)) ||
		       (m[2] == 'b' && (m[3] == 'u' || m[3] == 'a')) ||
		       (m[2] == 'd' && m[3] == 'c') ||
		       (m[2] == 's' && m[3] == 't') ||
		       (m[2] == 'w' && m[3] == 'a');
	case 'g':
		return tok_prefix8(m, n, "global_", 7);
	case 'b':
		return tok_prefix8(m, n, "buffer_", 7);
	case 'f':
		return tok_prefix8(m, n, "flat_", 5);
	case 'd':
		return m[1] == 's' && m[2] == '_';
	case 'm':
		return tok_prefix8(m, n, "matrix_", 7);
	case 't':
		return tok_prefix8(m, n, "tensor_", 7);
	default:
		return 0;
	}
}
/* Classifies and interns m[0..n) in f; returns its op index. */
uint32_t amd_classify(struct isa_file_result *f, const char *m, size_t n);

#endif
