/*
 * Unit tests for report/tune_text: a refused kernel's one line, and the
 * table row of a timed base variant, its figures worked out by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/tune_text.h"
#include "util/mem.h"
#include "tune-test.h"

static char *kernel_text(const struct tune_sweep *s, int md)
{
	char *out = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&out, &n);

	assert_non_null(fp);
	tune_text_kernel(fp, s, md);
	fclose(fp);
	return out;
}

static void sweep(struct tune_sweep *s, struct tune_opts *o)
{
	memset(s, 0, sizeof(*s));
	memset(o, 0, sizeof(*o));
	s->o = o;
	s->ws.arg = -1;
	s->winner = -1;
	s->plan.base = s->plan.best = -1;
	s->num_gb = -1;
	s->arch = target_find("sm_90");
	tune_kernel_init(&s->k);
	s->k.name = xstrdup("triton_poi_fused_0");
	s->k.kind = TUNE_KIND_POINTWISE;
	add_arg(&s->k, "in_ptr0", "*fp32");
	add_arg(&s->k, "XBLOCK", "constexpr");
}

static void release(struct tune_sweep *s)
{
	tune_results_release(&s->res);
	tune_plan_release(&s->plan);
	tune_kernel_release(&s->k);
	free(s->refused);
}

static void test_refused(void **state)
{
	struct tune_sweep s;
	struct tune_opts o;
	char *text;

	(void)state;
	sweep(&s, &o);
	s.k.kind = TUNE_KIND_OTHER;
	s.refused = xstrdup("tko does not know it");
	text = kernel_text(&s, 0);
	assert_string_equal(text, "triton_poi_fused_0 (other) on sm_90: not tuned: "
			    "tko does not know it\n\n");
	free(text);
	text = kernel_text(&s, 1);
	assert_string_equal(text, "## triton_poi_fused_0 (other) on sm_90: not tuned: "
			    "tko does not know it\n\n");
	free(text);
	release(&s);
}

/*
 * The base timed at 2 ms, moving Inductor's 0.004 GB: 4e6 B / 2 ms =
 * 2 GB/s, an estimate (no capture counted the bytes); no peak; 1.00x.
 */
static void test_table_row(void **state)
{
	struct tune_plan_opts po = TUNE_PLAN_OPTS_INIT;
	struct tune_sweep s;
	struct tune_opts o;
	struct tune_config c;
	struct tune_result *r;
	struct table t = TABLE_INIT;
	struct buf err = BUF_INIT;
	char *out = NULL, *want;
	size_t n = 0, i;
	FILE *fp;

	(void)state;
	sweep(&s, &o);
	s.num_gb = 0.004;
	assert_int_equal(tune_plan_init(&s.plan, &s.k, s.arch, &po, &err), 0);
	tune_config_default(&s.plan.space, &s.k, &c);
	tune_plan_add_base(&s.plan, &c, TUNE_FROM_DEFAULT, -1);
	s.plan.v[0].done = 1;
	for (i = 1; i < s.plan.nr; i++)
		s.plan.v[i].done = 0;
	s.winner = 0;
	r = tune_results_at(&s.res, 0);
	r->status = TUNE_ST_OK;
	r->time_ms = 2.0;
	r->compile_ms = 150;
	r->shared_bytes = -1;
	tune_text_table(&s, &t);
	assert_int_equal(table_rows(&t), 1);
	fp = open_memstream(&out, &n);
	table_print_md(&t, fp);
	fclose(fp);
	want = xstrfmt("| v000* | %s | ok | 2.0000 | 2 est. | - | 1.00x | 150 | - | yes | - |",
		       s.plan.v[0].label);
	assert_non_null(strstr(out, want));
	free(want);
	free(out);
	table_release(&t);
	buf_release(&err);
	release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_table_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
