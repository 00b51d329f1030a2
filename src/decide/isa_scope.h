/*
 * isa_scope: `tko isa` shows the rules of tko's table that read one
 * scanned kernel alone (scope RULE_ISA in decide/rules.h: narrow_access,
 * spills, low_occupancy), with the same limits `tko investigate` uses.
 * For each kernel of a scan it builds the model's view of it
 * (an_kernel_from_isa), runs those rules, lists the ones that fire in
 * the kernel's `rules` and sets each finding's severity: "warning" when
 * a rule that judges it fired (struct rule's `findings`), else "info".
 * The buffer_ops and atomics findings stay "info": their rules need the
 * kernel's source, share or peak.
 *
 *	isa_scan_path(path, &opts, &res, &err);
 *	decide_isa_result(&res, &rule_limits_default);
 *	... res.files[i]->kernels[j]->findings[k].severity, ->rules
 */
#ifndef TKO_DECIDE_ISA_SCOPE_H
#define TKO_DECIDE_ISA_SCOPE_H

#include "decide/rules.h"
#include "isa/isa.h"

/* Decides every kernel of res (replacing rules and severities decided before). */
void decide_isa_result(struct isa_result *res, const struct rule_limits *lim);

#endif
