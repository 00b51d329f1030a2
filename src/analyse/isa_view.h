/*
 * isa_view: one scanned kernel (isa.h) as the analysis model's struct
 * an_isa: families with widths, the memory summary (global/buffer/flat
 * accesses, 128-bit share, atomics, LDS, matrix), resources, source lines
 * with their code, findings. Used for the kernels of a RUN (evidence.h),
 * for the loose ISA files `tko diff` compares and for the kernels `tko
 * isa` decides alone (decide/isa_scope.h).
 */
#ifndef TKO_ANALYSE_ISA_VIEW_H
#define TKO_ANALYSE_ISA_VIEW_H

#include "isa/isa.h"
#include "model/analysis.h"

/*
 * Fills an initialised a from kernel k of file f. `shown_path` is what
 * a->file says; `module_path` is the kernel's Python file on this machine
 * (its lines are quoted; may be NULL), `module_shown` how line entries
 * without a file name it.
 */
void an_isa_fill(struct an_isa *a, const struct isa_file_result *f, const struct isa_kernel *k,
		 const char *shown_path, const char *module_path, const char *module_shown);

/*
 * Fills an initialised kernel from scanned kernel ik of file f alone:
 * its name, arch and ISA (a->file = `shown_path`), nothing else known.
 */
void an_kernel_from_isa(struct an_kernel *k, const struct isa_file_result *f,
			const struct isa_kernel *ik, const char *shown_path);

#endif
