/*
 * The tune workers of one tko tune run, shared by all its sweeps: one
 * worker per environment (AMDGCN_USE_BUFFER_OPS inherited, forced on,
 * forced off: Triton reads it at import), each started on first use and
 * kept from one kernel to the next, because importing torch and Triton
 * and setting up the GPU costs seconds; the first worker's hello reply
 * (versions, the GPU's facts, from which target/target.c decides its
 * arch); and the device's copy bandwidth, measured once.
 *
 *	struct tune_pool pool = TUNE_POOL_INIT;
 *	if (tune_pool_call(&pool, TUNE_ENV_INHERIT, req, 60, &rep, &err) ...
 *	tune_pool_release(&pool);
 *
 * A reply carrying "restart": true (the worker's GPU context is broken,
 * e.g. after an illegal memory access) stops that worker; the next call
 * starts a fresh one.
 */
#ifndef TKO_TUNE_POOL_H
#define TKO_TUNE_POOL_H

#include <jansson.h>

#include "py/worker.h"
#include "util/buf.h"

enum { TUNE_ENV_INHERIT, TUNE_ENV_BUF_ON, TUNE_ENV_BUF_OFF, TUNE_NENV };

/* A hello needs only the imports; a copy-bandwidth measurement a second. */
#define TUNE_SETUP_TIMEOUT_S 120.0

struct tune_pool {
	struct py_worker w[TUNE_NENV];	/* one per environment */
	json_t *hello;			/* the first hello reply (owned), or NULL */
	json_t *device;			/* its GPU as tune.json's "device" (owned), or NULL */
	double peak_gbps;		/* measured copy rate; 0 not yet, -1 failed */
	int restarts;			/* workers stopped because they asked to be */
};
#define TUNE_WORKER_INIT PY_WORKER_INIT("tune worker")
#define TUNE_POOL_INIT { { TUNE_WORKER_INIT, TUNE_WORKER_INIT, TUNE_WORKER_INIT }, NULL, NULL, 0, 0 }

/* Starts the worker of `env` unless it runs. 0, or -1 with a line in err. */
int tune_pool_start(struct tune_pool *p, int env, struct buf *err);

/*
 * Sends req to the worker of `env` (started if needed) and waits up to
 * timeout_s. Returns what py_worker_call returns; *rep is set on 0.
 */
int tune_pool_call(struct tune_pool *p, int env, const json_t *req, double timeout_s,
		   json_t **rep, struct buf *err);

/* The device's copy rate in GB/s, measured on the first call; <= 0 when unknown. */
double tune_pool_peak(struct tune_pool *p);

/* The environment entries ("NAME=value", NULL-terminated) of `env`. */
const char *const *tune_pool_env(int env);

void tune_pool_release(struct tune_pool *p);

#endif
