/*
 * The per-kernel evidence fillers shared by evidence.c, measured.c and
 * isa_view.c (internal to src/analyse/).
 */
#ifndef TKO_ANALYSE_EVIDENCE_H
#define TKO_ANALYSE_EVIDENCE_H

#include "analyse/inputs.h"
#include "model/analysis_desc.h"

/* What evidence.c learnt that later fillers need. */
struct ev_kernel {
	char *cache_hash;	/* the capture's chosen config's Triton cache entry, or NULL */
	int captured;		/* a capture.json was read */
};

/* "XBLOCK=1024 num_warps=4 num_stages=1" (newly allocated). */
char *ev_config_text(const struct at_config *c);

/*
 * Adds c to k->configs (once per text and method), timed as c says;
 * returns the kernel's config.
 */
struct an_config *ev_add_config(struct an_kernel *k, const struct at_config *c,
				enum at_method method, int chosen);

/* Replay and tune results, and a template's max-autotune time (measured.c). */
void measured_fill(struct an_inputs *in, struct an_kernel *k, const struct join_ref *ref,
		   const struct an_run *run);

/* The compiled binary's ISA (isa_view.c); cache_hash from the capture, or NULL. */
void isa_view_fill(struct an_inputs *in, struct an_kernel *k, const struct join_ref *ref,
		   const char *cache_hash);

#endif
