/*
 * Unit tests for model/capture_events, on hand-written events.jsonl lines
 * shaped as python/tko writes them (capture.py, inductor_hooks.py,
 * triton_hooks.py; docs/capture-events.md): the kernel event is a torch
 * 2.11 one, heuristic_type HeuristicType's number. The expected fields,
 * line numbers, columns and counts are read off the lines by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/capture_events.h"

/* capture_event_parse() of p[0..n) as line 7 of "e.jsonl"; err holds its error */
static int parse_n(struct capture_event *ev, const char *p, size_t n, struct buf *err)
{
	capture_event_release(ev);
	buf_reset(err);
	return capture_event_parse(ev, p, n, "e.jsonl", 7, err);
}

static int parse(struct capture_event *ev, const char *line, struct buf *err)
{
	return parse_n(ev, line, strlen(line), err);
}

static void test_session_start(void **state)
{
	struct capture_event ev;
	struct buf err = BUF_INIT;

	(void)state;
	capture_event_init(&ev);
	assert_int_equal(parse(&ev, "{\"schema_version\": 1, \"event\": \"session_start\", "
			       "\"time\": 1764689362.5, \"pid\": 475, \"argv\": [\"python\", \"demo.py\"], "
			       "\"python\": \"3.12.3\", \"tko\": \"0.1\", \"hooks\": [\"CachingAutotuner.run\"], "
			       "\"torch\": \"2.11.0+cu130\", \"triton\": \"3.6.0\", \"kernels_regex\": null, "
			       "\"device\": {\"name\": \"NVIDIA H200\", \"backend\": \"cuda\", "
			       "\"gcn_arch_name\": \"NVIDIA H200\", \"capability\": [9, 0], \"warp_size\": 32, "
			       "\"multiprocessor_count\": 132}}", &err), 1);
	assert_int_equal(ev.kind, CAPTURE_EV_SESSION_START);
	assert_string_equal(ev.type, "session_start");
	assert_int_equal(ev.line, 7);
	assert_int_equal(ev.schema_version, 1);
	assert_true(fabs(ev.time - 1764689362.5) < 1e-6);
	assert_int_equal(ev.pid, 475);
	assert_string_equal(ev.torch, "2.11.0+cu130");
	assert_string_equal(ev.triton, "3.6.0");
	assert_int_equal(json_array_size(ev.hooks), 1);
	assert_string_equal(json_string_value(json_array_get(ev.hooks, 0)), "CachingAutotuner.run");
	assert_string_equal(ev.device.name, "NVIDIA H200");
	assert_string_equal(ev.device.backend, "cuda");
	assert_null(ev.device.arch);
	assert_int_equal(ev.device.warp_size, 32);
	assert_int_equal(ev.device.multiprocessors, 132);
	assert_true(json_is_object(ev.device.facts));
	assert_int_equal(json_array_size(json_object_get(ev.device.facts, "capability")), 2);
	assert_int_equal(ev.unknown_fields, 0);
	assert_int_equal(ev.bad_fields, 0);
	assert_null(ev.kernel);
	/* a session_start says nothing about a kernel: "kernel" is not its key */
	assert_int_equal(parse(&ev, "{\"event\": \"session_start\", \"kernel\": \"k\", \"device\": null}",
			       &err), 1);
	assert_int_equal(ev.unknown_fields, 1);
	assert_null(ev.kernel);
	assert_null(ev.device.facts);
	assert_int_equal(ev.device.warp_size, -1);
	assert_true(isnan(ev.time));
	assert_int_equal(ev.pid, -1);
	capture_event_release(&ev);
	buf_release(&err);
}

