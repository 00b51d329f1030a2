/*
 * GPU discovery for `tko env` (internal to src/live/env*.c): the GPUs torch
 * sees (from the probe), else those rocminfo (AMD, Hygon DCU) or
 * nvidia-smi list, annotated with rocminfo's device type (HCU on DCU) and
 * hy-smi's per-card state; plus the CUDA and HIP versions.
 */
#ifndef TKO_LIVE_ENVGPU_H
#define TKO_LIVE_ENVGPU_H

#include <jansson.h>

#include "util/buf.h"

/* Adds "gpus", "gpu_tools", "dcu", "cuda" and "hip" to doc. */
void env_gpus(json_t *doc, const json_t *probe, const json_t *tools, double timeout_s);

/* A GPU tool's path: PATH, then the usual install folders; newly allocated or NULL. */
char *env_find_tool(const char *name);
/* Runs a tool; appends its stdout (its stderr when stdout is empty). 0 when it exited 0. */
int env_run_tool(const char *const *argv, double timeout_s, struct buf *out);
/* The codegen-relevant environment variables, sorted, as an object. */
json_t *env_flags(void);

#endif
