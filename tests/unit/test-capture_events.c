/*
 * Unit tests for parse/capture_events: events.jsonl lines written by hand
 * from docs/capture-events.md, with an unknown event type, unknown fields,
 * a line that is not JSON and a last line cut off mid-write.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "autotune-test.h"
#include "parse/capture_events.h"

static const char events[] =
	"{\"schema_version\": 1, \"event\": \"session_start\", \"time\": 1764689362.5, \"pid\": 475, "
	"\"argv\": [\"python\", \"demo.py\"], \"python\": \"3.12.3\", \"torch\": \"2.11.0+cu130\", "
	"\"triton\": \"3.6.0\", \"device\": {\"name\": \"NVIDIA H200\", \"backend\": \"cuda\", "
	"\"arch\": \"sm_90\", \"warp_size\": 32, \"multiprocessor_count\": 132}, \"hooks\": [\"run\"]}\n"
	"{\"schema_version\": 1, \"event\": \"kernel\", \"time\": 1.0, \"pid\": 475, "
	"\"kernel\": \"triton_poi_fused_add_0\", \"source_hash\": \"aaaa1111\", "
	"\"kernel_dir\": \"capture/kernels/triton_poi_fused_add_0-aaaa1111\", "
	"\"heuristic_type\": \"pointwise\", \"source_file\": \"/tmp/c/ab/cab.py\", "
	"\"size_hints\": {\"x\": 1024}, \"mutated_arg_names\": [], \"num_configs\": 2, \"colour\": \"red\"}\n"
	"{\"schema_version\": 1, \"event\": \"autotune\", \"time\": 2.0, \"pid\": 475, "
	"\"kernel\": \"triton_poi_fused_add_0\", \"source_hash\": \"aaaa1111\", \"chosen_by\": \"benchmark\", "
	"\"configs\": [{\"kwargs\": {\"XBLOCK\": 1024}, \"num_warps\": 4, \"num_stages\": 1, \"num_ctas\": 1, "
	"\"maxnreg\": null, \"time_ms\": 0.0626, \"n_regs\": 30, \"n_spills\": 0, \"shared_bytes\": 0, "
	"\"cache_hash\": \"SXTM\"}, {\"kwargs\": {\"XBLOCK\": 512}, \"num_warps\": 8, \"num_stages\": 1, "
	"\"num_ctas\": 1, \"maxnreg\": null, \"time_ms\": null, \"n_regs\": 13, \"n_spills\": 0, "
	"\"shared_bytes\": 0, \"cache_hash\": null}], \"best_index\": 0, \"elapsed_ms\": 118.5}\n"
	"\n"
	"{\"schema_version\": 1, \"event\": \"kernel\", \"time\": 3.0, \"pid\": 475, "
	"\"kernel\": \"triton_poi_fused_add_0\", \"source_hash\": \"bbbb2222\", \"num_configs\": 1}\n"
	"{\"schema_version\": 1, \"event\": \"launch\", \"time\": 4.0, \"pid\": 475, "
	"\"kernel\": \"triton_poi_fused_add_0\", \"source_hash\": \"aaaa1111\", \"grid\": [32768, 1, 1], "
	"\"config_index\": 0, \"args\": []}\n"
	"{\"schema_version\": 1, \"event\": \"gpu_temperature\", \"time\": 4.5, \"pid\": 475, \"celsius\": 61}\n"
	"{\"schema_version\": 2, \"event\": \"kernel\", \"kernel\": \"from_the_future\"}\n"
	"this is not json\n"
	"{\"schema_version\": 1, \"event\": \"error\", \"time\": 5.0, \"pid\": 475, \"stage\": \"snapshot\", "
	"\"error_type\": \"ValueError\", \"message\": \"Mixed-dtype storage aliases\", "
	"\"kernel\": \"triton_poi_fused_add_0\", \"source_hash\": \"bbbb2222\"}\n"
	"{\"schema_version\": 1, \"event\": \"session_end\", \"time\": 6.0, \"pid\": 475, "
	"\"launch_counts\": {\"triton_poi_fused_add_0\": 40, \"triton_red_fused_sum_1\": 20}, "
	"\"exit_status\": 0}\n"
	"{\"schema_version\": 1, \"event\": \"launch\", \"time\": 7.0, \"pid\": 475, \"kern";

static void test_events(void **state)
{
	struct autotune_set set;
	const struct at_kernel *k;
	const struct at_tuning *t;
	const struct at_input *in;
	unsigned file;

	(void)state;
	autotune_set_init(&set);
	file = at_input_add(&set, "events.jsonl");
	capture_events_read(&set, file, events, strlen(events));
	in = &set.inputs[file];
	assert_int_equal(in->lines, 12);
	assert_int_equal(in->used, 7);		/* every complete event of a known type */
	assert_int_equal(in->ignored, 3);	/* the blank line, the two unknown events */
	assert_int_equal(in->malformed, 1);
	assert_int_equal(in->bad_lines[0], 9);
	assert_int_equal(in->truncated, 1);
	assert_int_equal(in->unknown_events, 2);	/* gpu_temperature, schema 2 */
	assert_int_equal(in->unknown_fields, 1);	/* colour */
	assert_string_equal(set.device.arch, "sm_90");
	assert_int_equal(set.device.multiprocessors, 132);
	assert_string_equal(set.device.triton, "3.6.0");

	k = kernel_by_id(&set, "triton_poi_fused_add_0#1");
	assert_string_equal(k->kind, "pointwise");
	assert_string_equal(k->source_file, "/tmp/c/ab/cab.py");
	assert_int_equal(k->source_src.line, 2);
	assert_int_equal(k->source_src.fmt, AT_FMT_EVENTS);
	assert_string_equal(k->kernel_dir, "capture/kernels/triton_poi_fused_add_0-aaaa1111");
	assert_int_equal(k->num_configs, 2);
	assert_int_equal(k->launch_signatures, 1);
	t = only_tuning(k);
	assert_int_equal(t->method, AT_BENCHMARK);
	assert_int_equal(t->nr, 2);
	assert_int_equal(t->best, 0);
	assert_true(fabs(t->elapsed_ms - 118.5) < 1e-9);
	assert_string_equal(t->configs[0].kw[0].name, "XBLOCK");
	assert_string_equal(t->configs[0].kw[0].value, "1024");
	assert_int_equal(t->configs[0].n_regs, 30);
	assert_string_equal(t->configs[0].cache_hash, "SXTM");
	assert_true(isnan(t->configs[1].time_ms));
	assert_int_equal(t->configs[1].maxnreg, -1);

	k = kernel_by_id(&set, "triton_poi_fused_add_0#2");
	assert_string_equal(k->source_hash, "bbbb2222");
	assert_int_equal(k->num_configs, 1);
	assert_int_equal(k->nerrors, 1);
	assert_string_equal(k->errors[0].text, "snapshot: ValueError: Mixed-dtype storage aliases");
	assert_int_equal(k->launches, 40);
	assert_int_equal(kernel_by_id(&set, "triton_red_fused_sum_1")->launches, 20);
	assert_int_equal(autotune_set_find(&set, "from_the_future", &k), 0);
	autotune_set_release(&set);
}

