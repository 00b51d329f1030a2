/*
 * Unit tests for model/apply_events, on hand-written apply.jsonl lines
 * shaped as docs/apply.md ("apply.jsonl") describes the hook's events;
 * the expected fields, line numbers and field paths are read off the lines.
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

#include "model/apply_events.h"

#define ALL (APPLY_EV_BIT(APPLY_EV_SESSION_START) | APPLY_EV_BIT(APPLY_EV_ERROR) | \
	     APPLY_EV_BIT(APPLY_EV_CONSTRUCT) | APPLY_EV_BIT(APPLY_EV_SESSION_END) | \
	     APPLY_EV_BIT(APPLY_EV_STEPS) | APPLY_EV_BIT(APPLY_EV_KEEP_OFF))

/* parse() of one line as line 7 of "a.jsonl": its return; warn holds the warning */
static int parse(struct apply_event *ev, const char *line, unsigned kinds, int *not_event,
		 struct buf *warn)
{
	apply_event_release(ev);
	buf_reset(warn);
	return apply_event_parse(ev, line, strlen(line), kinds, "a.jsonl", 7, not_event, warn);
}

static void test_typed_events(void **state)
{
	struct apply_event ev;
	struct buf warn = BUF_INIT;
	int ne;

	(void)state;
	apply_event_init(&ev);
	assert_int_equal(parse(&ev, "{\"event\": \"construct\", \"role\": \"compile_worker\", \"pid\": 9,"
			       " \"id\": \"k0\", \"how\": \"lookup_hit\", \"config\": {}}", ALL, &ne, &warn), 1);
	assert_int_equal(ev.kind, APPLY_EV_CONSTRUCT);
	assert_int_equal(ev.line, 7);
	assert_string_equal(ev.role, "compile_worker");
	assert_false(apply_event_main(&ev));
	assert_string_equal(ev.construct.id, "k0");
	assert_string_equal(ev.construct.how, "lookup_hit");
	assert_int_equal(parse(&ev, "{\"event\": \"steps\", \"role\": \"main\", \"source\": \"optimizer\","
			       " \"ms\": [null, 2.5, 3], \"losses\": [1.5, null], \"window\": [1, 3]}",
			       ALL, &ne, &warn), 1);
	assert_true(apply_event_main(&ev));
	assert_string_equal(ev.steps.source, "optimizer");
	assert_null(ev.steps.clock);
	assert_int_equal(json_array_size(ev.steps.ms), 3);
	assert_int_equal(json_array_size(ev.steps.losses), 2);
	assert_int_equal(ev.steps.window[0], 1);
	assert_int_equal(ev.steps.window[1], 3);
	assert_int_equal(parse(&ev, "{\"event\": \"keep_off\", \"role\": \"main\", \"regions\": ["
			       "{\"region\": \"m:f\", \"status\": \"took_effect\", \"calls\": 4, \"message\": null},"
			       " {\"region\": \"m:g\", \"status\": \"not_found\"}]}", ALL, &ne, &warn), 1);
	assert_int_equal(ev.keep_off.nr, 2);
	assert_int_equal(ev.keep_off.v[0].calls, 4);
	assert_int_equal(ev.keep_off.v[1].calls, -1);
	assert_string_equal(ev.keep_off.v[1].status, "not_found");
	assert_int_equal(parse(&ev, "{\"event\": \"session_end\", \"role\": \"main\", \"outcomes\": ["
			       "{\"id\": \"k0\", \"status\": \"ran_other\", \"reason\": \"other_config\", \"launches\": 3}]}",
			       ALL, &ne, &warn), 1);
	assert_int_equal(json_array_size(ev.end.outcomes), 1);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(ev.end.outcomes, 0), "launches")), 3);
	assert_int_equal(warn.len, 0);
	apply_event_release(&ev);
	buf_release(&warn);
}

/* Not events: a truncated line, an object without "event", a kind not asked for. */
static void test_not_events(void **state)
{
	struct apply_event ev;
	struct buf warn = BUF_INIT;
	int ne;

	(void)state;
	apply_event_init(&ev);
	assert_int_equal(parse(&ev, "{\"event\": \"session_end\", \"outcomes\": [{\"id\"", ALL, &ne, &warn), 0);
	assert_int_equal(ne, 1);
	assert_int_equal(parse(&ev, "{\"event\": 3}", ALL, &ne, &warn), 0);
	assert_int_equal(ne, 1);
	assert_int_equal(parse(&ev, "[1, 2]", ALL, &ne, &warn), 0);
	assert_int_equal(ne, 1);
	assert_int_equal(parse(&ev, "{\"event\": \"launch\", \"role\": \"main\"}", ALL, &ne, &warn), 0);
	assert_int_equal(ne, 0);
	assert_int_equal(parse(&ev, "{\"event\": \"steps\", \"ms\": \"x\"}",
			       APPLY_EV_BIT(APPLY_EV_KEEP_OFF), &ne, &warn), 0);
	assert_int_equal(ne, 0);
	assert_int_equal(warn.len, 0);
	apply_event_release(&ev);
	buf_release(&warn);
}

