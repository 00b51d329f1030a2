/* Unit tests for util/table: terminal and Markdown rendering. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/table.h"

static char *render(const struct table *t, int md)
{
	char *s = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&s, &n);

	if (md)
		table_print_md(t, fp);
	else
		table_print(t, fp);
	fclose(fp);
	return s;
}

static void test_alignment(void **state)
{
	struct table t = TABLE_INIT;
	char *s;

	(void)state;
	table_columns(&t, "family|count", "lr");
	table_row(&t);
	table_cell(&t, "global_load");
	table_cell(&t, "%d", 12);
	table_row(&t);
	table_cell(&t, "ds_read");
	table_cell(&t, "%d", 3);
	assert_int_equal(table_rows(&t), 2);
	s = render(&t, 0);
	assert_string_equal(s,
		"family       count\n"
		"global_load     12\n"
		"ds_read          3\n");
	free(s);
	s = render(&t, 1);
	assert_string_equal(s,
		"| family | count |\n"
		"| --- | ---: |\n"
		"| global_load | 12 |\n"
		"| ds_read | 3 |\n");
	free(s);
	table_release(&t);
}

static void test_short_rows_and_escapes(void **state)
{
	struct table t = TABLE_INIT;
	char *s;

	(void)state;
	table_columns(&t, "a|b", NULL);
	table_row(&t);
	table_cell(&t, "x|y");
	table_row(&t);
	table_cell(&t, "\xe5\x86\x85");	/* one code point, width 1 */
	table_cell(&t, "z");
	s = render(&t, 1);
	assert_string_equal(s, "| a | b |\n| --- | --- |\n| x\\|y |  |\n| \xe5\x86\x85 | z |\n");
	free(s);
	s = render(&t, 0);
	assert_string_equal(s, "a    b\nx|y  \n\xe5\x86\x85    z\n");
	free(s);
	table_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alignment),
		cmocka_unit_test(test_short_rows_and_escapes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
