/*
 * The shared tune workers (see pool.h).
 */
#include <string.h>

#include "tune/pool.h"
#include "util/jsonio.h"
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

static int hello(struct tune_pool *p, int env, const char *py, struct buf *err)
{
	json_t *req = json_pack("{s:s, s:s}", "op", "hello", "id", "hello");
	json_t *rep = NULL;
	int ret = worker_call(&p->w[env], req, TUNE_SETUP_TIMEOUT_S, &rep, err);

	json_decref(req);
	if (ret == WORKER_TIMEOUT)
		buf_addf(err, "the tune worker did not answer within %.0f s",
			 TUNE_SETUP_TIMEOUT_S);
	if (!ret && strcmp(json_str(rep, "status") ? json_str(rep, "status") : "", "ok")) {
		buf_addf(err, "the tune worker ('%s') cannot start: %s", py,
			 json_str(rep, "error") ? json_str(rep, "error") : "no reason given");
		ret = -1;
	}
	if (ret) {
		json_decref(rep);
		worker_stop(&p->w[env]);
		return -1;
	}
	if (!p->hello)
		p->hello = rep;
	else
		json_decref(rep);
	return 0;
}

int tune_pool_start(struct tune_pool *p, int env, struct buf *err)
{
	struct buf py = BUF_INIT, script = BUF_INIT;
	const char *argv[3];
	int ret = -1;

	if (worker_running(&p->w[env]))
		return 0;
	if (worker_locate(&py, &script, err) < 0)
		goto out;
	argv[0] = py.buf;
	argv[1] = script.buf;
	argv[2] = NULL;
	if (worker_start(&p->w[env], argv, env_of[env], err) < 0)
		goto out;
	ret = hello(p, env, py.buf, err);
out:
	buf_release(&py);
	buf_release(&script);
	return ret;
}

int tune_pool_call(struct tune_pool *p, int env, const json_t *req, double timeout_s,
		   json_t **rep, struct buf *err)
{
	int ret;

	*rep = NULL;
	if (tune_pool_start(p, env, err) < 0)
		return -1;
	ret = worker_call(&p->w[env], req, timeout_s, rep, err);
	if (!ret && json_is_true(json_object_get(*rep, "restart"))) {
		worker_stop(&p->w[env]);
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
		msg_warn("cannot measure the copy bandwidth%s%s", err.len ? ": " : "", err.buf);
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
		worker_stop(&p->w[i]);
	json_decref(p->hello);
	memset(p, 0, sizeof(*p));
	for (i = 0; i < TUNE_NENV; i++)
		p->w[i] = (struct worker)WORKER_INIT;
}
