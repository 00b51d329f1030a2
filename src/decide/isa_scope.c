/* The ISA-scoped rules on a scan (isa_scope.h). */
#include <stdlib.h>
#include <string.h>

#include "analyse/isa_view.h"
#include "decide/isa_scope.h"
#include "util/mem.h"
#include "banned.h"

/* Whether a fired rule judges the finding `id`. */
static int judged(const struct an_kernel *k, const char *id)
{
	size_t i;

	for (i = 0; i < k->nfired; i++) {
		const struct rule *r = rule_find(k->fired[i].rule);

		if (r && r->findings && name_index(r->findings, id) >= 0)
			return 1;
	}
	return 0;
}

static void copy_rule(struct isa_rule *to, const struct an_fired *f)
{
	size_t i;

	to->rule = xstrdup(f->rule);
	to->decision = decision_name(f->decision);
	to->why = xstrdup(f->why ? f->why : "");
	to->knobs = f->knobs ? xstrdup(f->knobs) : NULL;
	to->ev = f->nev ? xcalloc(f->nev, sizeof(*to->ev)) : NULL;
	to->ev_nr = f->nev;
	for (i = 0; i < f->nev; i++) {
		to->ev[i].key = xstrdup(f->ev[i].key);
		to->ev[i].value = f->ev[i].value;
	}
}

static void decide_kernel(const struct isa_file_result *f, struct isa_kernel *ik,
			  const struct rule_limits *lim)
{
	struct an_run r;
	struct rule_ctx c = { &r, lim, NULL, 0 };
	struct an_kernel *k;
	size_t i;

	an_run_init(&r);
	k = an_run_add_kernel(&r);
	an_kernel_from_isa(k, f, ik, f->path);
	rules_fire(&c, k, RULE_ISA);
	for (i = 0; i < ik->findings_nr; i++)
		ik->findings[i].severity = judged(k, ik->findings[i].id) ? "warning" : "info";
	isa_kernel_rules_release(ik);
	ik->rules = k->nfired ? xcalloc(k->nfired, sizeof(*ik->rules)) : NULL;
	ik->rules_nr = k->nfired;
	for (i = 0; i < k->nfired; i++)
		copy_rule(&ik->rules[i], &k->fired[i]);
	an_run_release(&r);
}

void decide_isa_result(struct isa_result *res, const struct rule_limits *lim)
{
	size_t i, j;

	for (i = 0; i < res->files_nr; i++)
		for (j = 0; j < res->files[i]->kernels_nr; j++)
			decide_kernel(res->files[i], res->files[i]->kernels[j], lim);
}
