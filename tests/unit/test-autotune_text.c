/* Unit tests for report/autotune_text: the terminal and Markdown views. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "autotune-test.h"
#include "parse/tconfig.h"
#include "report/autotune_text.h"

static const char log_text[] =
	"Benchmark all input configs for k_0, get:\n"
	"XBLOCK: 1024, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None: 0.051744, nreg 30, nspill 0, #shared-mem 0\n"
	"XBLOCK: 512, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: 128: 0.055840, nreg 20, nspill 2, #shared-mem 0\n"
	"Best config for k_0: XBLOCK: 1024, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None: 0.051744, nreg 30, nspill 0, #shared-mem 0\n"
	"AUTOTUNE mm(8x8, 8x8)\n"
	"  mm 0.0100 ms 100.0% \n";

static char *render(const struct autotune_set *s, const struct at_kernel *k, int md)
{
	char *out = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&out, &n);

	autotune_text_print(fp, s, k, md);
	fclose(fp);
	return out;
}

static void test_brief(void **state)
{
	struct at_src src = { 0, 1, AT_FMT_MAX_AUTOTUNE };
	const char *text = "ACC_TYPE='tl.float32', BLOCK_K=64, EVEN_K=True, num_stages=5, num_warps=8";
	struct at_config c;
	struct buf b = BUF_INIT;

	(void)state;
	at_config_init(&c, src);
	assert_int_equal(tconfig_parse(&c, text, strlen(text)), 0);
	c.label = strdup("triton_mm_18");
	c.maxnreg = 128;
	at_config_brief(&b, &c);
	assert_string_equal(b.buf, "triton_mm_18 BLOCK_K=64 w8 s5 r128");
	buf_release(&b);
	at_config_release(&c);
}

static void test_summary_and_markdown(void **state)
{
	struct autotune_set set;
	char *s;

	(void)state;
	autotune_set_init(&set);
	scan_text(&set, log_text);
	s = render(&set, NULL, 0);
	assert_non_null(strstr(s, "kernel        kind          configs  timed  best config"));
	assert_non_null(strstr(s, "k_0           -                   -      2  XBLOCK=1024 w4 s1  0.051744    30"));
	assert_non_null(strstr(s, "test.log  inductor_log+max_autotune      6     6        0          0"));
	free(s);
	s = render(&set, NULL, 1);
	assert_non_null(strstr(s, "# tko summarize\n"));
	assert_non_null(strstr(s, "| kernel | kind | configs | timed | best config |"));
	assert_non_null(strstr(s, "| k_0 | - | - | 2 | XBLOCK=1024 w4 s1 | 0.051744 | 30 | 0 | 0 | benchmark | - |"));
	assert_non_null(strstr(s, "## k_0\n"));
	assert_non_null(strstr(s, "|  | XBLOCK=512 w8 s1 r128 | 0.055840 | - | 20 | 2 | 0 | 3 |"));
	assert_non_null(strstr(s, "## Inputs\n"));
	free(s);
	s = render(&set, kernel_by_id(&set, "mm(8x8, 8x8)"), 0);
	assert_non_null(strstr(s, "kernel: mm(8x8, 8x8)\nkind: max_autotune\n"));
	assert_non_null(strstr(s, "tuning 1: max_autotune (incomplete) (test.log:5)"));
	assert_non_null(strstr(s, "*  mm      0.010000"));
	free(s);
	autotune_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_brief),
		cmocka_unit_test(test_summary_and_markdown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