static void assert_warns(const char *line, const char *words)
{
	struct apply_event ev;
	struct buf warn = BUF_INIT;
	int ne;

	apply_event_init(&ev);
	assert_int_equal(parse(&ev, line, ALL, &ne, &warn), -1);
	if (strcmp(warn.buf, words))
		fail_msg("%s: got \"%s\", want \"%s\"", line, warn.buf, words);
	assert_null(strchr(warn.buf, '\n'));
	apply_event_release(&ev);
	buf_release(&warn);
}

/* A field of the wrong type: one line naming the file, the line, the event and the field. */
static void test_wrong_types(void **state)
{
	(void)state;
	assert_warns("{\"event\": \"steps\", \"role\": \"main\", \"ms\": [null, \"2\"]}",
		     "'a.jsonl' line 7: steps: ms[1]: not a number");
	assert_warns("{\"event\": \"steps\", \"role\": \"main\", \"ms\": [1], \"losses\": 0.5}",
		     "'a.jsonl' line 7: steps: losses: not a list");
	assert_warns("{\"event\": \"steps\", \"role\": \"main\", \"ms\": [1], \"window\": [1]}",
		     "'a.jsonl' line 7: steps: window: not a list of two integers");
	assert_warns("{\"event\": \"steps\", \"role\": \"main\", \"clock\": 5}",
		     "'a.jsonl' line 7: steps: clock: not a string");
	assert_warns("{\"event\": \"keep_off\", \"role\": \"main\", \"regions\": [{\"region\": \"m:f\","
		     " \"status\": \"took_effect\", \"calls\": \"3\"}]}",
		     "'a.jsonl' line 7: keep_off: regions[0].calls: not a count");
	assert_warns("{\"event\": \"session_end\", \"role\": \"main\", \"outcomes\": [{\"id\": \"k0\","
		     " \"status\": \"ran_winner\"}, {\"id\": \"k1\", \"status\": 2}]}",
		     "'a.jsonl' line 7: session_end: outcomes[1].status: not a string");
	assert_warns("{\"event\": \"construct\", \"role\": 1, \"id\": \"k0\", \"how\": \"hook\"}",
		     "'a.jsonl' line 7: construct: role: not a string");
}

struct tally {
	int n[APPLY_EV_KINDS];
	long last_line;
};

static void count(const struct apply_event *ev, void *data)
{
	struct tally *t = data;

	t->n[ev->kind]++;
	t->last_line = ev->line;
}

/* The file: line numbers count every line, empty ones too; the bad event is skipped. */
static void test_read_file(void **state)
{
	static const char text[] =
		"{\"event\": \"session_start\", \"role\": \"main\"}\n"
		"\n"
		"{\"event\": \"construct\", \"role\": \"main\", \"id\": \"k0\", \"how\": \"hook\"}\n"
		"{\"event\": \"error\", \"role\": \"main\", \"stage\": \"x\"}\n"
		"{\"event\": \"construct\", \"role\": \"main\", \"id\": 5, \"how\": \"hook\"}\n"
		"{\"event\": \"launch\", \"role\": \"main\"}\n"
		"{\"event\": \"construct\", \"role\": \"compile_worker\", \"id\": \"k1\", \"how\": \"launch\"}\n"
		"{\"event\": \"session_end\", \"role\": \"main\", \"outc";
	char path[] = "/tmp/test-model-apply-events-XXXXXX";
	int fd = mkstemp(path);
	struct tally t;
	struct apply_events_stats st = { 0, 0 };
	struct buf err = BUF_INIT;

	(void)state;
	memset(&t, 0, sizeof(t));
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)(sizeof(text) - 1));
	close(fd);
	assert_int_equal(apply_events_read(path, ALL, count, &t, &st, &err), 0);
	assert_int_equal(t.n[APPLY_EV_SESSION_START], 1);
	assert_int_equal(t.n[APPLY_EV_CONSTRUCT], 2);
	assert_int_equal(t.n[APPLY_EV_ERROR], 1);
	assert_int_equal(t.n[APPLY_EV_SESSION_END], 0);
	assert_int_equal(t.last_line, 7);
	assert_int_equal(st.warnings, 1);
	assert_int_equal(st.not_events, 1);
	unlink(path);
	assert_int_equal(apply_events_read(path, ALL, count, &t, &st, &err), -1);
	assert_non_null(strstr(err.buf, path));
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typed_events),
		cmocka_unit_test(test_not_events),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_read_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
