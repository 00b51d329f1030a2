/*
 * Unit tests for json/reflect's RF_TRI (a boolean that may be missing)
 * and RF_SEEN (an object told from no object): what tko apply needs to
 * read tune.json's winner typed. The expected documents and values are
 * written by hand from reflect.h's contract.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "json/jsonw.h"
#include "json/reflect.h"
#include "util/mem.h"

struct win {
	char *id;
	int confirmed;		/* RF_TRI */
	int accepted;		/* RF_TRI, RF_OMIT_NULL */
};

struct kern {
	char *name;
	struct win w;
	int has_w;		/* RF_SEEN */
};

#define T struct win
static const struct rf_field win_fields[] = {
	RF_F(T, "id", RF_STR, id),
	RF_F(T, "confirmed", RF_TRI, confirmed),
	RF_FX(T, "accepted", RF_TRI, accepted, RF_OMIT_NULL),
	RF_FEND,
};
static const struct rf_struct win_desc = { "win", sizeof(T), win_fields };
#undef T

#define T struct kern
static const struct rf_field kern_fields[] = {
	RF_F(T, "name", RF_STR, name),
	RF_SS(T, "w", w, has_w, &win_desc, 0),
	RF_FEND,
};
static const struct rf_struct kern_desc = { "kern", sizeof(T), kern_fields };
#undef T

/* Reads text into k; returns rf_read's result, its message in err. */
static int read_kern(struct kern *k, const char *text, struct buf *err)
{
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);
	int ret;

	if (!j)
		fail_msg("test document does not parse: %s", je.text);
	rf_init(&kern_desc, k);
	ret = rf_read(&kern_desc, k, j, "t.json", err);
	json_decref(j);
	return ret;
}

static char *write_kern(const struct kern *k)
{
	char *s = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&s, &n);
	struct jsonw w;

	assert_non_null(fp);
	jsonw_init_prec(&w, fp, 10);
	assert_int_equal(rf_write(&w, &kern_desc, k), 0);
	assert_int_equal(jsonw_finish(&w), 0);
	assert_int_equal(fclose(fp), 0);
	return s;
}

/* rf_to_json's tree, compact, against the expected text. */
static void same_tree(const struct kern *k, const char *want)
{
	json_t *j = rf_to_json(&kern_desc, k);
	char *s = json_dumps(j, JSON_COMPACT);

	assert_string_equal(s, want);
	free(s);
	json_decref(j);
}

/* Missing and null are unknown; false and true are themselves. */
static void test_tri_read(void **state)
{
	static const struct {
		const char *text;
		int confirmed;
	} cases[] = {
		{ "{\"w\": {}}", RF_TRI_UNKNOWN },
		{ "{\"w\": {\"confirmed\": null}}", RF_TRI_UNKNOWN },
		{ "{\"w\": {\"confirmed\": false}}", 0 },
		{ "{\"w\": {\"confirmed\": true}}", 1 },
	};
	struct buf err = BUF_INIT;
	struct kern k;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(read_kern(&k, cases[i].text, &err), 0);
		assert_int_equal(k.w.confirmed, cases[i].confirmed);
		assert_int_equal(k.w.accepted, RF_TRI_UNKNOWN);
		rf_release(&kern_desc, &k);
	}
	assert_int_equal(read_kern(&k, "{\"w\": {\"confirmed\": 1}}", &err), -1);
	assert_string_equal(err.buf, "'t.json': w.confirmed: not true or false");
	rf_release(&kern_desc, &k);
	buf_release(&err);
}

