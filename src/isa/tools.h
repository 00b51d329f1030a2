/*
 * Turning GPU binaries into text the scanners read, with the vendors'
 * tools run as child processes (argv, never a shell):
 *
 *   .cubin   nvdisasm -g -c (SASS with source lines), else cuobjdump -sass;
 *            plus cuobjdump -res-usage for registers, stack, shared, local
 *   .hsaco   dccobjdump (DTK) for DCU archs when on PATH, else the first
 *            llvm-objdump -d that knows the processor, plus llvm-readelf
 *            --notes for the amdhsa.kernels metadata
 *
 * Tools are looked up on PATH, then where their vendors put them
 * (TRITON_NVDISASM_PATH / TRITON_CUOBJDUMP_PATH as Triton uses them;
 * TKO_LLVM_OBJDUMP, $ROCM_PATH, /opt/rocm, /opt/dtk for llvm-objdump).
 * A missing or unable tool is ISA_ERR_TOOL with a message naming it.
 */
#ifndef TKO_ISA_TOOLS_H
#define TKO_ISA_TOOLS_H

#include "isa/detect.h"
#include "isa/isa.h"

/* Disassembles the binary at `path` and scans the text into `out`. */
int isa_disassemble(const char *path, const struct isa_sniff *sn,
		    const struct isa_options *opts, struct isa_file_result *out,
		    struct buf *err);

/*
 * Reads registers/stack/shared/local of the kernels in a cubin with
 * cuobjdump -res-usage into `out` (a SASS result with no instructions).
 */
int isa_res_usage(const char *cubin, const struct isa_options *opts,
		  struct isa_file_result *out, struct buf *err);

#endif