static void test_kernel(void **state)
{
	struct capture_event ev;
	struct buf err = BUF_INIT;

	(void)state;
	capture_event_init(&ev);
	assert_int_equal(parse(&ev, "{\"schema_version\": 1, \"event\": \"kernel\", \"time\": 1.5, "
			       "\"pid\": 524, \"kernel\": \"triton_red_fused_0\", \"source_hash\": \"e8ab\", "
			       "\"kind\": \"inductor\", \"source_kind\": \"inductor_module\", "
			       "\"heuristic_type\": 3, \"heuristic\": \"reduction\", \"source_file\": \"/c/wq/cwq.py\", "
			       "\"size_hints\": {\"x\": 4096, \"r0_\": 1024}, \"mutated_arg_names\": [], "
			       "\"reset_to_zero_arg_names\": [], \"num_configs\": 1, "
			       "\"inductor_kernel_name\": \"triton_red_fused_0\", \"selected\": true, "
			       "\"colour\": \"red\"}", &err), 1);
	assert_int_equal(ev.kind, CAPTURE_EV_KERNEL);
	assert_string_equal(ev.kernel, "triton_red_fused_0");
	assert_string_equal(ev.source_hash, "e8ab");
	assert_null(ev.kernel_dir);
	assert_null(ev.heuristic_type);		/* a number: the enum's value */
	assert_string_equal(ev.heuristic, "reduction");
	assert_string_equal(ev.kernel_kind, "inductor");
	assert_string_equal(ev.source_kind, "inductor_module");
	assert_string_equal(ev.source_file, "/c/wq/cwq.py");
	assert_int_equal(ev.num_configs, 1);
	assert_int_equal(ev.unknown_fields, 1);	/* colour */
	assert_int_equal(ev.bad_fields, 0);
	/* a hand-written kernel's heuristic_type is a string (triton_hooks.py) */
	assert_int_equal(parse(&ev, "{\"event\": \"kernel\", \"kernel\": \"add_kernel\", "
			       "\"source_hash\": \"77\", \"kernel_dir\": \"capture/kernels/add_kernel-77\", "
			       "\"kind\": \"user_jit\", \"source_file\": null, \"selected\": false, "
			       "\"heuristic_type\": \"user_jit\", \"num_configs\": 1}", &err), 1);
	assert_string_equal(ev.heuristic_type, "user_jit");
	assert_string_equal(ev.kernel_dir, "capture/kernels/add_kernel-77");
	assert_null(ev.source_file);
	assert_null(ev.heuristic);
	assert_int_equal(ev.unknown_fields, 0);
	capture_event_release(&ev);
	buf_release(&err);
}

static void test_autotune(void **state)
{
	struct capture_event ev;
	struct buf err = BUF_INIT;
	const struct capture_ev_config *c;

	(void)state;
	capture_event_init(&ev);
	assert_int_equal(parse(&ev, "{\"schema_version\": 1, \"event\": \"autotune\", \"time\": 2.0, "
			       "\"pid\": 475, \"kernel\": \"triton_poi_fused_add_0\", \"source_hash\": \"aaaa\", "
			       "\"chosen_by\": \"benchmark\", \"configs\": [{\"kwargs\": {\"XBLOCK\": 1024}, "
			       "\"num_warps\": 4, \"num_stages\": 1, \"num_ctas\": 1, \"maxnreg\": null, "
			       "\"time_ms\": 0.0626, \"n_regs\": 30, \"n_spills\": 0, \"shared_bytes\": 0, "
			       "\"cache_hash\": \"SXTM\", \"phase\": \"benchmark\"}, {\"kwargs\": {\"XBLOCK\": 512}, "
			       "\"num_warps\": 8, \"time_ms\": null, \"cache_hash\": null}], \"best_index\": 0, "
			       "\"elapsed_ms\": 118.5, \"autotune_time_ms\": null, "
			       "\"autotune_cache_state\": null, \"optimize_mem\": true}", &err), 1);
	assert_int_equal(ev.kind, CAPTURE_EV_AUTOTUNE);
	assert_string_equal(ev.chosen_by, "benchmark");
	assert_int_equal(ev.best_index, 0);
	assert_true(fabs(ev.elapsed_ms - 118.5) < 1e-9);
	assert_int_equal(ev.nconfigs, 2);
	c = &ev.configs[0];
	assert_int_equal(json_integer_value(json_object_get(c->kwargs, "XBLOCK")), 1024);
	assert_int_equal(c->num_warps, 4);
	assert_int_equal(c->num_stages, 1);
	assert_int_equal(c->num_ctas, 1);
	assert_int_equal(c->maxnreg, -1);
	assert_true(fabs(c->time_ms - 0.0626) < 1e-12);
	assert_int_equal(c->n_regs, 30);
	assert_int_equal(c->n_spills, 0);
	assert_int_equal(c->shared_bytes, 0);
	assert_string_equal(c->cache_hash, "SXTM");
	c = &ev.configs[1];
	assert_int_equal(c->num_warps, 8);
	assert_int_equal(c->num_stages, -1);
	assert_true(isnan(c->time_ms));
	assert_null(c->cache_hash);
	assert_int_equal(ev.unknown_fields, 0);	/* a config's own keys (phase) are its business */
	assert_int_equal(ev.bad_fields, 0);
	capture_event_release(&ev);
	buf_release(&err);
}

