/*
 * Unit tests for apply/proof: the status and reason of a planned kernel
 * from hand-written apply.jsonl files (events as docs/apply.md, "apply.jsonl"
 * and "Processes and roles", describes them). The reason of a kernel no
 * process reported on follows the main process alone: a compile worker or a
 * launcher that loaded the hook is not the command's own process.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "apply/proof.h"

/* status of plan id "k0" in a file holding `text`; its reason into *reason (static copy) */
static const char *status_of(const char *text, const char **reason)
{
	static char st[64], why[64];
	char path[] = "/tmp/test-apply-proof-XXXXXX";
	int fd = mkstemp(path);
	struct apply_proof pr = APPLY_PROOF_INIT;
	struct buf err = BUF_INIT;
	const char *s, *r;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(apply_proof_read(&pr, path, &err), 0);
	s = apply_proof_status(&pr, "k0", &r);
	snprintf(st, sizeof(st), "%s", s);
	snprintf(why, sizeof(why), "%s", r ? r : "(null)");
	*reason = why;
	apply_proof_release(&pr);
	unlink(path);
	buf_release(&err);
	return st;
}

static void test_main_reports(void **state)
{
	const char *why;

	(void)state;
	assert_string_equal(status_of(
		"{\"event\": \"session_start\", \"role\": \"main\"}\n"
		"{\"event\": \"session_end\", \"role\": \"main\", \"outcomes\": "
		"[{\"id\": \"k0\", \"status\": \"not_launched\", \"reason\": \"source_changed\"}]}\n",
		&why), "not_launched");
	assert_string_equal(why, "source_changed");
}

/* The main process started and died before its session_end. */
static void test_main_died(void **state)
{
	const char *why;

	(void)state;
	assert_string_equal(status_of(
		"{\"event\": \"session_start\", \"role\": \"main\"}\n"
		"{\"event\": \"construct\", \"role\": \"main\", \"id\": \"k0\", \"how\": \"lookup_hit\"}\n",
		&why), "no_record");
	assert_string_equal(why, "no_session_end");
}

/*
 * No process at all loaded the hook (python -S), or only processes that
 * do not speak for the command: Inductor's compile workers (started
 * without -S, they load it) and torchrun's launcher write their own
 * session_start, which says nothing about the command's process.
 */
static void test_only_helpers(void **state)
{
	const char *why;

	(void)state;
	assert_string_equal(status_of("", &why), "no_record");
	assert_string_equal(why, "hook_not_loaded");
	assert_string_equal(status_of(
		"{\"event\": \"session_start\", \"role\": \"compile_worker\"}\n"
		"{\"event\": \"construct\", \"role\": \"compile_worker\", \"id\": \"k0\", \"how\": \"lookup_hit\"}\n",
		&why), "no_record");
	assert_string_equal(why, "hook_not_loaded");
	assert_string_equal(status_of(
		"{\"event\": \"session_start\", \"role\": \"launcher\"}\n"
		"{\"event\": \"session_end\", \"role\": \"launcher\", \"outcomes\": []}\n"
		"{\"event\": \"session_start\", \"role\": \"rank\"}\n"
		"{\"event\": \"session_start\", \"role\": \"child\"}\n",
		&why), "no_record");
	assert_string_equal(why, "hook_not_loaded");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_main_reports),
		cmocka_unit_test(test_main_died),
		cmocka_unit_test(test_only_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
