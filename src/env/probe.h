/*
 * What machine a run happens on: the document of `tko env` (docs/json.md,
 * "tko env"), also written as RUN/env.json by `tko capture`.
 *
 * It gathers python/torch/triton versions and the GPUs torch sees (through
 * `python -m tko.probe`), GPUs and drivers from rocminfo, hy-smi and
 * nvidia-smi, DTK/ROCm/CUDA installs, the versions of the GPU tools on
 * PATH, the environment flags that change code generation, and optionally
 * the measured device copy bandwidth. Nothing here fails: what is missing
 * is null in the document and explained in its "notes".
 */
#ifndef TKO_ENV_PROBE_H
#define TKO_ENV_PROBE_H

#include "model/env.h"

struct env_opts {
	int measure;		/* measure device copy bandwidth */
	double tool_timeout_s;	/* per tool run (--version, rocminfo ...) */
	double probe_timeout_s;	/* for the Python probe (importing torch, measuring) */
};
#define ENV_OPTS_INIT { 0, 10.0, 300.0 }

/* Fills doc (env_doc_init is done here): the "tko env" document. */
void env_probe_doc(const struct env_opts *o, struct env_doc *doc);

#endif