static void test_error_and_end(void **state)
{
	struct capture_event ev;
	struct buf err = BUF_INIT;

	(void)state;
	capture_event_init(&ev);
	assert_int_equal(parse(&ev, "{\"schema_version\": 1, \"event\": \"error\", \"time\": 5.0, "
			       "\"pid\": 475, \"stage\": \"snapshot\", \"error_type\": \"ValueError\", "
			       "\"message\": \"Mixed-dtype storage aliases\", \"kernel\": \"k\", "
			       "\"source_hash\": \"bb\"}", &err), 1);
	assert_int_equal(ev.kind, CAPTURE_EV_ERROR);
	assert_string_equal(ev.stage, "snapshot");
	assert_string_equal(ev.error_type, "ValueError");
	assert_string_equal(ev.message, "Mixed-dtype storage aliases");
	assert_string_equal(ev.kernel, "k");
	assert_int_equal(parse(&ev, "{\"schema_version\": 1, \"event\": \"session_end\", \"time\": 6.0, "
			       "\"pid\": 475, \"launch_counts\": {\"triton_poi_fused_add_0\": 40, "
			       "\"gone\": null, \"triton_red_fused_sum_1\": 20}, \"exit_status\": 0}", &err), 1);
	assert_int_equal(ev.kind, CAPTURE_EV_SESSION_END);
	assert_int_equal(ev.nlaunch_counts, 2);
	assert_string_equal(ev.launch_counts[0].kernel, "triton_poi_fused_add_0");
	assert_int_equal(ev.launch_counts[0].launches, 40);
	assert_string_equal(ev.launch_counts[1].kernel, "triton_red_fused_sum_1");
	assert_int_equal(ev.launch_counts[1].launches, 20);
	assert_int_equal(ev.bad_fields, 0);
	assert_int_equal(parse(&ev, "{\"event\": \"capture\", \"kernel\": \"k\", \"source_hash\": \"bb\", "
			       "\"kernel_dir\": \"capture/kernels/k-bb\", \"inputs_bytes\": 4096}", &err), 1);
	assert_int_equal(ev.kind, CAPTURE_EV_CAPTURE);
	assert_string_equal(ev.kernel_dir, "capture/kernels/k-bb");
	assert_int_equal(ev.unknown_fields, 0);
	capture_event_release(&ev);
	buf_release(&err);
}

/* template_lookup (inductor_hooks.py): the key and what it was built from; layouts a list. */
static void test_template_lookup(void **state)
{
	struct capture_event ev;
	struct buf err = BUF_INIT;

	(void)state;
	capture_event_init(&ev);
	assert_int_equal(parse(&ev, "{\"schema_version\": 1, \"event\": \"template_lookup\", "
			       "\"time\": 1.5, \"pid\": 9, \"op\": \"mm\", \"key\": "
			       "\"((torch.float16, [64, 32], [32, 1]), (torch.float16, [32, 48], [1, 32]))+mm\", "
			       "\"template_ids\": [\"aten::mm\", \"triton::mm\"], \"layouts\": "
			       "[[\"torch.float16\", [64, 32], [32, 1]], [\"torch.float16\", [32, 48], [1, 32]]]}",
			       &err), 1);
	assert_int_equal(ev.kind, CAPTURE_EV_TEMPLATE_LOOKUP);
	assert_string_equal(ev.op, "mm");
	assert_string_equal(ev.key, "((torch.float16, [64, 32], [32, 1]), "
			    "(torch.float16, [32, 48], [1, 32]))+mm");
	assert_int_equal(json_array_size(ev.template_ids), 2);
	assert_string_equal(json_string_value(json_array_get(ev.template_ids, 1)), "triton::mm");
	assert_int_equal(json_array_size(ev.layouts), 2);
	assert_int_equal(ev.unknown_fields, 0);
	assert_int_equal(ev.bad_fields, 0);
	assert_int_equal(parse(&ev, "{\"event\": \"template_lookup\", \"op\": \"mm\", "
			       "\"layouts\": {}}", &err), 1);
	assert_null(ev.layouts);
	assert_int_equal(ev.bad_fields, 1);
	assert_string_equal(ev.bad_field, "'e.jsonl' line 7: template_lookup: layouts: not a list");
	capture_event_release(&ev);
	buf_release(&err);
}

