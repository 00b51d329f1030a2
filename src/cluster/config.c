/*
 * Reading a cluster settings file (config.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cluster/config.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/opts.h"
#include "banned.h"

/* Settings files are a few lines; a larger one is not one. */
#define CONFIG_MAX ((size_t)1 << 20)

enum key_kind { K_STR, K_COUNT, K_SETUP, K_EXTRA };

struct key {
	const char *name;
	enum key_kind kind;
	size_t off;		/* of the char * or long in struct cluster_config */
};

#define STR(n, f) { n, K_STR, offsetof(struct cluster_config, f) }
#define COUNT(n, f) { n, K_COUNT, offsetof(struct cluster_config, f) }
static const struct key keys[] = {
	STR("partition", slurm.partition),
	STR("account", slurm.account),
	STR("time", slurm.time),
	STR("job-name", slurm.job_name),
	STR("gres", slurm.gres),
	COUNT("gpus-per-task", slurm.gpus),
	COUNT("cpus-per-task", slurm.cpus),
	COUNT("tasks", tasks),
	STR("tko", tko),
	{ "setup", K_SETUP, 0 },
	{ "sbatch-arg", K_EXTRA, 0 },
};
#undef STR
#undef COUNT

static const struct key *find_key(const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i].name) == n && !strncmp(keys[i].name, name, n))
			return &keys[i];
	return NULL;
}

static void trim(const char **s, const char **e)
{
	while (*s < *e && (**s == ' ' || **s == '\t'))
		(*s)++;
	while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t' || (*e)[-1] == '\r'))
		(*e)--;
}

static int set(struct cluster_config *c, const struct key *k, const char *v, struct buf *err)
{
	char *base = (char *)c;
	long n;

	switch (k->kind) {
	case K_STR:
		cluster_slurm_set((char **)(base + k->off), v);
		return 0;
	case K_COUNT:
		if (parse_long(v, &n) < 0 || n < 0) {
			buf_addf(err, "%s '%s' is not a count", k->name, v);
			return -1;
		}
		*(long *)(base + k->off) = n;
		return 0;
	case K_SETUP:
		cluster_slurm_add_setup(&c->slurm, v);
		return 0;
	case K_EXTRA:
		cluster_slurm_add_extra(&c->slurm, v);
		return 0;
	}
	return 0;
}

static int line(const char *s, const char *e, struct cluster_config *c, struct buf *err)
{
	const char *eq = memchr(s, '=', (size_t)(e - s)), *ks = s, *ke = eq, *vs, *ve = e;
	const struct key *k;
	char *v;
	int ret;

	trim(&s, &e);
	if (s == e || *s == '#')
		return 0;
	if (!eq) {
		buf_adds(err, "not a 'key = value' line");
		return -1;
	}
	trim(&ks, &ke);
	vs = eq + 1;
	trim(&vs, &ve);
	k = find_key(ks, (size_t)(ke - ks));
	if (!k) {
		buf_addf(err, "unknown setting '%.*s'", (int)(ke - ks), ks);
		return -1;
	}
	if (vs == ve) {
		buf_addf(err, "%s has no value", k->name);
		return -1;
	}
	v = xstrndup(vs, (size_t)(ve - vs));
	ret = set(c, k, v, err);
	free(v);
	return ret;
}

int cluster_config_parse(const char *path, const char *text, size_t len,
			 struct cluster_config *c, struct buf *err)
{
	const char *p = text, *end = text + len;
	size_t n = 0;

	if (text_input_check(path, text, len, err) < 0)
		return -1;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		struct buf why = BUF_INIT;

		if (!eol)
			eol = end;
		n++;
		if (line(p, eol, c, &why) < 0) {
			buf_addf(err, "'%s' line %zu: %s", path, n, why.buf);
			buf_release(&why);
			return -1;
		}
		p = eol + (eol < end);
	}
	return 0;
}

int cluster_config_read(const char *path, struct cluster_config *c, struct buf *err)
{
	struct buf text = BUF_INIT;
	int ret = file_read(path, CONFIG_MAX, &text, err);

	if (!ret)
		ret = cluster_config_parse(path, text.buf, text.len, c, err);
	buf_release(&text);
	return ret;
}

void cluster_config_release(struct cluster_config *c)
{
	cluster_slurm_release(&c->slurm);
	free(c->tko);
	c->tko = NULL;
	c->tasks = 0;
}
