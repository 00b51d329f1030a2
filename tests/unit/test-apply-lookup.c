/*
 * Unit tests for apply/lookup: the key of every example kernel equals the
 * one torch 2.11 computed itself (tests/data/apply/lookup-keys.txt says
 * how), and the same module with CRLF line ends gives the same key
 * (linecache reads with universal newlines).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "apply/lookup.h"
#include "util/buf.h"
#include "util/file.h"

static int check_row(const char *path, const char *name, const char *want)
{
	struct buf text = BUF_INIT, err = BUF_INIT;
	char key[65];
	int ok;

	assert_int_equal(file_read(path, 0, &text, &err), 0);
	assert_int_equal(lookup_hash_of_module(text.buf, text.len, name, key), 0);
	ok = !strcmp(key, want);
	if (!ok)
		print_message("%s %s: %s, torch %s\n", path, name, key, want);
	buf_release(&text);
	buf_release(&err);
	return ok;
}

static void test_keys_equal_torchs(void **state)
{
	FILE *fp = fopen("tests/data/apply/lookup-keys.txt", "r");
	char line[1024], path[512], name[256], key[128];
	int rows = 0, bad = 0;

	(void)state;
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		if (line[0] == '#' || sscanf(line, "%511s %255s %127s", path, name, key) != 3)
			continue;
		rows++;
		bad += !check_row(path, name, key);
	}
	fclose(fp);
	assert_int_equal(rows, 29);
	assert_int_equal(bad, 0);
}

static void test_crlf_and_missing(void **state)
{
	const char *mod = "size_hints={'x': 8}, other={'y': 1}\n"
			  "@triton.jit\ndef triton_poi_fused_k(a,\n        b):\n    x = 1\n  \n"
			  "    return x\n\ndef after(): pass\n";
	struct buf crlf = BUF_INIT, src = BUF_INIT, hints = BUF_INIT;
	char k1[65], k2[65];
	const char *p;

	(void)state;
	for (p = mod; *p; p++)
		buf_adds(&crlf, *p == '\n' ? "\r\n" : (char[]){ *p, 0 });
	assert_int_equal(lookup_hash_of_module(mod, strlen(mod), "triton_poi_fused_k", k1), 0);
	assert_int_equal(lookup_hash_of_module(crlf.buf, crlf.len, "triton_poi_fused_k", k2), 0);
	assert_string_equal(k1, k2);
	/* inspect's block: the signature's two lines, the body, the emptied blank line */
	assert_int_equal(lookup_function_source(mod, strlen(mod), "triton_poi_fused_k", &src), 0);
	assert_string_equal(src.buf, "def triton_poi_fused_k(a,\n        b):\n    x = 1\n\n    return x\n");
	lookup_size_hints(mod, strlen(mod), &hints);
	assert_string_equal(hints.buf, "{'x': 8}");
	assert_int_equal(lookup_hash_of_module(mod, strlen(mod), "nope", k1), -1);
	buf_release(&crlf);
	buf_release(&src);
	buf_release(&hints);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys_equal_torchs),
		cmocka_unit_test(test_crlf_and_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