/* Events of a type or version this tko does not know: kept by type, nothing else read. */
static void test_other(void **state)
{
	struct capture_event ev;
	struct buf err = BUF_INIT;

	(void)state;
	capture_event_init(&ev);
	assert_int_equal(parse(&ev, "{\"schema_version\": 1, \"event\": \"gpu_temperature\", "
			       "\"celsius\": 61}", &err), 1);
	assert_int_equal(ev.kind, CAPTURE_EV_OTHER);
	assert_string_equal(ev.type, "gpu_temperature");
	assert_int_equal(ev.unknown_fields, 0);
	assert_int_equal(parse(&ev, "{\"schema_version\": 2, \"event\": \"kernel\", "
			       "\"kernel\": \"from_the_future\"}", &err), 1);
	assert_int_equal(ev.kind, CAPTURE_EV_OTHER);
	assert_string_equal(ev.type, "kernel");
	assert_int_equal(ev.schema_version, 2);
	assert_null(ev.kernel);
	capture_event_release(&ev);
	buf_release(&err);
}

/* A field of the wrong type: the event stands, the field is unknown, the first one said. */
static void test_wrong_types(void **state)
{
	struct capture_event ev;
	struct buf err = BUF_INIT;

	(void)state;
	capture_event_init(&ev);
	assert_int_equal(parse(&ev, "{\"event\": \"kernel\", \"kernel\": \"k\", \"num_configs\": \"2\", "
			       "\"source_file\": 5}", &err), 1);
	assert_int_equal(ev.kind, CAPTURE_EV_KERNEL);
	assert_string_equal(ev.kernel, "k");
	assert_int_equal(ev.num_configs, -1);
	assert_null(ev.source_file);
	assert_int_equal(ev.bad_fields, 2);
	assert_string_equal(ev.bad_field, "'e.jsonl' line 7: kernel: num_configs: not an integer");
	assert_int_equal(err.len, 0);
	assert_int_equal(parse(&ev, "{\"event\": \"session_start\", \"device\": {\"name\": \"x\", "
			       "\"warp_size\": \"32\"}}", &err), 1);
	assert_string_equal(ev.bad_field, "'e.jsonl' line 7: session_start: device.warp_size: not an integer");
	assert_string_equal(ev.device.name, "x");
	assert_int_equal(ev.device.warp_size, -1);
	assert_int_equal(parse(&ev, "{\"event\": \"autotune\", \"configs\": [{\"num_warps\": 4}, 7, "
			       "{\"time_ms\": \"fast\"}], \"best_index\": 1.0}", &err), 1);
	assert_int_equal(ev.nconfigs, 3);	/* an entry that is no object is a config of unknowns */
	assert_int_equal(ev.configs[1].num_warps, -1);
	assert_true(isnan(ev.configs[2].time_ms));
	assert_int_equal(ev.best_index, 1);	/* a number, truncated, as json_int read it */
	assert_int_equal(ev.bad_fields, 2);
	assert_string_equal(ev.bad_field, "'e.jsonl' line 7: autotune: configs[1]: not an object");
	assert_int_equal(parse(&ev, "{\"event\": \"autotune\", \"configs\": {}}", &err), 1);
	assert_string_equal(ev.bad_field, "'e.jsonl' line 7: autotune: configs: not a list");
	assert_int_equal(parse(&ev, "{\"event\": \"session_end\", \"launch_counts\": {\"k\": \"many\"}}",
			       &err), 1);
	assert_int_equal(ev.nlaunch_counts, 0);
	assert_string_equal(ev.bad_field, "'e.jsonl' line 7: session_end: launch_counts: a count that is not an integer");
	assert_int_equal(parse(&ev, "{\"event\": \"error\", \"schema_version\": \"1\", \"stage\": [\"x\"]}",
			       &err), 1);
	assert_int_equal(ev.kind, CAPTURE_EV_ERROR);	/* read as version 1, as before */
	assert_int_equal(ev.bad_fields, 2);
	assert_string_equal(ev.bad_field, "'e.jsonl' line 7: error: schema_version: not an integer");
	capture_event_release(&ev);
	buf_release(&err);
}

static void assert_not_event(const char *p, size_t n, const char *words)
{
	struct capture_event ev;
	struct buf err = BUF_INIT;

	capture_event_init(&ev);
	assert_int_equal(parse_n(&ev, p, n, &err), -1);
	assert_string_equal(err.buf, words);
	assert_null(ev.type);
	capture_event_release(&ev);
	buf_release(&err);
}

