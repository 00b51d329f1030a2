/* Unit tests for util/sha256 against the FIPS 180-4 example vectors. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "util/sha256.h"

static void hex_of(const char *s, size_t n, size_t chunk, char hex[65])
{
	struct sha256 h;
	size_t i;

	sha256_init(&h);
	for (i = 0; i < n; i += chunk)
		sha256_update(&h, s + i, n - i < chunk ? n - i : chunk);
	sha256_hex(&h, hex);
}

static void test_vectors(void **state)
{
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	char hex[65];

	(void)state;
	hex_of("", 0, 1, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hex_of("abc", 3, 3, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	hex_of(two, strlen(two), 7, hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_million_a_in_odd_chunks(void **state)
{
	static char a[1000000];
	char hex[65];

	(void)state;
	memset(a, 'a', sizeof(a));
	hex_of(a, sizeof(a), 999, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_million_a_in_odd_chunks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
