/*
 * Unit tests for report/tune_text: the text rendered from a tune.json
 * kernel entry (model/tune.h) written by hand below: a refused kernel's
 * one line, and a timed kernel's whole Markdown section (rows, failure
 * notes, the doubt over a rate, the confirmation and what applying the
 * winner takes), every line of the expected text written out by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/tune_text.h"

static char *kernel_text(const struct tune_doc_kernel *k, int compile_only, int md)
{
	char *out = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&out, &n);

	assert_non_null(fp);
	tune_text_kernel(fp, k, compile_only, md);
	fclose(fp);
	return out;
}

static void read_kernel(struct tune_doc_kernel *k, const char *text)
{
	struct buf err = BUF_INIT;
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);

	if (!j)
		fail_msg("test entry does not parse: %s", e.text);
	rf_init(&tune_doc_kernel_desc, k);
	if (rf_read(&tune_doc_kernel_desc, k, j, "tune.json", &err) < 0)
		fail_msg("%s", err.buf);
	json_decref(j);
	buf_release(&err);
}

static void test_refused(void **state)
{
	struct tune_doc_kernel k;
	char *text;

	(void)state;
	read_kernel(&k, "{\"kernel\": \"triton_poi_fused_0\", \"kind\": \"other\", \"target\": \"sm_90\","
		    " \"plan\": \"refused\", \"plan_note\": \"tko does not know it\"}");
	text = kernel_text(&k, 0, 0);
	assert_string_equal(text, "triton_poi_fused_0 (other) on sm_90: not tuned: "
			    "tko does not know it\n\n");
	free(text);
	text = kernel_text(&k, 0, 1);
	assert_string_equal(text, "## triton_poi_fused_0 (other) on sm_90: not tuned: "
			    "tko does not know it\n\n");
	free(text);
	rf_release(&tune_doc_kernel_desc, &k);
}

/*
 * v000 moved 500 GB/s of a 1000 GB/s copy rate (50%); v001's 1100 GB/s is
 * over it, so bracketed with its doubt; the bytes were counted (no "est.").
 */
static const char timed[] =
	"{\"kernel\": \"triton_poi_fused_0\", \"kind\": \"pointwise\", \"target\": \"sm_90\","
	" \"out_dir\": \"/o\", \"base_from\": \"the autotuned config\", \"plan\": \"search\","
	" \"stopped\": \"budget\", \"bytes_estimate\": false, \"peak_gbps\": 1000.0,"
	" \"variants\": ["
	"  {\"id\": \"v000\", \"label\": \"base\", \"status\": \"ok\", \"time_ms\": 2.0,"
	"   \"gbps\": 500.0, \"speedup\": 1.0, \"compile_ms\": 150.0, \"shared_bytes\": 0,"
	"   \"isa_text\": \"vgpr 32\"},"
	"  {\"id\": \"v001\", \"label\": \"XBLOCK=2048\", \"status\": \"ok\", \"time_ms\": 1.0,"
	"   \"gbps\": 1100.0, \"rate_doubt\": \"L2-resident reuse\", \"speedup\": 2.0,"
	"   \"compile_ms\": 90.0, \"isa_text\": \"same\"},"
	"  {\"id\": \"v002\", \"label\": \"+hints\", \"status\": \"compile_error\","
	"   \"error\": \"boom\", \"error_explained\": \"a known Triton bug\"},"
	"  {\"id\": \"v003\", \"label\": \"+ptr32\", \"status\": \"duplicate\", \"same_as\": \"v000\"}],"
	" \"winner\": {\"id\": \"v001\", \"label\": \"XBLOCK=2048\", \"inductor_settings\":"
	"   {\"triton.mix_order_reduction_split_size\": 8, \"online_softmax\": false},"
	"   \"confirmation\": {\"candidate\": \"v001\", \"candidate_label\": \"XBLOCK=2048\","
	"    \"rounds\": 7, \"accepted\": true, \"reason\": \"faster beyond the noise\","
	"    \"sweep_speedup\": 2.0, \"ratio\": 1.95, \"ci95\": [1.9, 2.0],"
	"    \"vs_config_only\": {\"id\": \"v004\", \"ratio\": 1.5, \"ci95\": [1.25, 1.75],"
	"     \"vs_base\": {\"ratio\": 1.3, \"ci95\": [1.2, 1.4]}}}}}";

