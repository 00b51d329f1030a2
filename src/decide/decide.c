/* A RUN's analysis, decided (decide.h). */
#include "decide/decide.h"
#include "decide/gaps.h"
#include "decide/isa_scope.h"
#include "decide/rules.h"
#include "banned.h"

/* The Triton cache's kernels judged by the ISA-scoped rules, as `tko isa` shows them. */
static void judge_isa(struct isa_result *res)
{
	decide_isa_result(res, &rule_limits_default);
}

int decide_run(const char *run_dir, const struct an_opts *o, struct an_run *out,
	       struct buf *err)
{
	struct an_opts oo = *o;
	struct an_facts f;
	struct gaps_facts gf;

	oo.judge_isa = judge_isa;
	o = &oo;
	if (analysis_build(run_dir, o, out, &f, err) < 0) {
		an_facts_release(&f);
		return -1;
	}
	if (o->progress)
		o->progress(o->progress_data, "applying the rules");
	rules_apply(out);
	gf.have_log = f.have_log;
	gf.have_triton_cache = f.have_triton_cache;
	gf.have_replay = f.have_replay;
	gf.have_disassembler = f.have_disassembler;
	gf.capture = &f.capture;
	gf.bandwidth_error = f.bandwidth_error;
	gaps_compute(out, &gf);
	an_facts_release(&f);
	return 0;
}
