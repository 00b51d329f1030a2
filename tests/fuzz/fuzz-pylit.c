/*
 * Fuzzes the Python literal reader (parse/pylit.c): the whole input as one
 * value, strict and lenient, then a value at a time from the start; every
 * tree goes through repr() and JSON (pylit_json.c) and the lookups.
 */
#include "fuzz.h"
#include "parse/pylit.h"
#include "parse/pylit_json.h"
#include "banned.h"

static void use(const struct pylit *v)
{
	struct buf out = BUF_INIT;
	json_t *j = pylit_to_json(v);
	long long i;
	double d;

	pylit_repr(&out, v);
	json_decref(j);
	pylit_get(v, "signature");
	pylit_kwarg(v, "num_warps");
	pylit_arg(v, 0);
	pylit_str(v);
	pylit_int(v, &i);
	pylit_number(v, &d);
	pylit_truth(v);
	buf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct buf err = BUF_INIT;
	struct pylit *v;
	unsigned flags;
	size_t pos = 0, n;

	for (flags = 0; flags <= PYLIT_LENIENT; flags++)
		if (!pylit_parse_all(s, size, flags, &v, &err)) {
			use(v);
			pylit_free(v);
		}
	for (n = 0; n < 16 && pos < size; n++) {
		size_t before = pos;

		if (pylit_parse(s, size, &pos, PYLIT_LENIENT, &v, &err) < 0)
			break;
		use(v);
		pylit_free(v);
		if (pos <= before || (pos < size && s[pos] != ','))
			break;
		pos++;
	}
	buf_release(&err);
	return 0;
}
