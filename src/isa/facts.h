/*
 * facts: the findings of one scanned kernel (isa.h, struct isa_finding):
 * vector_width, narrow_lines, buffer_ops, atomics, spills, occupancy,
 * each a sentence with the numbers it came from. Facts only: their
 * severity is set by the rules (decide/isa_scope.h), not here.
 */
#ifndef TKO_ISA_FACTS_H
#define TKO_ISA_FACTS_H

#include "isa/isa.h"

/* Appends k's findings (called by isa_file_finish() once k is complete). */
void isa_facts(const struct isa_file_result *f, struct isa_kernel *k);

#endif
