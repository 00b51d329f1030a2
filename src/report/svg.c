/* Inline SVG bar charts (svg.h). Sizes are in SVG user units (pixels). */
#include <math.h>
#include <string.h>

#include "report/svg.h"
#include "banned.h"

enum {
	LABEL_W = 330,		/* label column */
	BAR_W = 380,		/* longest bar */
	TEXT_W = 170,		/* value text right of the bars */
	ROW_H = 20,		/* one bar */
	TOP = 26,		/* title and reference label */
	LABEL_CHARS = 46,	/* labels are cut to this many characters (about LABEL_W at 12px) */
};

void xml_escape(FILE *fp, const char *s)
{
	static const char *const ent[256] = {
		['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&#39;",
	};

	for (; *s; s++) {
		const char *e = ent[(unsigned char)*s];

		if (e)
			fputs(e, fp);
		else
			fputc(*s, fp);
	}
}

/* The label, cut at LABEL_CHARS bytes on a UTF-8 boundary with an ellipsis. */
static void put_label(FILE *fp, const char *s)
{
	char cut[LABEL_CHARS + 8];
	size_t n = strlen(s);

	if (n <= LABEL_CHARS) {
		xml_escape(fp, s);
		return;
	}
	n = LABEL_CHARS - 1;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	memcpy(cut, s, n);
	memcpy(cut + n, "\xe2\x80\xa6", 4);
	xml_escape(fp, cut);
}

static double axis_max(const struct svg_chart *c, const struct svg_bar *bars, size_t n)
{
	double m = isnan(c->ref) ? 0 : c->ref;
	size_t i;

	for (i = 0; i < n; i++)
		if (!isnan(bars[i].value) && bars[i].value > m)
			m = bars[i].value;
	return m > 0 ? m * 1.05 : 1;
}

static void bar_row(FILE *fp, const struct svg_bar *b, size_t row, double max)
{
	double y = TOP + (double)row * ROW_H, w = isnan(b->value) ? 0 : b->value / max * BAR_W;

	fprintf(fp, "<g class=\"row\"><text class=\"label\" x=\"%d\" y=\"%.1f\">", LABEL_W - 6,
		y + 14);
	put_label(fp, b->label);
	fputs("<title>", fp);
	xml_escape(fp, b->label);
	fputs("</title></text>", fp);
	if (w > 0)
		fprintf(fp, "<rect class=\"%s\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\"/>",
			b->highlight ? "bar hl" : "bar", LABEL_W, y + 3, w < 1 ? 1 : w, ROW_H - 6);
	fprintf(fp, "<text class=\"value\" x=\"%.1f\" y=\"%.1f\">", LABEL_W + w + 5, y + 14);
	xml_escape(fp, b->text ? b->text : "");
	fputs("</text></g>\n", fp);
}

void svg_bar_chart(FILE *fp, const struct svg_chart *c, const struct svg_bar *bars, size_t n)
{
	double max = axis_max(c, bars, n);
	int h = TOP + (int)n * ROW_H + 8;
	size_t i;

	fputs("<svg id=\"", fp);
	xml_escape(fp, c->id);
	fprintf(fp, "\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\""
		" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"><title>",
		LABEL_W + BAR_W + TEXT_W, h, LABEL_W + BAR_W + TEXT_W, h);
	xml_escape(fp, c->title);
	fputs("</title>\n<text class=\"ctitle\" x=\"0\" y=\"14\">", fp);
	xml_escape(fp, c->title);
	if (c->unit && *c->unit) {
		fputs(" (", fp);
		xml_escape(fp, c->unit);
		fputc(')', fp);
	}
	fputs("</text>\n", fp);
	for (i = 0; i < n; i++)
		bar_row(fp, &bars[i], i, max);
	if (!isnan(c->ref)) {
		double x = LABEL_W + c->ref / max * BAR_W;

		fprintf(fp, "<line class=\"ref\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
			"<text class=\"reflabel\" x=\"%.1f\" y=\"%d\">", x, TOP - 4, x, h - 4, x + 3, TOP - 6);
		xml_escape(fp, c->ref_label ? c->ref_label : "");
		fputs("</text>\n", fp);
	}
	fputs("</svg>\n", fp);
}
