/*
 * Writing an isa_result for people: `tko isa`'s terminal view and its
 * --md document. One kernel is shown in full (resources, families with
 * widths, source lines, findings); several get a summary table, and in
 * full too with `details` (always in Markdown).
 */
#ifndef TKO_REPORT_ISA_TEXT_H
#define TKO_REPORT_ISA_TEXT_H

#include <stdio.h>

#include "isa/isa.h"

void isa_render_text(FILE *fp, const struct isa_result *res, int details);
void isa_render_md(FILE *fp, const struct isa_result *res);

#endif
