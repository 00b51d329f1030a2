/* env.json as a typed document (env.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/env.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

#define T struct env_tool
static const struct rf_field tool_fields[] = {
	RF_F(T, "name", RF_STR, name),
	RF_F(T, "path", RF_STR, path),
	RF_F(T, "version", RF_STR, version),
	RF_FX(T, "version_line", RF_JSON, version_line, RF_OMIT_NULL),
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
static const struct rf_struct tool_desc = { "tool", sizeof(struct env_tool), tool_fields };

#define T struct env_hcu_target
static const struct rf_field hcu_fields[] = {
	RF_F(T, "arch", RF_STR, arch),
	RF_F(T, "name", RF_STR, name),
	RF_F(T, "triton_das", RF_BOOL, triton_das),
	RF_F(T, "das_vgprs", RF_I64, das_vgprs),
	RF_F(T, "verified", RF_STR, verified),
	RF_F(T, "not_verified", RF_STR, not_verified),
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
static const struct rf_struct hcu_desc = { "hcu_target", sizeof(struct env_hcu_target), hcu_fields };

#define T struct env_bandwidth
static const struct rf_field bw_fields[] = {
	RF_FX(T, "copy_gbps", RF_NUM, copy_gbps, RF_OMIT_NULL | RF_RATE),
	RF_FX(T, "buffer_bytes", RF_I64, buffer_bytes, RF_OMIT_NULL),
	RF_FX(T, "repeats", RF_I64, repeats, RF_OMIT_NULL),
	RF_FX(T, "median_ms", RF_NUM, median_ms, RF_OMIT_NULL),
	RF_FX(T, "device_index", RF_I64, device_index, RF_OMIT_NULL),
	RF_FX(T, "method", RF_STR, method, RF_OMIT_NULL),
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
static const struct rf_struct bw_desc = { "bandwidth", sizeof(struct env_bandwidth), bw_fields };

/*
 * A "gpus" entry keeps its source's keys in their order, so the document
 * passes it through; the keys tko reads of it (struct env_gpu) are
 * checked against this table when the document is read.
 */
#define T struct env_gpu
static const struct rf_field gpu_fields[] = {
	RF_F(T, "name", RF_STR, name),
	RF_F(T, "arch", RF_STR, arch),
	RF_F(T, "backend", RF_STR, backend),
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
static const struct rf_struct gpu_desc = { "gpu", sizeof(struct env_gpu), gpu_fields };

#define T struct env_doc
static const struct rf_field doc_fields[] = {
	RF_F(T, "tko_version", RF_STR, tko_version),
	RF_V(T, "notes", notes, nnotes),
	RF_F(T, "host", RF_JSON, host),
	RF_F(T, "python", RF_JSON, python),
	RF_F(T, "torch", RF_JSON, torch),
	RF_F(T, "triton", RF_JSON, triton),
	RF_JX(T, "gpus", gpus, &gpu_desc, RF_OBJECTS),
	RF_F(T, "gpu_tools", RF_JSON, gpu_tools),
	RF_F(T, "dcu", RF_BOOL, dcu),
	RF_F(T, "cuda", RF_JSON, cuda),
	RF_F(T, "hip", RF_JSON, hip),
	RF_F(T, "dtk", RF_JSON, dtk),
	RF_F(T, "rocm", RF_JSON, rocm),
	RF_A(T, "tools", tools, ntools, &tool_desc),
	RF_P(T, "env", env, nenv, 0),
	RF_V(T, "warnings", warnings, nwarnings),
	RF_A(T, "hcu_targets", hcu_targets, nhcu_targets, &hcu_desc),
	RF_S(T, "bandwidth", bandwidth, &bw_desc, RF_ALL_UNKNOWN),
	RF_FX(T, "bandwidth_error", RF_STR, bandwidth_error, RF_OMIT_NULL),
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
const struct rf_struct env_doc_desc = { "env", sizeof(struct env_doc), doc_fields };

void env_doc_init(struct env_doc *d)
{
	rf_init(&env_doc_desc, d);
}

void env_doc_release(struct env_doc *d)
{
	rf_release(&env_doc_desc, d);
}

char *env_utf8_dup(const char *s)
{
	size_t off;

	return s && !utf8_check(s, strlen(s), &off) ? xstrdup(s) : NULL;
}

static void strv_push(char ***v, size_t *nr, const char *s)
{
	char *copy = env_utf8_dup(s);

	if (!copy)
		return;
	*v = rf_grow(*v, *nr, sizeof(**v));
	(*v)[(*nr)++] = copy;
}

void env_doc_note(struct env_doc *d, const char *s)
{
	strv_push(&d->notes, &d->nnotes, s);
}

void env_doc_warn(struct env_doc *d, const char *s)
{
	strv_push(&d->warnings, &d->nwarnings, s);
}

struct env_tool *env_doc_add_tool(struct env_doc *d)
{
	struct env_tool *t;

	d->tools = rf_grow(d->tools, d->ntools, sizeof(*d->tools));
	t = &d->tools[d->ntools++];
	memset(t, 0, sizeof(*t));
	return t;
}

const struct env_tool *env_doc_tool(const struct env_doc *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->ntools; i++)
		if (d->tools[i].name && !strcmp(d->tools[i].name, name))
			return &d->tools[i];
	return NULL;
}

const char *env_doc_flag(const struct env_doc *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->nenv; i++)
		if (!strcmp(d->env[i].key, name))
			return d->env[i].value;
	return NULL;
}