/* python/tko/gpu.py's facts: tko decides the arch (on CUDA gcnArchName is the marketing name). */
static const char *arch_of_device(const char *device)
{
	static char arch[32];
	struct autotune_set set;
	char line[512];
	unsigned file;

	snprintf(line, sizeof(line), "{\"schema_version\": 1, \"event\": \"session_start\", "
		 "\"time\": 1.0, \"pid\": 1, \"device\": %s}\n", device);
	autotune_set_init(&set);
	file = at_input_add(&set, "events.jsonl");
	capture_events_read(&set, file, line, strlen(line));
	snprintf(arch, sizeof(arch), "%s", set.device.arch ? set.device.arch : "(null)");
	autotune_set_release(&set);
	return arch;
}

static void test_device_facts(void **state)
{
	(void)state;
	assert_string_equal(arch_of_device("{\"name\": \"NVIDIA H200\", \"backend\": \"cuda\", "
					   "\"gcn_arch_name\": \"NVIDIA H200\", \"capability\": [9, 0]}"),
			    "sm_90");
	assert_string_equal(arch_of_device("{\"name\": \"MI300X\", \"backend\": \"hip\", "
					   "\"gcn_arch_name\": \"gfx942:sramecc+:xnack-\", "
					   "\"capability\": [9, 4]}"), "gfx942");
	assert_string_equal(arch_of_device("{\"name\": \"x\", \"backend\": \"hip\", "
					   "\"gcn_arch_name\": null, \"capability\": [9, 4]}"), "(null)");
	/* an older capture's arch is read as it was written */
	assert_string_equal(arch_of_device("{\"name\": \"BW\", \"arch\": \"gfx936\"}"), "gfx936");
}

static void test_sniff(void **state)
{
	(void)state;
	assert_int_equal(capture_events_sniff(events, strlen(events)), 1);
	assert_int_equal(capture_events_sniff("{\"a\": 1}\n", 9), 0);
	assert_int_equal(capture_events_sniff("{\"event\": 1}\n", 13), 0);
	assert_int_equal(capture_events_sniff("V1202 \"event\" {\n", 16), 0);
	assert_int_equal(capture_events_sniff("", 0), 0);
}

/*
 * A field of the wrong type (hand-made: the hook writes a number) is read
 * as unknown, as before, and now said on the input with its line.
 */
