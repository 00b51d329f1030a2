/*
 * Reading `rocminfo` output: the HSA agents (CPUs and GPUs) with their name
 * (gfx936, gfx942 ... for GPUs), marketing name, device type (GPU on AMD,
 * HCU on Hygon DCU, CPU), compute units and wavefront size.
 *
 * Input: the tool's text. Each agent starts at an "Agent N" line; its
 * fields are "Key:   value" lines. Only the first occurrence of a key in an
 * agent counts: nested sections repeat keys ("ISA Info: ... Name:
 * amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-") that are not the agent's.
 */
#ifndef TKO_ENV_ROCMINFO_H
#define TKO_ENV_ROCMINFO_H

#include <stddef.h>

#include "util/buf.h"

struct rocm_agent {
	char *name;		/* "gfx936", "Hygon C86 Processor" */
	char *marketing_name;	/* "BW", "AMD Instinct MI300X VF", or NULL */
	char *device_type;	/* "GPU", "HCU", "CPU", or NULL */
	long compute_units;	/* "Compute Unit:", or -1 */
	long wavefront_size;	/* "Wavefront Size:", or -1 */
};

struct rocminfo {
	struct rocm_agent *agents;
	size_t nr, alloc;
};
#define ROCMINFO_INIT { NULL, 0, 0 }

/*
 * Parses rocminfo text. Returns 0 (agents may be empty for unrelated
 * text), or -1 with a line in err when the text holds no "Agent" at all.
 */
int rocminfo_parse(const char *p, size_t n, struct rocminfo *ri, struct buf *err);
void rocminfo_release(struct rocminfo *ri);

/* 1 when the agent is an accelerator (device type GPU or HCU). */
int rocm_agent_is_gpu(const struct rocm_agent *a);

#endif
