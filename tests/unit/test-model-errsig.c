/*
 * Unit tests for model/errsig: the failure texts of the brief's gfx938
 * stack (docs/seed-scripts.md section 1) and of upstream Triton on a
 * Hygon arch are recognised in an error line or a traceback; other
 * errors are not.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/errsig.h"

static void test_signatures(void **state)
{
	(void)state;
	assert_string_equal(errsig_find("RuntimeError: LLVM Translation failed for operation", NULL)->id,
			    "llvm_translation_failed");
	assert_string_equal(errsig_find("compile failed",
		"  %3 = builtin.unrealized_conversion_cast %2 : i64 to !llvm.ptr\n")->id,
			    "unrealized_conversion_cast");
	assert_string_equal(errsig_find(NULL, "PassManager::run failed")->id,
			    "passmanager_failed");
	assert_null(errsig_find("static_assert failed: BLOCK <= 1024", "Traceback ..."));
	assert_null(errsig_find(NULL, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signatures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
