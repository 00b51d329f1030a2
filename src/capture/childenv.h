/*
 * capture/childenv: the environment `tko capture` gives the user's
 * command. tko's Python hook first on PYTHONPATH (python/tko/_hook's
 * sitecustomize), TorchInductor's and Triton's caches and the hook's
 * output pointed into the RUN, the profiled window's settings, and the
 * verbose logging tko summarize reads (TORCH_LOGS=+inductor, ...) unless
 * the user set those variables already. Without -v, the logging tko
 * switched on itself goes to log/model.log only (TKO_LOG_ROUTE, read by
 * python/tko/logroute.py).
 *
 *	struct capture_env ce = CAPTURE_ENV_INIT;
 *	capture_env_build(&ce, run, pkg, regex, &profile, msg_settings.verbose);
 *	c.env_add = ce.add.v;		(util/spawn.h)
 *	... ce.set, ce.kept go to tko-run.json's env_set, env_kept
 *	capture_env_release(&ce);
 */
#ifndef TKO_CAPTURE_CHILDENV_H
#define TKO_CAPTURE_CHILDENV_H

#include <stddef.h>

#include "json/reflect.h"
#include "util/opts.h"

/* The profiled window's settings (python/tko/profiling.py); 0: its default. */
struct capture_profile {
	int off;		/* --no-profile */
	long steps;		/* --profile-steps */
	double seconds;		/* --profile-seconds */
};

struct capture_env {
	struct strlist add;	/* "NAME=value" entries for the child, NULL-terminated */
	struct rf_pair *set;	/* what tko set, in that order */
	size_t nset;
	struct rf_pair *kept;	/* the user's own values tko left alone */
	size_t nkept;
	char *store[24];	/* the strings behind `add` */
	size_t nstore;
};
#define CAPTURE_ENV_INIT { STRLIST_INIT, NULL, 0, NULL, 0, { NULL }, 0 }

/*
 * Fills `ce` for a capture into the RUN `run` (a real path) with tko's
 * Python package at `pkg`; `regex` (or NULL) limits the kernels whose
 * inputs the hook saves; `verbose` leaves tko's logging on the terminal.
 */
void capture_env_build(struct capture_env *ce, const char *run, const char *pkg,
		       const char *regex, const struct capture_profile *po, int verbose);
void capture_env_release(struct capture_env *ce);

#endif
