/* The environment of the captured command (childenv.h). */
#include <stdlib.h>
#include <string.h>

#include "capture/childenv.h"
#include "model/manifest.h"
#include "py/pyenv.h"
#include "rundir/layout.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/opts.h"
#include "banned.h"

/* Set unless the user already set them: verbose logs that tko summarize reads. */
static const char *const default_env[][2] = {
	{ "TORCH_LOGS", "+inductor" },
	{ "TRITON_PRINT_AUTOTUNING", "1" },
	{ "TORCHINDUCTOR_BENCHMARK_KERNEL", "1" },
	{ "PYTHONUNBUFFERED", "1" },
};

/* At most 17 entries: PYTHONPATH, 16 env_put()s below. */
static void keep_entry(struct capture_env *ce, char *entry)
{
	ce->store[ce->nstore++] = entry;
	strlist_push(&ce->add, entry);
}

static void env_put(struct capture_env *ce, const char *name, const char *value)
{
	keep_entry(ce, xstrfmt("%s=%s", name, value));
	manifest_pairs_add(&ce->set, &ce->nset, name, value);
}

/* The RUN's part (rundir/layout.h) as the variable's value. */
static void env_put_path(struct capture_env *ce, const char *name, const char *run,
			 enum rd_part part)
{
	char *p = rd_path_in(run, part);

	env_put(ce, name, p);
	free(p);
}

static void profile_env(struct capture_env *ce, const char *run, const struct capture_profile *po)
{
	char *v;

	if (po->off)
		return;
	env_put_path(ce, "TKO_PROFILE_DIR", run, RD_PROFILE_DIR);
	if (po->steps > 0) {
		v = xstrfmt("%ld", po->steps);
		env_put(ce, "TKO_PROFILE_STEPS", v);
		free(v);
	}
	if (po->seconds > 0) {
		v = xstrfmt("%g", po->seconds);
		env_put(ce, "TKO_PROFILE_SECONDS", v);
		free(v);
	}
}

static int kept(const struct capture_env *ce, const char *name)
{
	size_t i;

	for (i = 0; i < ce->nkept; i++)
		if (!strcmp(ce->kept[i].key, name))
			return 1;
	return 0;
}

/*
 * The logging tko switched on itself (not what the user set) goes to the
 * log only, unless -v: TKO_LOG_ROUTE names it for python/tko/logroute.py.
 */
static void route_logs(struct capture_env *ce, const char *run)
{
	struct buf routes = BUF_INIT;

	if (!kept(ce, "TORCH_LOGS"))
		buf_adds(&routes, "torch");
	if (!kept(ce, "TRITON_PRINT_AUTOTUNING"))
		buf_addf(&routes, "%striton", routes.len ? "," : "");
	if (routes.len) {
		env_put_path(ce, "TKO_LOG_FILE", run, RD_MODEL_LOG);
		env_put(ce, "TKO_LOG_ROUTE", routes.buf);
	}
	buf_release(&routes);
}

/* tko's hook first on PYTHONPATH, then its package, then the user's PYTHONPATH. */
static void python_path(struct capture_env *ce, const char *pkg)
{
	char *hook = xstrfmt("%s/tko/_hook", pkg);
	char *path = pyenv_pythonpath_entry(hook, pkg);

	keep_entry(ce, path);
	manifest_pairs_add(&ce->set, &ce->nset, "PYTHONPATH", path + strlen("PYTHONPATH="));
	free(hook);
	env_put(ce, "TKO_PYTHONPATH", pkg);
}

void capture_env_build(struct capture_env *ce, const char *run, const char *pkg,
		       const char *regex, const struct capture_profile *po, int verbose)
{
	size_t i;

	python_path(ce, pkg);
	env_put(ce, "TKO_RUN_DIR", run);
	env_put_path(ce, "TKO_CAPTURE_DIR", run, RD_CAPTURE_DIR);
	env_put_path(ce, "TORCHINDUCTOR_CACHE_DIR", run, RD_INDUCTOR_CACHE);
	env_put_path(ce, "TRITON_CACHE_DIR", run, RD_TRITON_CACHE);
	if (regex)
		env_put(ce, "TKO_CAPTURE_KERNELS", regex);
	profile_env(ce, run, po);
	for (i = 0; i < sizeof(default_env) / sizeof(default_env[0]); i++) {
		const char *have = getenv(default_env[i][0]);

		if (have)
			manifest_pairs_add(&ce->kept, &ce->nkept, default_env[i][0], have);
		else
			env_put(ce, default_env[i][0], default_env[i][1]);
	}
	if (!verbose)
		route_logs(ce, run);
	strlist_push(&ce->add, NULL);
}

void capture_env_release(struct capture_env *ce)
{
	size_t i;

	for (i = 0; i < ce->nstore; i++)
		free(ce->store[i]);
	ce->nstore = 0;
	strlist_release(&ce->add);
	for (i = 0; i < ce->nset; i++) {
		free(ce->set[i].key);
		free(ce->set[i].value);
	}
	for (i = 0; i < ce->nkept; i++) {
		free(ce->kept[i].key);
		free(ce->kept[i].value);
	}
	free(ce->set);
	free(ce->kept);
	ce->set = ce->kept = NULL;
	ce->nset = ce->nkept = 0;
}
