/* tko-run.json as a typed document (manifest.h). */
#include <stdlib.h>
#include <string.h>

#include "model/manifest.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

#define T struct manifest_capture
static const struct rf_field capture_fields[] = {
	RF_FX(T, "events", RF_I64, events, RF_COUNT),
	RF_FX(T, "errors", RF_I64, errors, RF_COUNT),
	RF_FX(T, "kernel_dirs", RF_I64, kernel_dirs, RF_COUNT),
	RF_FX(T, "unreadable_lines", RF_I64, unreadable_lines, RF_COUNT),
	RF_C(T, "by_type", by_type, nby_type, 0),
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
static const struct rf_struct capture_desc = {
	"capture", sizeof(struct manifest_capture), capture_fields
};

#define T struct manifest_versions
static const struct rf_field versions_fields[] = {
	RF_F(T, "python", RF_STR, python),
	RF_F(T, "torch", RF_STR, torch),
	RF_F(T, "triton", RF_STR, triton),
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
static const struct rf_struct versions_desc = {
	"versions", sizeof(struct manifest_versions), versions_fields
};

#define T struct run_manifest
static const struct rf_field manifest_fields[] = {
	RF_F(T, "tko_version", RF_STR, tko_version),
	RF_V(T, "argv", argv, nargv),
	RF_F(T, "cwd", RF_STR, cwd),
	RF_F(T, "run_dir", RF_STR, run_dir),
	RF_F(T, "start_time", RF_STR, start_time),
	RF_F(T, "start_unix", RF_NUM, start_unix),
	RF_F(T, "end_time", RF_STR, end_time),
	RF_F(T, "end_unix", RF_NUM, end_unix),
	RF_FX(T, "duration_s", RF_NUM, duration_s, RF_TIME),
	RF_F(T, "exit_status", RF_I64, exit_status),
	RF_F(T, "signal", RF_I64, signal),
	RF_F(T, "command_found", RF_BOOL, command_found),
	RF_F(T, "kernels_regex", RF_STR, kernels_regex),
	RF_F(T, "log", RF_STR, log),
	RF_F(T, "log_error", RF_STR, log_error),
	RF_FX(T, "log_lines_not_shown", RF_I64, log_lines_not_shown, RF_COUNT),
	RF_P(T, "env_set", env_set, nenv_set, 0),
	RF_P(T, "env_kept", env_kept, nenv_kept, 0),
	RF_S(T, "versions", versions, &versions_desc, 0),
	RF_S(T, "capture", capture, &capture_desc, 0),
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
const struct rf_struct run_manifest_desc = {
	"tko-run.json", sizeof(struct run_manifest), manifest_fields
};

void manifest_init(struct run_manifest *m)
{
	rf_init(&run_manifest_desc, m);
	m->capture.events = 0;
	m->capture.errors = 0;
	m->capture.kernel_dirs = 0;
	m->capture.unreadable_lines = 0;
}

void manifest_release(struct run_manifest *m)
{
	rf_release(&run_manifest_desc, m);
}

char *manifest_text(const char *s)
{
	size_t off;

	if (!s || utf8_check(s, strlen(s), &off) < 0)
		return NULL;
	return xstrdup(s);
}

void manifest_pairs_add(struct rf_pair **v, size_t *nr, const char *key, const char *value)
{
	*v = rf_grow(*v, *nr, sizeof(**v));
	(*v)[*nr].key = xstrdup(key);
	(*v)[*nr].value = manifest_text(value);
	(*nr)++;
}

const char *manifest_pairs_get(const struct rf_pair *v, size_t nr, const char *key)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(v[i].key, key))
			return v[i].value;
	return NULL;
}

void manifest_count_event(struct manifest_capture *c, const char *type)
{
	size_t i;

	for (i = 0; i < c->nby_type; i++) {
		if (!strcmp(c->by_type[i].key, type)) {
			c->by_type[i].n++;
			return;
		}
	}
	c->by_type = rf_grow(c->by_type, c->nby_type, sizeof(*c->by_type));
	c->by_type[c->nby_type].key = xstrdup(type);
	c->by_type[c->nby_type].n = 1;
	c->nby_type++;
}

long long manifest_event_count(const struct manifest_capture *c, const char *type)
{
	size_t i;

	for (i = 0; i < c->nby_type; i++)
		if (!strcmp(c->by_type[i].key, type))
			return c->by_type[i].n;
	return 0;
}

int manifest_write(FILE *fp, const struct run_manifest *m)
{
	return rf_write_doc(fp, &run_manifest_desc, m, MANIFEST_SCHEMA_VERSION, "tko capture");
}

int manifest_save(const struct run_manifest *m, const char *path, struct buf *err)
{
	return rf_save_doc(path, &run_manifest_desc, m, MANIFEST_SCHEMA_VERSION, "tko capture", err);
}

int manifest_read(struct run_manifest *m, const json_t *j, const char *what, struct buf *err)
{
	return rf_read(&run_manifest_desc, m, j, what, err);
}
