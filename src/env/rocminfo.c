/* The rocminfo reader (see rocminfo.h). */
#include <stdlib.h>
#include <string.h>

#include "env/rocminfo.h"
#include "env/fields.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

enum agent_field { F_NAME, F_MARKETING, F_TYPE, F_CU, F_WAVE };

/* Keys of an agent that tko reads, and where each goes. */
static const struct {
	const char *key;
	enum agent_field field;
} keys[] = {
	{ "Name", F_NAME },
	{ "Marketing Name", F_MARKETING },
	{ "Device Type", F_TYPE },
	{ "Compute Unit", F_CU },
	{ "Wavefront Size", F_WAVE },
};

static int is_agent_header(const char *s, size_t n)
{
	span_trim(&s, &n);
	if (!span_starts(s, n, "Agent ") || n == 6)
		return 0;
	for (s += 6, n -= 6; n; s++, n--)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static void set_field(struct rocm_agent *a, enum agent_field f,
		      const char *v, size_t vn)
{
	char **str = NULL;
	long *num = NULL;

	switch (f) {
	case F_NAME: str = &a->name; break;
	case F_MARKETING: str = &a->marketing_name; break;
	case F_TYPE: str = &a->device_type; break;
	case F_CU: num = &a->compute_units; break;
	case F_WAVE: num = &a->wavefront_size; break;
	}
	if (str && !*str)
		*str = xstrndup(v, vn);
	else if (num && *num < 0)
		*num = field_leading_long(v, vn, -1);
}

static void agent_line(struct rocm_agent *a, const char *s, size_t n)
{
	const char *key, *val;
	size_t kn, vn, i;

	if (field_split(s, n, &key, &kn, &val, &vn) < 0)
		return;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i].key) == kn && !memcmp(keys[i].key, key, kn)) {
			set_field(a, keys[i].field, val, vn);
			return;
		}
}

int rocminfo_parse(const char *p, size_t n, struct rocminfo *ri, struct buf *err)
{
	struct lines it = LINES_INIT(p, n);
	struct rocm_agent *cur = NULL;
	const char *s;
	size_t len;
	int seen = 0;

	while (lines_next(&it, &s, &len)) {
		if (is_agent_header(s, len)) {
			ALLOC_GROW(ri->agents, ri->nr + 1, ri->alloc);
			cur = &ri->agents[ri->nr++];
			*cur = (struct rocm_agent){ NULL, NULL, NULL, -1, -1 };
			seen = 1;
		} else if (cur) {
			agent_line(cur, s, len);
		}
	}
	if (!seen) {
		buf_addf(err, "no 'Agent' section in rocminfo output");
		return -1;
	}
	return 0;
}

void rocminfo_release(struct rocminfo *ri)
{
	size_t i;

	for (i = 0; i < ri->nr; i++) {
		free(ri->agents[i].name);
		free(ri->agents[i].marketing_name);
		free(ri->agents[i].device_type);
	}
	free(ri->agents);
	*ri = (struct rocminfo)ROCMINFO_INIT;
}

int rocm_agent_is_gpu(const struct rocm_agent *a)
{
	return a->device_type && (!strcmp(a->device_type, "GPU") ||
				  !strcmp(a->device_type, "HCU"));
}
