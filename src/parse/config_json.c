/* Configs from JSON objects (see config_json.h). */
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "json/jsonw.h"
#include "parse/config_json.h"
#include "util/mem.h"
#include "banned.h"

char *py_value_new(const json_t *v)
{
	if (json_is_integer(v))
		return xstrfmt("%lld", (long long)json_integer_value(v));
	if (json_is_real(v))
		return xstrfmt("%.17g", json_real_value(v));
	if (json_is_string(v))
		return xstrfmt("'%s'", json_string_value(v));
	if (json_is_boolean(v))
		return xstrdup(json_is_true(v) ? "True" : "False");
	if (json_is_null(v))
		return xstrdup("None");
	return jsonw_compact_string(v);
}

void at_config_from_json(struct at_config *c, json_t *kwargs,
			 int (*skip)(const char *key), const json_t *fields)
{
	const char *key;
	json_t *v;

	json_object_foreach(kwargs, key, v) {
		char *val;

		if (skip && skip(key))
			continue;
		val = py_value_new(v);
		at_kwarg_add(c, key, strlen(key), val, strlen(val));
		free(val);
	}
	c->num_warps = (long)json_int(fields, "num_warps", -1);
	c->num_stages = (long)json_int(fields, "num_stages", -1);
	c->num_ctas = (long)json_int(fields, "num_ctas", -1);
	c->maxnreg = (long)json_int(fields, "maxnreg", -1);
}
