/*
 * GPU discovery for `tko env` (internal to src/env/): the GPUs torch
 * sees (from the probe), else those rocminfo (AMD, Hygon DCU) or
 * nvidia-smi list, annotated with rocminfo's device type (HCU on DCU) and
 * hy-smi's per-card state; plus the CUDA and HIP versions.
 */
#ifndef TKO_ENV_GPU_H
#define TKO_ENV_GPU_H

#include <jansson.h>

#include "model/env.h"
#include "util/buf.h"

/*
 * Sets doc's gpus, gpu_tools, dcu, cuda and hip, from the probe's devices
 * and the GPU tools of doc's tools list (so it runs after that is set).
 */
void env_gpus(struct env_doc *doc, const json_t *probe, double timeout_s);

/* A GPU tool's path: PATH, then the usual install folders; newly allocated or NULL. */
char *env_find_tool(const char *name);
/* Runs a tool; appends its stdout (its stderr when stdout is empty). 0 when it exited 0. */
int env_run_tool(const char *const *argv, double timeout_s, struct buf *out);
/* The codegen-relevant environment variables, sorted by name, into doc's env. */
void env_flags(struct env_doc *doc);

#endif
