/*
 * The shared tune workers (see pool.h).
 */
#include <string.h>

#include "json/jsonio.h"
#include "py/pyenv.h"
#include "target/target.h"
#include "tune/pool.h"
#include "util/msg.h"
#include "banned.h"

static const char *const env_of[TUNE_NENV][2] = {
	{ NULL, NULL },
	{ "AMDGCN_USE_BUFFER_OPS=1", NULL },
	{ "AMDGCN_USE_BUFFER_OPS=0", NULL },
};

const char *const *tune_pool_env(int env)
{
	return env_of[env];
}

/* Copies gpu[key] into d when gpu has it. */
static void copy_key(json_t *d, const json_t *gpu, const char *key)
{
	json_t *v = json_object_get(gpu, key);

	if (v)
		json_object_set(d, key, v);
}

/*
 * The hello's GPU facts (python/tko/gpu.py) as tune.json's "device":
 * name, backend, the arch decided here, cc, arch_name (the gcnArchName
 * on HIP; on CUDA torch puts the marketing name there: null), warp_size,
 * multiprocessor_count; each only when the worker reported it. NULL
 * without a GPU.
 */
static json_t *device_of(const json_t *gpu)
{
	struct target_gpu_facts f;
	struct buf arch = BUF_INIT;
	json_t *d, *v;
	const char *key;

	if (!json_is_object(gpu))
		return NULL;
	target_gpu_facts_read(gpu, &f);
	d = json_object();
	copy_key(d, gpu, "name");
	copy_key(d, gpu, "backend");
	json_set_new(d, "arch", target_gpu_arch(&f, &arch) ? NULL : json_string(arch.buf));
	if (f.cc_major >= 0)
		json_set_new(d, "cc", json_pack("[i, i]", f.cc_major, f.cc_minor));
	if (json_object_get(gpu, "gcn_arch_name") || json_object_get(gpu, "arch_name"))
		json_set_str(d, "arch_name", f.backend && !strcmp(f.backend, "hip") ?
			     f.gcn_arch_name : NULL);
	copy_key(d, gpu, "warp_size");
	copy_key(d, gpu, "multiprocessor_count");
	json_object_foreach((json_t *)gpu, key, v)
		if (!json_object_get(d, key) && strcmp(key, "gcn_arch_name") && strcmp(key, "capability"))
			json_object_set(d, key, v);
	buf_release(&arch);
	return d;
}

static int hello(struct tune_pool *p, int env, const char *py, struct buf *err)
{
	json_t *req = json_pack("{s:s, s:s}", "op", "hello", "id", "hello");
	json_t *rep = NULL;
	int ret = py_worker_call(&p->w[env], req, TUNE_SETUP_TIMEOUT_S, &rep, err);

	json_decref(req);
	if (ret == PY_WORKER_TIMEOUT)
		buf_addf(err, "the tune worker did not answer within %.0f s",
			 TUNE_SETUP_TIMEOUT_S);
	if (!ret && strcmp(json_str(rep, "status") ? json_str(rep, "status") : "", "ok")) {
		buf_addf(err, "the tune worker ('%s') cannot start: %s", py,
			 json_str(rep, "error") ? json_str(rep, "error") : "no reason given");
		ret = -1;
	}
	if (ret) {
		json_decref(rep);
		py_worker_stop(&p->w[env]);
		return -1;
	}
	if (!p->hello) {
		p->hello = rep;
		p->device = device_of(json_object_get(rep, "gpu"));
	} else {
		json_decref(rep);
	}
	return 0;
}

int tune_pool_start(struct tune_pool *p, int env, struct buf *err)
{
	if (py_worker_running(&p->w[env]))
		return 0;
	if (py_worker_start(&p->w[env], "tune_worker.py", env_of[env], err) < 0)
		return -1;
	return hello(p, env, pyenv_python(), err);
}

int tune_pool_call(struct tune_pool *p, int env, const json_t *req, double timeout_s,
		   json_t **rep, struct buf *err)
{
	int ret;

	*rep = NULL;
	if (tune_pool_start(p, env, err) < 0)
		return -1;
	ret = py_worker_call(&p->w[env], req, timeout_s, rep, err);
	if (!ret && json_is_true(json_object_get(*rep, "restart"))) {
		py_worker_stop(&p->w[env]);
		p->restarts++;
	}
	return ret;
}

double tune_pool_peak(struct tune_pool *p)
{
	json_t *req, *rep = NULL;
	struct buf err = BUF_INIT;

	if (p->peak_gbps)
		return p->peak_gbps;
	req = json_pack("{s:s, s:s}", "op", "copy_bandwidth", "id", "copy");
	if (tune_pool_call(p, TUNE_ENV_INHERIT, req, TUNE_SETUP_TIMEOUT_S, &rep, &err) == 0 &&
	    json_num(rep, "gbps", -1) > 0) {
		p->peak_gbps = json_num(rep, "gbps", -1);
	} else {
		p->peak_gbps = -1;
		msg_warn_as("tune", "cannot measure the copy bandwidth%s%s", err.len ? ": " : "", err.buf);
	}
	json_decref(req);
	json_decref(rep);
	buf_release(&err);
	return p->peak_gbps;
}

void tune_pool_release(struct tune_pool *p)
{
	int i;

	for (i = 0; i < TUNE_NENV; i++)
		py_worker_stop(&p->w[i]);
	json_decref(p->hello);
	json_decref(p->device);
	memset(p, 0, sizeof(*p));
	for (i = 0; i < TUNE_NENV; i++)
		p->w[i] = (struct py_worker)TUNE_WORKER_INIT;
}