static void test_wrong_type_noted(void **state)
{
	static const char lines[] =
		"{\"schema_version\": 1, \"event\": \"kernel\", \"kernel\": \"k\", \"num_configs\": \"2\", "
		"\"heuristic_type\": 1, \"heuristic\": \"pointwise\"}\n"
		"{\"schema_version\": 1, \"event\": \"session_end\", \"launch_counts\": {\"k\": true}}\n";
	struct autotune_set set;
	const struct at_kernel *k;
	unsigned file;

	(void)state;
	autotune_set_init(&set);
	file = at_input_add(&set, "run/capture/events.jsonl");
	capture_events_read(&set, file, lines, strlen(lines));
	assert_int_equal(set.inputs[file].used, 2);
	assert_int_equal(set.inputs[file].malformed, 0);
	k = kernel_by_id(&set, "k");
	assert_int_equal(k->num_configs, -1);
	/* HeuristicType's name, not its number (1 is persistent_reduction in torch 2.11) */
	assert_string_equal(k->kind, "pointwise");
	assert_int_equal(k->launches, -1);
	assert_string_equal(set.inputs[file].note, "2 fields of the wrong type read as unknown "
			    "(first: 'run/capture/events.jsonl' line 1: kernel: num_configs: not an integer)");
	autotune_set_release(&set);
}

#define KERNEL_EV(name, rest) \
	"{\"schema_version\": 1, \"event\": \"kernel\", \"kernel\": \"" name "\", " rest "}\n"

/*
 * An Inductor kernel's kind from HeuristicType's name, where heuristic_type
 * holds its number. The expected kinds are those of the decorators in
 * torch 2.11's runtime/triton_heuristics.py (template() and foreach() pass
 * TEMPLATE, reduction() and cooperative_reduction() REDUCTION,
 * fixed_config() FIXED) and of its kernel names (codegen/triton.py
 * define_kernel: triton_<category[:3]>_, "unk" for a decorator with no
 * category). The numbers are torch 2.11's, except triton_mm#3's: torch 2.0
 * numbered TEMPLATE 4 (SPLIT_SCAN in 2.11).
 */
static void test_heuristic_kind(void **state)
{
	static const char lines[] =
		KERNEL_EV("triton_mm", "\"source_hash\": \"a\", \"heuristic_type\": 5, "
			  "\"heuristic\": \"template\"")
		KERNEL_EV("triton_", "\"heuristic_type\": 2, \"heuristic\": \"pointwise\"")
		KERNEL_EV("triton_unk_fused_sum_0", "\"heuristic_type\": 3, \"heuristic\": \"reduction\"")
		KERNEL_EV("triton_unk_fused_add_1", "\"heuristic_type\": 7, \"heuristic\": \"fixed\"")
		KERNEL_EV("triton_for_fused_2", "\"heuristic_type\": 5, \"heuristic\": \"template\"")
		KERNEL_EV("triton_red_fused_sum_3", "\"heuristic_type\": 3, \"heuristic\": \"reduction\"")
		KERNEL_EV("triton_mm", "\"source_hash\": \"b\", \"heuristic_type\": 5")
		KERNEL_EV("triton_mm", "\"source_hash\": \"c\", \"heuristic_type\": 4, "
			  "\"heuristic\": \"template\"")
		KERNEL_EV("triton_x", "\"heuristic_type\": 8, \"heuristic\": \"combo\"")
		KERNEL_EV("k", "\"heuristic_type\": \"user_jit\", \"heuristic\": \"pointwise\"");
	struct autotune_set set;
	unsigned file;

	(void)state;
	autotune_set_init(&set);
	file = at_input_add(&set, "events.jsonl");
	capture_events_read(&set, file, lines, strlen(lines));
	assert_int_equal(set.inputs[file].used, 10);
	assert_string_equal(kernel_by_id(&set, "triton_mm#1")->kind, "template");
	assert_int_equal(kernel_by_id(&set, "triton_mm#1")->kind_src.line, 1);
	assert_string_equal(kernel_by_id(&set, "triton_")->kind, "pointwise");
	assert_string_equal(kernel_by_id(&set, "triton_unk_fused_sum_0")->kind,
			    "cooperative_reduction");
	assert_string_equal(kernel_by_id(&set, "triton_unk_fused_add_1")->kind, "fixed_config");
	/* the name tells these (summarize's finish): foreach, reduction */
	assert_null(kernel_by_id(&set, "triton_for_fused_2")->kind);
	assert_null(kernel_by_id(&set, "triton_red_fused_sum_3")->kind);
	/* a number alone says nothing: its member depends on the torch version */
	assert_null(kernel_by_id(&set, "triton_mm#2")->kind);
	assert_string_equal(kernel_by_id(&set, "triton_mm#3")->kind, "template");
	/* a member tko does not know is kept as read; tko's own string wins */
	assert_string_equal(kernel_by_id(&set, "triton_x")->kind, "combo");
	assert_string_equal(kernel_by_id(&set, "k")->kind, "user_jit");
	autotune_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_device_facts),
		cmocka_unit_test(test_sniff),
		cmocka_unit_test(test_wrong_type_noted),
		cmocka_unit_test(test_heuristic_kind),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
