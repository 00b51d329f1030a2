/*
 * Telling what an input file is from its content, never its name: the
 * text of one of the ISA scanners (each scanner's detect() votes), a
 * known text that is not assembly (LLVM IR, MLIR such as Triton's
 * .ttir/.ttgir/.source, Python, JSON), an NVIDIA or AMDGPU ELF code
 * object (disassembled by tools.c), other ELF, or other binary data.
 */
#ifndef TKO_ISA_DETECT_H
#define TKO_ISA_DETECT_H

#include <stddef.h>

#include "isa/isa.h"

/* How much of a file detection looks at. */
#define ISA_PROBE_BYTES 65536

enum isa_input {
	ISA_IN_TEXT,		/* text that scanner `kind` reads */
	ISA_IN_SKIP,		/* known text that is not assembly */
	ISA_IN_UNKNOWN,		/* text of no known kind */
	ISA_IN_BINARY,		/* binary data of no known kind */
	ISA_IN_CUBIN,		/* NVIDIA ELF (EM_CUDA) or fatbin */
	ISA_IN_AMDGPU,		/* AMDGPU ELF code object (.hsaco, .co) */
	ISA_IN_ELF,		/* ELF for a CPU */
};

struct isa_sniff {
	enum isa_input input;	/* what it is */
	enum isa_kind kind;	/* ISA_IN_TEXT: the scanner's ISA */
	const char *skip_kind;	/* ISA_IN_SKIP: "llvm-ir", "mlir", "python", "json" */
	const char *what;	/* a few words for messages ("MLIR (Triton TTIR/TTGIR)") */
	int fatbin;		/* ISA_IN_CUBIN: a fatbin container, not a plain ELF */
	unsigned machine;	/* ELF e_machine */
	char arch[16];		/* ISA_IN_AMDGPU: processor from e_flags, "" unknown */
	size_t nul_at;		/* ISA_IN_BINARY: offset of the first NUL byte */
};

/* Looks at the first ISA_PROBE_BYTES of p[0..n). */
void isa_sniff(const char *p, size_t n, struct isa_sniff *out);

#endif
