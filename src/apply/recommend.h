/*
 * apply/recommend: the A/B arms the RUN's own analysis recommends
 * (docs/apply.md, "Arms that change numerics"). `tko investigate` writes
 * RUN/analysis/kernels.json; a step group on which the `fp32_matmul` rule
 * fired (src/decide/steprules.c: an fp32 GEMM group of at least 10% of
 * the GPU busy time) points at the tf32 arm, which --arms must name since
 * it changes numerics. A kernel whose decision is keep_off (rules
 * scalarised_gemm, flat_configs) points at the keep-off arm, with the
 * region it names (`where`, the first origin's FILE:LINE in FUNCTION) and,
 * when that file can be read, the --keep-off MODULE:QUALNAME of the function
 * around the line (apply/pyqual.h). No analysis, no recommendation.
 */
#ifndef TKO_APPLY_RECOMMEND_H
#define TKO_APPLY_RECOMMEND_H

#include "apply/ab.h"
#include "model/apply_doc.h"
#include "util/buf.h"

/*
 * Appends to `out` {arm, rule, op, kernel, share, in_ab} for the RUN
 * (model/apply_doc.h), the keep-off ones with {where, keep_off} too
 * (nothing without RUN/analysis/kernels.json). in_ab: the A/B ran that arm
 * (arms[0..narms), narms 0 without --ab), for keep-off with that region
 * among `keep_off` (the --keep-off list, comma-separated, or NULL). A
 * region in the script the command `cmd` runs (apply/pyqual.h py_script_in;
 * cmd NULL allowed) is named __main__:QUALNAME: that file runs as __main__. 0, or
 * -1 + err when the analysis exists but cannot be read as the analysis
 * model (model/analysis_store.h): damaged, or of another schema_version.
 */
int apply_recommend(const char *run, const enum ab_arm *arms, size_t narms, const char *keep_off,
		    const char *const *cmd, struct apply_recommended_list *out, struct buf *err);

#endif
