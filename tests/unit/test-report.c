/*
 * Unit tests for src/report: the SVG bar chart and the writers, on a
 * small run built here (the real RUNs are rendered in the CLI tests).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/analysis.h"
#include "report/svg.h"
#include "report/writer.h"
#include "util/mem.h"

static char *render_chart(const struct svg_chart *c, const struct svg_bar *b, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	svg_bar_chart(fp, c, b, n);
	fclose(fp);
	return text;
}

static size_t count(const char *s, const char *needle)
{
	size_t n = 0;

	for (; (s = strstr(s, needle)); s++)
		n++;
	return n;
}

static void test_svg(void **state)
{
	struct svg_bar bars[] = {
		{ "a<b>&\"c\"", 50, "50%", 0 },
		{ "second", 25, "25%", 1 },
		{ "unknown", NAN, "-", 0 },
	};
	struct svg_chart c = SVG_CHART_INIT;
	char *s;

	(void)state;
	c.id = "x";
	c.title = "T";
	c.ref = 80;
	c.ref_label = "peak 80";
	s = render_chart(&c, bars, 3);
	assert_int_equal(count(s, "<rect "), 2);	/* no bar for an unknown value */
	assert_int_equal(count(s, "class=\"bar hl\""), 1);
	assert_non_null(strstr(s, "a&lt;b&gt;&amp;&quot;c&quot;"));
	assert_null(strstr(s, "a<b>"));
	assert_int_equal(count(s, "<line class=\"ref\""), 1);
	free(s);
}

static char *render(const struct an_run *r, const struct report_writer *w)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	report_write(r, w, fp);
	fclose(fp);
	return text;
}

static void test_writers(void **state)
{
	struct an_run r;
	struct an_kernel *k;
	char *md, *html, *json;

	(void)state;
	an_run_init(&r);
	r.run = xstrdup("RUN<1>");
	r.share_method = xstrdup("share = launches x time");
	r.tko_version = xstrdup("0");
	k = an_run_add_kernel(&r);
	k->id = xstrdup("k1");
	k->name = xstrdup("k1");
	k->decision = DECISION_TUNE;
	k->action = xstrdup("tune it: try XBLOCK first");
	k->share = 1.0;
	k->time_ms = 0.5;
	k->launches = 1;
	k->rank = 1;
	md = render(&r, &report_markdown);
	html = render(&r, &report_html);
	json = render(&r, &report_json);
	assert_non_null(strstr(md, "| 1 | [k1](#k1) |"));
	assert_non_null(strstr(md, "**Decision: tune.** tune it: try XBLOCK first."));
	assert_non_null(strstr(html, "<title>tko report: RUN&lt;1&gt;</title>"));
	assert_non_null(strstr(html, "<table id=\"kernels\""));
	assert_non_null(strstr(html, "id=\"chart-share\""));
	assert_null(strstr(html, "<link"));
	assert_null(strstr(html, " src="));
	assert_non_null(strstr(json, "\"tool\": \"tko report\""));
	free(md);
	free(html);
	free(json);
	an_run_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_writers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
