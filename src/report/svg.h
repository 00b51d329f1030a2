/*
 * svg: the charts of the HTML report, drawn by tko as inline SVG (no
 * script, no external file): horizontal bar charts with labels, values,
 * an optional reference line (the measured peak) and a highlighted bar
 * (the chosen config). Text is escaped for XML.
 *
 *	struct svg_bar bars[] = { { "triton_poi_...", 72.3, "72.3%", 0 }, ... };
 *	struct svg_chart c = SVG_CHART_INIT;
 *	c.id = "share"; c.title = "Share of GPU time"; c.unit = "%";
 *	svg_bar_chart(fp, &c, bars, n);
 */
#ifndef TKO_REPORT_SVG_H
#define TKO_REPORT_SVG_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

struct svg_bar {
	const char *label;	/* left of the bar (truncated to fit) */
	double value;		/* bar length in axis units; NAN: no bar */
	const char *text;	/* printed right of the bar */
	int highlight;		/* drawn in the highlight colour */
};

struct svg_chart {
	const char *id;		/* the <svg> element's id */
	const char *title;	/* <title> and the heading above the bars */
	const char *unit;	/* axis unit ("%", "GB/s", "ms") */
	double ref;		/* a vertical reference line at this value, NAN: none */
	const char *ref_label;	/* its label ("peak 4243 GB/s") */
};
#define SVG_CHART_INIT { "chart", "", "", NAN, NULL }

void svg_bar_chart(FILE *fp, const struct svg_chart *c, const struct svg_bar *bars, size_t n);

/* Writes s with &, <, >, " and ' escaped. */
void xml_escape(FILE *fp, const char *s);

#endif
