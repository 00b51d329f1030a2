/* Unit tests for util/strmap with pointer values: the autotune model's index. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "util/strmap.h"

static size_t visited;

static void count_value(void *v)
{
	(void)v;
	visited++;
}

static void test_put_get_grow(void **state)
{
	struct strmap m = STRMAP_INIT;
	static int values[5000];
	char key[32];
	int i;

	(void)state;
	assert_null(strmap_get_ptr(&m, "x", 1));
	for (i = 0; i < 5000; i++) {
		void **slot;

		snprintf(key, sizeof(key), "triton_poi_%d", i);
		slot = strmap_put_ptr(&m, key, strlen(key));
		assert_null(*slot);
		*slot = &values[i];
	}
	for (i = 0; i < 5000; i += 97) {
		snprintf(key, sizeof(key), "triton_poi_%d", i);
		assert_ptr_equal(strmap_get_ptr(&m, key, strlen(key)), &values[i]);
		assert_ptr_equal(*strmap_put_ptr(&m, key, strlen(key)), &values[i]);
	}
	assert_int_equal(m.nr, 5000);
	/* keys are byte spans: a prefix is another key */
	assert_null(strmap_get_ptr(&m, "triton_poi_1", 11));
	visited = 0;
	strmap_each_ptr(&m, count_value);
	assert_int_equal(visited, 5000);
	strmap_release(&m);
	assert_null(strmap_get_ptr(&m, "triton_poi_1", 12));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get_grow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