static const char timed_md[] =
	"## triton_poi_fused_0 (pointwise) on sm_90: base from the autotuned config\n"
	"\n"
	"| id | variant | status | time ms | GB/s | peak | vs base | compile ms | shared B | correct | ISA vs base |\n"
	"| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n"
	"| v000 | base | ok | 2.0000 | 500 | 50% | 1.00x | 150 | 0 | yes | vgpr 32 |\n"
	"| v001* | XBLOCK=2048 | ok | 1.0000 | (1100) | over copy | 2.00x | 90 | - | yes | same |\n"
	"| v002 | +hints | compile_error | - | - | - | - | - | - | - | - |\n"
	"| v003 | +ptr32 | duplicate | - | - | - | - | - | - | - | - |\n"
	"\n"
	"GB/s in brackets is over 105% of the copy rate, not a fact: L2-resident reuse\n"
	"v002 compile_error: boom\n"
	"     known failure: a known Triton bug\n"
	"v003 compiled to the same ISA as v000 (line info aside): not timed\n"
	"\n"
	"stopped at the budget limit with variants left to try\n"
	"\n"
	"winner: v001 XBLOCK=2048; files in /o/winner/\n"
	"\n"
	"confirmation of v001 (XBLOCK=2048, sweep 2.00x): 1.950x [1.900, 2.000] over the base in"
	" 7 rounds, 1.500x [1.250, 1.750] over the config-only v004 (1.300x [1.200, 1.400] over"
	" the base); accepted: faster beyond the noise\n"
	"\n"
	"RSPLIT_SIZE is Inductor's codegen choice: apply it with"
	" torch._inductor.config.triton.mix_order_reduction_split_size = 8"
	" (every mix-order reduction of the graph)\n"
	"\n"
	"twopass is the softmax Inductor emits with torch._inductor.config.online_softmax = False"
	" (TORCHINDUCTOR_ONLINE_SOFTMAX=0): apply that, or the winner's kernel.py\n"
	"\n";

static void test_timed_kernel(void **state)
{
	struct tune_doc_kernel k;
	char *text;

	(void)state;
	read_kernel(&k, timed);
	text = kernel_text(&k, 0, 1);
	assert_string_equal(text, timed_md);
	free(text);
	/* compile-only: no correctness, the variants' folder instead of a winner */
	text = kernel_text(&k, 1, 0);
	assert_non_null(strstr(text, "  n/a "));
	assert_non_null(strstr(text, "compile-only: no timings; each variant's source and ISA are in"
				     " /o/variants/\n"));
	assert_null(strstr(text, "winner: "));
	free(text);
	rf_release(&tune_doc_kernel_desc, &k);
}

/* No winner, no confirmation: one line says so. */
static void test_no_winner(void **state)
{
	struct tune_doc_kernel k;
	char *text;

	(void)state;
	read_kernel(&k, "{\"kernel\": \"k\", \"kind\": \"reduction\", \"target\": \"gfx942\","
		    " \"base_from\": \"the default\", \"out_dir\": \"/o\", \"winner\": null,"
		    " \"variants\": [{\"id\": \"v000\", \"label\": \"base\", \"status\": \"timeout\","
		    " \"error\": \"300 s\"}]}");
	text = kernel_text(&k, 0, 0);
	assert_non_null(strstr(text, "v000  base     timeout"));
	assert_non_null(strstr(text, "\nv000 timeout: 300 s\nno variant could be timed\n\n"));
	free(text);
	rf_release(&tune_doc_kernel_desc, &k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_timed_kernel),
		cmocka_unit_test(test_no_winner),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