/* Unknown is written null, or left out with RF_OMIT_NULL; rf_to_json agrees. */
static void test_tri_write(void **state)
{
	struct kern k;
	char *s;

	(void)state;
	rf_init(&kern_desc, &k);
	assert_int_equal(k.w.confirmed, RF_TRI_UNKNOWN);
	k.has_w = 1;
	s = write_kern(&k);
	assert_string_equal(s, "{\n  \"name\": null,\n  \"w\": {\n    \"id\": null,\n"
			    "    \"confirmed\": null\n  }\n}\n");
	free(s);
	same_tree(&k, "{\"name\":null,\"w\":{\"id\":null,\"confirmed\":null}}");
	k.w.confirmed = 0;
	k.w.accepted = 1;
	s = write_kern(&k);
	assert_string_equal(s, "{\n  \"name\": null,\n  \"w\": {\n    \"id\": null,\n"
			    "    \"confirmed\": false,\n    \"accepted\": true\n  }\n}\n");
	free(s);
	same_tree(&k, "{\"name\":null,\"w\":{\"id\":null,\"confirmed\":false,\"accepted\":true}}");
	rf_release(&kern_desc, &k);
}

/* An object is seen, even an empty one; a missing key and null are not. */
static void test_seen_read(void **state)
{
	static const struct {
		const char *text;
		int seen;
	} cases[] = {
		{ "{\"name\": \"k\"}", 0 },
		{ "{\"name\": \"k\", \"w\": null}", 0 },
		{ "{\"name\": \"k\", \"w\": {}}", 1 },
		{ "{\"name\": \"k\", \"w\": {\"id\": \"v001\"}}", 1 },
	};
	struct buf err = BUF_INIT;
	struct kern k;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(read_kern(&k, cases[i].text, &err), 0);
		assert_int_equal(k.has_w, cases[i].seen);
		rf_release(&kern_desc, &k);
		assert_int_equal(k.has_w, 0);	/* released: unknown again */
	}
	assert_int_equal(read_kern(&k, "{\"w\": 3}", &err), -1);
	assert_string_equal(err.buf, "'t.json': w: not an object");
	assert_int_equal(k.has_w, 0);
	rf_release(&kern_desc, &k);
	buf_release(&err);
}

/* Not seen: null, whatever its members hold; seen with nothing known: an object of nulls. */
static void test_seen_write(void **state)
{
	struct buf err = BUF_INIT;
	struct kern k;
	char *s;

	(void)state;
	rf_init(&kern_desc, &k);
	k.w.id = xstrdup("v001");
	s = write_kern(&k);
	assert_string_equal(s, "{\n  \"name\": null,\n  \"w\": null\n}\n");
	free(s);
	same_tree(&k, "{\"name\":null,\"w\":null}");
	rf_release(&kern_desc, &k);

	assert_int_equal(read_kern(&k, "{\"name\": \"k\", \"w\": {}}", &err), 0);
	s = write_kern(&k);
	assert_string_equal(s, "{\n  \"name\": \"k\",\n  \"w\": {\n    \"id\": null,\n"
			    "    \"confirmed\": null\n  }\n}\n");
	free(s);
	rf_release(&kern_desc, &k);
	buf_release(&err);
}

/* rf_diff shows an unknown RF_TRI as "-". */
static void test_tri_diff(void **state)
{
	struct rf_changes c = RF_CHANGES_INIT;
	struct kern a, b;

	(void)state;
	rf_init(&kern_desc, &a);
	rf_init(&kern_desc, &b);
	b.w.confirmed = 0;
	rf_diff(&kern_desc, &a, &b, "", 0, &c);
	assert_int_equal(c.nr, 1);
	assert_string_equal(c.v[0].path, "w.confirmed");
	assert_string_equal(c.v[0].a, "-");
	assert_string_equal(c.v[0].b, "false");
	rf_changes_release(&c);
	b.w.confirmed = RF_TRI_UNKNOWN;
	rf_diff(&kern_desc, &a, &b, "", 0, &c);
	assert_int_equal(c.nr, 0);
	rf_changes_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tri_read),
		cmocka_unit_test(test_tri_write),
		cmocka_unit_test(test_seen_read),
		cmocka_unit_test(test_seen_write),
		cmocka_unit_test(test_tri_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
