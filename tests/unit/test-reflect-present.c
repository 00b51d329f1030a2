/*
 * Unit tests for json/reflect's RF_PRESENT rows: a key that one document
 * has, null or not, and another lacks. Expected texts written by hand:
 * the key is written exactly when its presence int is 1 (null when the
 * member is unknown), and reading sets that int for a key that is there,
 * null included, so each document reads and writes back the same.
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

#include "json/reflect.h"

struct gain {
	long rounds;
	double us;
};

struct row {
	char *id;
	struct gain measured;
	int has_measured;
	char *detail;
	int has_detail;
	char *status;
};

#define G struct gain
static const struct rf_field gain_fields[] = {
	RF_F(G, "rounds", RF_LONG, rounds),
	RF_F(G, "us", RF_NUM, us),
	RF_FEND,
};
#undef G
static const struct rf_struct gain_desc = { "gain", sizeof(struct gain), gain_fields };

#define R struct row
static const struct rf_field row_fields[] = {
	RF_F(R, "id", RF_STR, id),
	RF_PRS(R, "measured", measured, has_measured, &gain_desc, RF_ALL_UNKNOWN),
	RF_PR(R, "detail", RF_STR, detail, has_detail, 0),
	RF_F(R, "status", RF_STR, status),
	RF_FEND,
};
#undef R
static const struct rf_struct row_desc = { "row", sizeof(struct row), row_fields };

/* Reads `text`, checks the presence ints, and that it writes back as `text`. */
static void round_trip(const char *text, int has_measured, int has_detail)
{
	struct row r;
	struct buf err = BUF_INIT;
	json_t *j = json_loads(text, 0, NULL), *back;
	char *again;

	assert_non_null(j);
	rf_init(&row_desc, &r);
	assert_int_equal(rf_read(&row_desc, &r, j, "r.json", &err), 0);
	assert_int_equal(r.has_measured, has_measured);
	assert_int_equal(r.has_detail, has_detail);
	back = rf_to_json(&row_desc, &r);
	again = json_dumps(back, JSON_COMPACT);
	assert_string_equal(again, text);
	free(again);
	json_decref(back);
	json_decref(j);
	buf_release(&err);
	rf_release(&row_desc, &r);
}

static void test_present_round_trip(void **state)
{
	(void)state;
	round_trip("{\"id\":\"a\",\"status\":\"ran\"}", 0, 0);
	round_trip("{\"id\":\"a\",\"measured\":null,\"detail\":null,\"status\":\"not_run\"}", 1, 1);
	round_trip("{\"id\":\"a\",\"measured\":{\"rounds\":3,\"us\":1.5},\"status\":\"ran\"}", 1, 0);
	round_trip("{\"id\":\"a\",\"detail\":\"why\",\"status\":\"not_planned\"}", 0, 1);
}

/* Built by hand: the int decides, whatever the member holds. */
static void test_present_write(void **state)
{
	struct row r;
	json_t *j;
	char *text;

	(void)state;
	rf_init(&row_desc, &r);
	r.has_measured = 1;	/* every member unknown: null */
	r.detail = "kept out";	/* has_detail 0: not written */
	j = rf_to_json(&row_desc, &r);
	text = json_dumps(j, JSON_COMPACT);
	assert_string_equal(text, "{\"id\":null,\"measured\":null,\"status\":null}");
	free(text);
	json_decref(j);
}

static void test_present_wrong_type(void **state)
{
	struct row r;
	struct buf err = BUF_INIT;
	json_t *j = json_loads("{\"detail\": 5}", 0, NULL);

	(void)state;
	rf_init(&row_desc, &r);
	assert_int_equal(rf_read(&row_desc, &r, j, "r.json", &err), -1);
	assert_string_equal(err.buf, "'r.json': detail: not a string");
	json_decref(j);
	buf_release(&err);
	rf_release(&row_desc, &r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_present_round_trip),
		cmocka_unit_test(test_present_write),
		cmocka_unit_test(test_present_wrong_type),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
