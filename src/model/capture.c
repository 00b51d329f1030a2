/* capture.json as a typed document (capture.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "model/capture.h"
#include "util/mem.h"
#include "banned.h"

#define T struct capture_arg
static const struct rf_field arg_fields[] = {
	RF_F(T, "name", RF_STR, name),
	RF_F(T, "kind", RF_STR, kind),
	RF_F(T, "dtype", RF_STR, dtype),
	RF_F(T, "shape", RF_JSON, shape),
	RF_F(T, "stride", RF_JSON, stride),
	RF_F(T, "storage_offset", RF_I64, storage_offset),
	RF_F(T, "element_size", RF_I64, element_size),
	RF_F(T, "storage", RF_I64, storage),
	RF_F(T, "value", RF_JSON, value),
	RF_FEND,
};
#undef T
static const struct rf_struct arg_desc = { "arg", sizeof(struct capture_arg), arg_fields };

#define T struct capture_config
static const struct rf_field config_fields[] = {
	RF_F(T, "cache_hash", RF_STR, cache_hash),
	RF_F(T, "time_ms", RF_NUM, time_ms),
	RF_FEND_OPEN(T, kept, 0),
};
#undef T
static const struct rf_struct config_desc = {
	"config", sizeof(struct capture_config), config_fields
};

#define T struct capture_versions
static const struct rf_field versions_fields[] = {
	RF_F(T, "torch", RF_STR, torch),
	RF_F(T, "triton", RF_STR, triton),
	RF_F(T, "python", RF_STR, python),
	RF_FEND,
};
#undef T
static const struct rf_struct versions_desc = {
	"versions", sizeof(struct capture_versions), versions_fields
};

#define T struct capture_doc
static const struct rf_field doc_fields[] = {
	RF_F(T, "kernel", RF_STR, kernel),
	RF_F(T, "kind", RF_STR, kind),
	RF_F(T, "source_hash", RF_STR, source_hash),
	RF_A(T, "args", args, nargs, &arg_desc),
	RF_V(T, "mutated_arg_names", mutated, nmutated),
	RF_F(T, "grid", RF_JSON, grid),
	RF_F(T, "storages", RF_JSON, storages),
	RF_A(T, "configs", configs, nconfigs, &config_desc),
	RF_F(T, "best_index", RF_I64, best_index),
	RF_F(T, "inductor_num_bytes", RF_NUM, inductor_num_bytes),
	RF_SS(T, "versions", versions, have_versions, &versions_desc, 0),
	RF_FEND,
};
#undef T
const struct rf_struct capture_doc_desc = {
	"capture.json", sizeof(struct capture_doc), doc_fields
};

void capture_init(struct capture_doc *c)
{
	rf_init(&capture_doc_desc, c);
	c->args_json = NULL;
	c->have_mutated = 0;
}

void capture_release(struct capture_doc *c)
{
	json_decref(c->args_json);
	rf_release(&capture_doc_desc, c);
	capture_init(c);
}

static int is_dims(const json_t *v)
{
	const json_t *e;
	size_t i;

	if (!v || json_is_null(v))
		return 1;
	if (!json_is_array(v))
		return 0;
	json_array_foreach(v, i, e)
		if (!json_is_integer(e))
			return 0;
	return 1;
}

/* shape and stride: reflect passes any value through, the traffic count needs integers. */
static int check_dims(const struct capture_doc *c, const char *what, struct buf *err)
{
	size_t i;

	for (i = 0; i < c->nargs; i++) {
		const char *bad = !is_dims(c->args[i].shape) ? "shape" :
				  !is_dims(c->args[i].stride) ? "stride" : NULL;

		if (bad) {
			buf_addf(err, "'%s': args[%zu].%s: not a list of integers", what, i, bad);
			return -1;
		}
	}
	return 0;
}

/* A null an argument's pass-through member is written with stays JSON null, not unknown. */
static void keep_null(json_t **m, const json_t *arg, const char *key)
{
	if (!*m && json_is_null(json_object_get(arg, key)))
		*m = json_null();
}

int capture_read(struct capture_doc *c, const json_t *j, const char *what, struct buf *err)
{
	const json_t *args;
	size_t i;

	if (rf_read(&capture_doc_desc, c, j, what, err) < 0 || check_dims(c, what, err) < 0)
		return -1;
	c->have_mutated = json_object_get(j, "mutated_arg_names") != NULL;
	args = json_object_get(j, "args");
	for (i = 0; i < c->nargs; i++) {
		keep_null(&c->args[i].shape, json_array_get(args, i), "shape");
		keep_null(&c->args[i].stride, json_array_get(args, i), "stride");
		keep_null(&c->args[i].value, json_array_get(args, i), "value");
	}
	c->args_json = json_is_array(args) ? json_incref((json_t *)args) : NULL;
	return 0;
}

int capture_load(struct capture_doc *c, const char *path, struct buf *err)
{
	json_t *j = json_load_path(path, err);
	int ret;

	if (!j)
		return -1;
	ret = capture_read(c, j, path, err);
	json_decref(j);
	return ret;
}

int capture_arg_is_tensor(const struct capture_arg *a)
{
	return a->kind && !strcmp(a->kind, "tensor");
}

int capture_mutates(const struct capture_doc *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nmutated; i++)
		if (!strcmp(c->mutated[i], name))
			return 1;
	return 0;
}

const struct capture_config *capture_best(const struct capture_doc *c)
{
	if (c->best_index < 0 || (unsigned long long)c->best_index >= c->nconfigs)
		return NULL;
	return &c->configs[c->best_index];
}

const json_t *capture_args_json(const struct capture_doc *c)
{
	return c->args_json;
}
