/*
 * apply/keepoff: the keep-off arms of the A/B (docs/apply.md, "The keep-off
 * arm"): what `tko apply --keep-off MODULE:QUALNAME` accepts, the proof that
 * the hook (python/tko/keep_off.py) put each region under
 * torch._dynamo.disable and that the run called it, and the verdict of the
 * measurement on the proposal to keep TorchInductor off.
 *
 * The proof of a run is its apply.jsonl's `keep_off` event from the main
 * process: per region a status (took_effect, never_called, not_imported,
 * not_reached, no_script, not_found, not_callable, class, bad_spec, error),
 * the calls, and a message. A region of the script itself (__main__) is
 * no_script in a process that runs none (`python -c`: Inductor's CPU ISA
 * check, a spawned worker): such a status gives way to any other process's.
 * Any status but took_effect fails the A/B at that run: a region that did
 * not take effect would make the arm the default arm under another name.
 */
#ifndef TKO_APPLY_KEEPOFF_H
#define TKO_APPLY_KEEPOFF_H

#include "model/apply_doc.h"
#include "util/buf.h"

/* "MODULE:QUALNAME", both dotted Python identifiers: 0, or -1 + err naming it. */
int keepoff_parse(const char *spec, struct buf *err);

/*
 * Appends to an empty `out` the regions of the main process's `keep_off`
 * events in `jsonl` (calls summed over processes, the first status but
 * took_effect kept, no_script only when no process said more): {region,
 * status, calls, message}; none when there is no such event. An event with
 * a field of the wrong type is skipped with a warning (model/apply_events.h).
 */
void keepoff_read(const char *jsonl, struct apply_region_proofs *out);

/*
 * 0 when every region took effect in `regions` (keepoff_read's); else -1 +
 * err naming the first region that did not, the arm and the file, or that
 * there is no region at all (no keep_off record).
 */
int keepoff_check(const struct apply_region_proofs *regions, const char *arm, const char *jsonl,
		  struct buf *err);

/*
 * The verdict of a keep-off arm from the 95% interval [lo, hi] of its step
 * time ratio to the reference arm: "faster" (hi < 1), "slower" (lo > 1),
 * or "not_faster" (the interval holds 1: within the noise).
 */
const char *keepoff_verdict(double lo, double hi);

#endif