static void test_not_events(void **state)
{
	static const char nul[] = "{\"event\": \0}";
	static const char latin1[] = "{\"event\": \"caf\xe9\"}";
	struct capture_event ev;
	struct buf err = BUF_INIT;

	(void)state;
	capture_event_init(&ev);
	assert_int_equal(parse(&ev, "", &err), 0);
	assert_int_equal(parse(&ev, " \t ", &err), 0);
	assert_int_equal(err.len, 0);
	capture_event_release(&ev);
	buf_release(&err);
	assert_not_event(nul, sizeof(nul) - 1, "'e.jsonl' line 7: binary, not text (NUL byte at column 11)");
	assert_not_event(latin1, sizeof(latin1) - 1,
			 "'e.jsonl' line 7: not UTF-8 text (invalid byte at column 15)");
	assert_not_event("this is not json", 16,
			 "'e.jsonl' line 7: not JSON ('[' or '{' expected near 'this')");
	assert_not_event("[1, 2]", 6, "'e.jsonl' line 7: not an event (no JSON object with a string \"event\")");
	assert_not_event("{\"event\": 5}", 12,
			 "'e.jsonl' line 7: not an event (no JSON object with a string \"event\")");
}

struct seen {
	int status[8];
	int cut_off[8];
	char type[8][16];
	char error[8][160];
	int n;
};

static void note_line(const struct capture_line *l, void *data)
{
	struct seen *s = data;
	int i = (int)l->line - 1;

	assert_int_equal(l->line, s->n + 1);	/* every line, in order */
	s->n++;
	s->status[i] = l->status;
	s->cut_off[i] = l->cut_off;
	if (l->status > 0)
		snprintf(s->type[i], sizeof(s->type[i]), "%s", l->ev->type);
	if (l->status < 0)
		snprintf(s->error[i], sizeof(s->error[i]), "%s", l->error);
}

/* The lines of a file: blank, events, a bad line, and the last line cut off mid-write. */
static void test_each(void **state)
{
	static const char text[] =
		"{\"event\": \"session_start\"}\n"
		"\n"
		"{\"event\": \"kernel\", \"kernel\": \"k\"}\n"
		"oops\n"
		"{\"event\": \"launch\", \"kern";
	struct seen s;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(capture_events_each("ev.jsonl", text, sizeof(text) - 1, note_line, &s), 5);
	assert_int_equal(s.n, 5);
	assert_int_equal(s.status[0], 1);
	assert_string_equal(s.type[0], "session_start");
	assert_int_equal(s.status[1], 0);
	assert_int_equal(s.status[2], 1);
	assert_string_equal(s.type[2], "kernel");
	assert_int_equal(s.status[3], -1);
	assert_int_equal(s.cut_off[3], 0);
	assert_string_equal(s.error[3], "'ev.jsonl' line 4: not JSON ('[' or '{' expected near 'oops')");
	assert_int_equal(s.status[4], -1);
	assert_int_equal(s.cut_off[4], 1);
	assert_non_null(strstr(s.error[4], "'ev.jsonl' line 5: "));
	assert_non_null(strstr(s.error[4], "; the last line, cut off mid-write"));
	/* a last line without its newline that is whole is an event */
	memset(&s, 0, sizeof(s));
	assert_int_equal(capture_events_each("ev.jsonl", "{\"event\": \"x\"}", 14, note_line, &s), 1);
	assert_int_equal(s.status[0], 1);
	assert_string_equal(s.type[0], "x");
}

static void test_each_file(void **state)
{
	static const char text[] = "{\"event\": \"capture\"}\n{\"event\": \"error\"}\n";
	char path[] = "/tmp/test-model-capture-events-XXXXXX";
	int fd = mkstemp(path);
	struct buf err = BUF_INIT;
	struct seen s;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)(sizeof(text) - 1));
	close(fd);
	assert_int_equal(capture_events_each_file(path, note_line, &s, &err), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.type[1], "error");
	unlink(path);
	assert_int_equal(capture_events_each_file(path, note_line, &s, &err), -1);
	assert_non_null(strstr(err.buf, path));
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_session_start),
		cmocka_unit_test(test_kernel),
		cmocka_unit_test(test_autotune),
		cmocka_unit_test(test_error_and_end),
		cmocka_unit_test(test_template_lookup),
		cmocka_unit_test(test_other),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_not_events),
		cmocka_unit_test(test_each),
		cmocka_unit_test(test_each_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