double env_doc_copy_gbps(const struct env_doc *d)
{
	double v = d->bandwidth.copy_gbps;

	return isfinite(v) && v > 0 ? v : 0;
}

int env_doc_has_bandwidth(const struct env_doc *d)
{
	const struct env_bandwidth *b = &d->bandwidth;

	return isfinite(b->copy_gbps) || b->buffer_bytes != RF_I64_NONE || b->repeats != RF_I64_NONE ||
	       isfinite(b->median_ms) || b->device_index != RF_I64_NONE || b->method;
}

int env_bandwidth_read(struct env_bandwidth *b, const json_t *j, const char *what, struct buf *err)
{
	return rf_read(&bw_desc, b, j, what, err);
}

void env_bandwidth_clear(struct env_bandwidth *b)
{
	rf_release(&bw_desc, b);
}

void env_doc_gpu(const struct env_doc *d, size_t i, struct env_gpu *g)
{
	const json_t *entry = d ? json_array_get(d->gpus, i) : NULL;
	struct buf ignored = BUF_INIT;

	rf_init(&gpu_desc, g);
	if (json_is_object(entry))
		rf_read(&gpu_desc, g, entry, "gpus", &ignored);
	buf_release(&ignored);
}

void env_gpu_release(struct env_gpu *g)
{
	rf_release(&gpu_desc, g);
}

void env_doc_read_bandwidth(struct env_doc *d, const json_t *j)
{
	const json_t *bw = json_object_get(j, "bandwidth");
	struct buf ignored = BUF_INIT;

	if (json_is_object(bw))
		env_bandwidth_read(&d->bandwidth, bw, "env.json", &ignored);
	buf_release(&ignored);
}

int env_doc_write(FILE *fp, const struct env_doc *d)
{
	return rf_write_doc(fp, &env_doc_desc, d, ENV_SCHEMA_VERSION, "tko env");
}

int env_doc_save(const struct env_doc *d, const char *path, struct buf *err)
{
	return rf_save_doc(path, &env_doc_desc, d, ENV_SCHEMA_VERSION, "tko env", err);
}

json_t *env_doc_to_json(const struct env_doc *d)
{
	json_t *body = rf_to_json(&env_doc_desc, d), *doc = json_object();

	json_object_set_new(doc, "schema_version", json_integer(ENV_SCHEMA_VERSION));
	json_object_set_new(doc, "tool", json_string("tko env"));
	json_object_update(doc, body);
	json_decref(body);
	return doc;
}

int env_doc_read(struct env_doc *d, const json_t *j, const char *what, struct buf *err)
{
	return rf_read(&env_doc_desc, d, j, what, err);
}
