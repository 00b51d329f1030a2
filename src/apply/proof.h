/*
 * apply/proof: what apply.jsonl (docs/apply.md, "apply.jsonl") says about
 * each planned kernel: its outcome in the main process (session_end's
 * outcomes: status ran_winner / ran_mixed / ran_other / not_launched and
 * the reason), merged with how every process, compile workers included,
 * constructed it (`construct` events), and the hook's own errors.
 *
 * A planned kernel that no process reported on gets status "no_record",
 * reason "no_session_end" when the main process started (its
 * session_start) and died before its session_end, else "hook_not_loaded":
 * the session_start of another role (a compile worker, torchrun's
 * launcher, a rank, a child) says nothing about the command's process. The events are read through
 * model/apply_events.h: one with a field of the wrong type is skipped with
 * a warning.
 */
#ifndef TKO_APPLY_PROOF_H
#define TKO_APPLY_PROOF_H

#include <stddef.h>

#include <jansson.h>

#include "util/buf.h"

struct apply_proof {
	json_t *outcomes;	/* id -> the main process's outcome object */
	json_t *constructed;	/* id -> ["lookup_hit", ...] from every process */
	long errors;		/* `error` events */
	long sessions;		/* session_start events of the main process (role "main") */
	long bad_lines;		/* lines that are no event (a process killed mid-line) */
	long skipped;		/* events skipped for a field of the wrong type (warned) */
};
#define APPLY_PROOF_INIT { NULL, NULL, 0, 0, 0, 0 }

/* Reads `path`. 0, or -1 + err when it cannot be read at all. */
int apply_proof_read(struct apply_proof *pr, const char *path, struct buf *err);

/*
 * The status and reason of plan id `id`: "ran_winner" (reason NULL), the
 * outcome's, or "no_record".
 */
const char *apply_proof_status(const struct apply_proof *pr, const char *id, const char **reason);

/*
 * The kernel names whose outcome is ran_winner, sorted: in a run that
 * observes (the default arm), those for which Inductor launched the
 * plan's config and nothing else. A new reference.
 */
json_t *apply_proof_ran_planned(const struct apply_proof *pr);

void apply_proof_release(struct apply_proof *pr);

#endif
