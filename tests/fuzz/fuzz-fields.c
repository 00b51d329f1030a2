/*
 * Fuzzes the small field readers every text parser leans on: key/value
 * lines and words (env/fields.c), the glog prefix (parse/glog.c), Triton
 * config text and timings (parse/tconfig.c) and the whole-span numbers.
 */
#include "fuzz.h"
#include "env/fields.h"
#include "parse/autotune.h"
#include "parse/glog.h"
#include "parse/tconfig.h"
#include "banned.h"

static void fields(const char *s, size_t n)
{
	const char *k, *v, *w;
	size_t kn, vn, wn, pos = 0, words = 0;
	double d;

	field_split(s, n, &k, &kn, &v, &vn);
	field_leading_long(s, n, -1);
	field_leading_double(s, n, &d);
	while (words++ < 256 && field_next_word(s, n, &pos, &w, &wn))
		field_eq_nocase(w, wn, "gfx936");
	field_find_nocase(s, n, "name:");
}

static void numbers(const char *s, size_t n)
{
	double d;
	long l;

	span_double(s, n, &d);
	span_long(s, n, &l);
	span_lead_double(s, n, &d);
	span_long_or_none(s, n, &l);
	span_rfind(s, n, "ms");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct at_src src = { 0, 1, AT_FMT_TRITON_PRINT };
	struct glog_line g;
	struct at_config c;

	fields(s, size);
	numbers(s, size);
	glog_split(s, size, &g);
	at_config_init(&c, src);
	tconfig_parse(&c, s, size);
	at_config_release(&c);
	at_config_init(&c, src);
	tconfig_timed(&c, s, size);
	at_config_release(&c);
	return 0;
}
