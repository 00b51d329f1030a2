/*
 * The HTML report (writer.h): one self-contained file. Styles and the
 * table-sorting script are inline, charts are inline SVG drawn by svg.c,
 * and nothing is fetched (no link, no external script, image or font), so
 * the page works from a laptop's disk or an e-mail attachment.
 *
 * The kernel table sorts on a click on a column heading (the script at
 * the end of the page; cells carry their sort key in data-v). The page
 * also honours "#sort=KEY" and "#sort=KEY:desc" in its address, and
 * "#click=KEY" (a scripted click on that heading), so a headless browser
 * can check that sorting works (tests/python/test_report_html.py).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/rtext.h"
#include "report/stepview.h"
#include "report/svg.h"
#include "report/writer.h"
#include "util/mem.h"
#include "util/plural.h"
#include "banned.h"

static const char style[] =
	"body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1180px;padding:0 16px;"
	"color:#1d232a}\n"
	"h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #d0d7de;padding-bottom:3px;"
	"margin-top:28px}h3{font-size:15px}\n"
	"code,pre,.mono{font-family:ui-monospace,monospace;font-size:12.5px}\n"
	"table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #d0d7de;padding:3px 7px;"
	"vertical-align:top}\n"
	".scroll{overflow-x:auto}#kernels{font-size:13px}#kernels td.mono{word-break:break-all}\n"
	"th{background:#f3f5f7;text-align:left}th.sortable{cursor:pointer;user-select:none}\n"
	"th[aria-sort=ascending]::after{content:' \\25B2'}th[aria-sort=descending]::after{content:' \\25BC'}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	".dec{font-weight:600;padding:1px 6px;border-radius:4px}\n"
	".dec-tune{background:#dbeafe}.dec-rewrite{background:#fde2e1}.dec-keep_off{background:#fef3c7}"
	".dec-leave{background:#e6f4ea}.dec-measure{background:#eceff1}\n"
	"tr.atomic td{background:#fff1f0}tr.narrow td{background:#fff8e1}\n"
	".kernel{border-top:2px solid #d0d7de;margin-top:26px}\n"
	".facts li{margin:2px 0}.gap{color:#6b4f00}\n"
	"svg.chart text{font:12px system-ui,sans-serif;fill:#1d232a}svg.chart .label{text-anchor:end}"
	"svg.chart .ctitle{font-weight:600}\n"
	"svg.chart .bar{fill:#5b8def}svg.chart .bar.hl{fill:#e8590c}"
	"svg.chart .ref{stroke:#c92a2a;stroke-width:1.5;stroke-dasharray:4 3}"
	"svg.chart .reflabel{fill:#c92a2a}\n";

static const char script[] =
	"(function(){\n"
	"var table=document.getElementById('kernels');if(!table)return;\n"
	"var ths=table.tHead.rows[0].cells;\n"
	"function key(td,num){var v=td.getAttribute('data-v');if(v===null)v=td.textContent;\n"
	" if(v===''||v==='-')return null;if(!num)return v.toLowerCase();var f=parseFloat(v);"
	"return isNaN(f)?null:f;}\n"
	"function sortBy(col,dir){var num=ths[col].getAttribute('data-type')==='num';\n"
	" var body=table.tBodies[0];var rows=Array.prototype.slice.call(body.rows);\n"
	" rows.sort(function(a,b){var x=key(a.cells[col],num),y=key(b.cells[col],num);\n"
	"  if(x===null||y===null)return x===y?0:(x===null?1:-1);return x<y?-dir:(x>y?dir:0);});\n"
	" rows.forEach(function(r){body.appendChild(r);});\n"
	" for(var i=0;i<ths.length;i++)ths[i].removeAttribute('aria-sort');\n"
	" ths[col].setAttribute('aria-sort',dir>0?'ascending':'descending');\n"
	" table.setAttribute('data-sorted',ths[col].getAttribute('data-key')+':'+(dir>0?'asc':'desc'));}\n"
	"function col(k){for(var j=0;j<ths.length;j++)if(ths[j].getAttribute('data-key')===k)return j;"
	"return -1;}\n"
	"for(var i=0;i<ths.length;i++)(function(i){ths[i].addEventListener('click',function(){\n"
	" sortBy(i,ths[i].getAttribute('aria-sort')==='ascending'?-1:1);});})(i);\n"
	"var m=/^#sort=([a-z_]+)(?::(asc|desc))?$/.exec(location.hash);\n"
	"if(m&&col(m[1])>=0)sortBy(col(m[1]),m[2]==='desc'?-1:1);\n"
	"m=/^#click=([a-z_]+)$/.exec(location.hash);\n"
	"if(m&&col(m[1])>=0)ths[col(m[1])].click();\n"
	"})();\n";

static void esc(FILE *fp, const char *s)
{
	xml_escape(fp, s ? s : "-");
}

/* Writes b's text escaped, then resets it. */
static void put(FILE *fp, struct buf *b)
{
	xml_escape(fp, b->buf);
	buf_reset(b);
}

static void html_begin(FILE *fp, const struct an_run *r)
{
	struct buf b = BUF_INIT;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>tko report: ", fp);
	esc(fp, r->run);
	fprintf(fp, "</title>\n<style>\n%s</style>\n</head><body>\n<h1>tko report: ", style);
	esc(fp, r->run);
	fputs("</h1>\n<ul class=\"facts\">\n<li>device: ", fp);
	esc(fp, r->device ? r->device : "unknown");
	if (r->arch) {
		fputs(" (", fp);
		esc(fp, r->arch);
		fputc(')', fp);
	}
	fputs("</li>\n<li>", fp);
	rt_peak(&b, r);
	put(fp, &b);
	fputs("</li>\n", fp);
	if (r->command) {
		fputs("<li>command: <code>", fp);
		esc(fp, r->command);
		fputs("</code></li>\n", fp);
	}
	fprintf(fp, "<li>evidence read: %ld log%s, %ld kernel module%s, %ld wrapper module%s, %ld ISA"
		" file%s, %ld capture %s, %ld replay result%s, %ld tune result%s</li>\n",
		r->logs, plural(r->logs), r->modules, plural(r->modules), r->wrappers,
		plural(r->wrappers), r->isa_files, plural(r->isa_files), r->capture_dirs,
		plural_word(r->capture_dirs, "directory", "directories"), r->replays, plural(r->replays),
		r->tunes, plural(r->tunes));
	fputs("<li>how shares were computed: ", fp);
	esc(fp, r->share_method);
	fputs("</li>\n</ul>\n", fp);
	buf_release(&b);
}

struct column {
	const char *key;	/* data-key, for #sort= */
	const char *head;	/* heading */
	int num;		/* numeric sort */
};

static const struct column columns[] = {
	{ "rank", "rank", 1 }, { "kernel", "kernel", 0 }, { "kind", "kind", 0 },
	{ "share", "share", 1 }, { "launches", "launches", 1 }, { "ms", "ms/launch", 1 },
	{ "basis", "time from", 0 }, { "gbps", "GB/s", 1 }, { "peak", "of copy", 1 },
	{ "decision", "decision", 0 },
};

static void num_cell(FILE *fp, double v, struct buf *text)
{
	if (isnan(v))
		fputs("<td class=\"num\" data-v=\"\">", fp);
	else
		fprintf(fp, "<td class=\"num\" data-v=\"%.9g\">", v);
	put(fp, text);
	fputs("</td>", fp);
}

static void decision_span(FILE *fp, enum decision decision)
{
	fprintf(fp, "<span class=\"dec dec-%s\">",
		decision != DECISION_NONE ? decision_name(decision) : "none");
	esc(fp, rt_decision_title(decision));
	fputs("</span>", fp);
}

static void table_row(FILE *fp, const struct an_kernel *k)
{
	struct buf b = BUF_INIT;

	fputs("<tr>", fp);
	rt_long(&b, k->rank);
	num_cell(fp, k->rank > 0 ? (double)k->rank : NAN, &b);
	fputs("<td class=\"mono\"><a href=\"#k-", fp);
	esc(fp, k->id);
	fputs("\">", fp);
	esc(fp, k->id);
	fputs("</a></td><td>", fp);
	esc(fp, NAME_OF(kind_names, k->kind));
	fputs("</td>", fp);
	rt_pct(&b, k->share);
	num_cell(fp, k->share, &b);
	rt_long(&b, k->launches);
	num_cell(fp, (double)k->launches, &b);
	rt_ms(&b, k->time_ms);
	num_cell(fp, k->time_ms, &b);
	fputs("<td>", fp);
	esc(fp, NAME_OF(time_basis_names, k->time_basis));
	fputs("</td>", fp);
	rt_rate(&b, k);
	num_cell(fp, k->gbps, &b);
	rt_rate_fraction(&b, k);
	num_cell(fp, k->peak_fraction, &b);
	fprintf(fp, "<td data-v=\"%s\">", k->decision != DECISION_NONE ? decision_name(k->decision) : "");
	decision_span(fp, k->decision);
	fputs("</td></tr>\n", fp);
	buf_release(&b);
}

static void html_table(FILE *fp, const struct an_run *r)
{
	size_t i;

	fputs("<h2 id=\"ranking\">Kernels by share of GPU time</h2>\n<div class=\"scroll\">"
	      "<table id=\"kernels\" class=\"sortable\"><thead><tr>", fp);
	for (i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
		fprintf(fp, "<th class=\"sortable\" data-key=\"%s\"%s>%s</th>", columns[i].key,
			columns[i].num ? " data-type=\"num\"" : "", columns[i].head);
	fputs("</tr></thead>\n<tbody>\n", fp);
	for (i = 0; i < r->nkernels; i++)
		table_row(fp, &r->kernels[i]);
	fputs("</tbody></table></div>\n<p>Click a heading to sort. ", fp);
	esc(fp, RT_RATE_NOTE);
	fputs("</p>\n", fp);
}

/* Bars for the kernels that have `value` (the first `max` of them). */
static size_t gather_bars(const struct an_run *r, struct svg_bar *bars, struct buf *texts,
			  size_t max, int rate)
{
	size_t i, n = 0;

	for (i = 0; i < r->nkernels && n < max; i++) {
		const struct an_kernel *k = &r->kernels[i];
		double v = rate ? k->gbps : 100 * k->share;

		if (isnan(v))
			continue;
		if (rate) {
			rt_rate(&texts[n], k);
			buf_adds(&texts[n], " GB/s");
			if (k->rate_doubt) {
				buf_adds(&texts[n], " (over copy: ");
				buf_adds(&texts[n], k->rate_doubt);
				buf_adds(&texts[n], ")");
			} else if (!isnan(k->peak_fraction)) {
				buf_adds(&texts[n], " (");
				rt_pct(&texts[n], k->peak_fraction);
				buf_adds(&texts[n], ")");
			}
		} else {
			rt_pct(&texts[n], k->share);
			buf_adds(&texts[n], ", ");
			rt_ms(&texts[n], k->total_ms);
			buf_adds(&texts[n], " ms");
		}
		bars[n].label = k->id;
		bars[n].value = v;
		bars[n].text = texts[n].buf;
		bars[n].highlight = 0;
		n++;
	}
	return n;
}

enum { MAX_BARS = 40 };

static void html_charts(FILE *fp, const struct an_run *r)
{
	struct svg_bar bars[MAX_BARS];
	struct buf texts[MAX_BARS], peak = BUF_INIT;
	struct svg_chart c = SVG_CHART_INIT;
	size_t n, i;

	for (i = 0; i < MAX_BARS; i++)
		buf_init(&texts[i]);
	fputs("<h2 id=\"charts\">Charts</h2>\n", fp);
	stepview_html_chart(fp, r);
	n = gather_bars(r, bars, texts, MAX_BARS, 0);
	c.id = "chart-share";
	c.title = "Share of measured GPU time per kernel";
	c.unit = "%";
	svg_bar_chart(fp, &c, bars, n);
	for (i = 0; i < MAX_BARS; i++)
		buf_reset(&texts[i]);
	n = gather_bars(r, bars, texts, MAX_BARS, 1);
	c.id = "chart-rate";
	c.title = "Rate (bytes moved / time) per kernel against the measured copy rate";
	c.unit = "GB/s";
	c.ref = r->peak_gbps;
	if (!isnan(r->peak_gbps))
		buf_addf(&peak, "peak %.0f GB/s", r->peak_gbps);
	c.ref_label = peak.buf;
	svg_bar_chart(fp, &c, bars, n);
	for (i = 0; i < MAX_BARS; i++)
		buf_release(&texts[i]);
	buf_release(&peak);
}

static void config_chart(FILE *fp, const struct an_kernel *k)
{
	struct svg_bar bars[MAX_BARS];
	struct buf texts[MAX_BARS], labels[MAX_BARS];
	struct svg_chart c = SVG_CHART_INIT;
	size_t i, n = 0;
	char *id;

	for (i = 0; i < k->nconfigs && n < MAX_BARS; i++) {
		const struct an_config *cf = &k->configs[i];
		double ms = !isnan(cf->replay_ms) ? cf->replay_ms : cf->time_ms;

		if (isnan(ms))
			continue;
		buf_init(&texts[n]);
		buf_init(&labels[n]);
		buf_addf(&labels[n], "%s%s%s", cf->label ? cf->label : "", cf->label ? " " : "",
			 cf->text);
		rt_ms(&texts[n], ms);
		buf_addf(&texts[n], " ms%s", !isnan(cf->replay_ms) ? " (replay)" : "");
		bars[n].label = labels[n].buf;
		bars[n].value = ms;
		bars[n].text = texts[n].buf;
		bars[n].highlight = cf->chosen;
		n++;
	}
	if (!n)
		return;
	id = xstrfmt("configs-%s", k->id);
	c.id = id;
	c.title = "Config timings (chosen in orange)";
	c.unit = "ms";
	svg_bar_chart(fp, &c, bars, n);
	free(id);
	for (i = 0; i < n; i++) {
		buf_release(&texts[i]);
		buf_release(&labels[i]);
	}
}

static void para(FILE *fp, const char *label, struct buf *b)
{
	fprintf(fp, "<p><b>%s</b> ", label);
	put(fp, b);
	fputs("</p>\n", fp);
}

static void html_rules(FILE *fp, const struct an_kernel *k)
{
	struct buf b = BUF_INIT;
	size_t i;

	fputs("<p>Rules that fired (the first decides):</p>\n<ul class=\"rules\">\n", fp);
	for (i = 0; i < k->nfired; i++) {
		const struct an_fired *f = &k->fired[i];

		fputs("<li><code>", fp);
		esc(fp, f->rule);
		fputs("</code> (", fp);
		esc(fp, decision_name(f->decision));
		fputs("): ", fp);
		esc(fp, f->why ? f->why : "");
		rt_evidence(&b, f);
		if (b.len) {
			fputs(" <span class=\"mono\">[", fp);
			put(fp, &b);
			fputs("]</span>", fp);
		}
		fputs("</li>\n", fp);
	}
	fputs("</ul>\n", fp);
	buf_release(&b);
}

static void html_origin(FILE *fp, const struct an_kernel *k)
{
	struct buf b = BUF_INIT;
	size_t i;

	fputs("<p><b>Where it came from.</b> ", fp);
	for (i = 0; i < k->naten; i++) {
		fputs(i ? ", <code>" : "ATen: <code>", fp);
		esc(fp, k->aten[i]);
		fputs("</code>", fp);
	}
	for (i = 0; i < k->nnodes; i++) {
		fputs(i ? ", <code>" : (k->naten ? ". FX nodes: <code>" : "FX nodes: <code>"), fp);
		esc(fp, k->nodes[i]);
		fputs("</code>", fp);
	}
	fputs(k->naten || k->nnodes ? ". Module <code>" : "Module <code>", fp);
	esc(fp, k->module ? k->module : "?");
	fputs("</code>", fp);
	if (k->wrapper) {
		fputs(", launched by <code>", fp);
		esc(fp, k->wrapper);
		fputs("</code>", fp);
	}
	if (k->graph) {
		fputs(" (graph ", fp);
		esc(fp, k->graph);
		fputc(')', fp);
	}
	fputs(".</p>\n", fp);
	if (k->norigins)
		fputs("<ul class=\"origins\">\n", fp);
	for (i = 0; i < k->norigins; i++) {
		rt_origin(&b, &k->origins[i]);
		fputs("<li><code>", fp);
		put(fp, &b);
		fputs("</code>", fp);
		if (k->origins[i].code) {
			fputs(": <code>", fp);
			esc(fp, k->origins[i].code);
			fputs("</code>", fp);
		}
		fputs("</li>\n", fp);
	}
	if (k->norigins)
		fputs("</ul>\n", fp);
	buf_release(&b);
}

static void html_args(FILE *fp, const struct an_kernel *k)
{
	struct buf b = BUF_INIT;
	size_t i;

	if (!k->nargs)
		return;
	fputs("<table class=\"args\"><thead><tr><th>argument</th><th>type</th><th>captured</th>"
	      "<th>hints</th></tr></thead><tbody>\n", fp);
	for (i = 0; i < k->nargs; i++) {
		const struct an_arg *a = &k->args[i];

		fputs("<tr><td class=\"mono\">", fp);
		esc(fp, a->name);
		fputs("</td><td class=\"mono\">", fp);
		esc(fp, a->type);
		fputs("</td><td class=\"mono\">", fp);
		rt_arg(&b, a);
		put(fp, &b);
		fputs("</td><td class=\"mono\">", fp);
		esc(fp, a->hints);
		fputs("</td></tr>\n", fp);
	}
	fputs("</tbody></table>\n", fp);
	buf_release(&b);
}

static void html_configs(FILE *fp, const struct an_kernel *k)
{
	struct buf b = BUF_INIT;
	size_t i;

	if (!k->nconfigs)
		return;
	fprintf(fp, "<p><b>Configs</b> (chosen by %s, %ld timed):</p>\n",
		k->chosen_by != AT_METHOD_NONE ? at_method_names[k->chosen_by] : "-", k->configs_timed);
	config_chart(fp, k);
	fputs("<table class=\"configs\"><thead><tr><th></th><th>config</th><th>timed by</th>"
	      "<th>autotune ms</th><th>replay ms</th><th>regs</th><th>spills</th><th>shared B</th>"
	      "</tr></thead><tbody>\n", fp);
	for (i = 0; i < k->nconfigs; i++) {
		const struct an_config *c = &k->configs[i];

		fprintf(fp, "<tr><td>%s</td><td class=\"mono\">", c->chosen ? "<b>chosen</b>" :
			c->failed ? "failed" : "");
		if (c->label) {
			esc(fp, c->label);
			fputs(": ", fp);
		}
		esc(fp, c->text);
		fputs("</td><td>", fp);
		esc(fp, NAME_OF(at_method_names, c->method));
		fputs("</td>", fp);
		rt_ms(&b, c->time_ms);
		num_cell(fp, c->time_ms, &b);
		rt_ms(&b, c->replay_ms);
		num_cell(fp, c->replay_ms, &b);
		rt_long(&b, c->n_regs);
		num_cell(fp, (double)c->n_regs, &b);
		rt_long(&b, c->n_spills);
		num_cell(fp, (double)c->n_spills, &b);
		rt_long(&b, c->shared_bytes);
		num_cell(fp, (double)c->shared_bytes, &b);
		fputs("</tr>\n", fp);
	}
	fputs("</tbody></table>\n", fp);
	buf_release(&b);
}

static void html_families(FILE *fp, const struct an_isa *a)
{
	struct buf b = BUF_INIT;
	size_t i;

	fputs("<table class=\"families\"><thead><tr><th>family</th><th>group</th><th>count</th>"
	      "<th>widths</th><th>returning</th></tr></thead><tbody>\n", fp);
	for (i = 0; i < a->nfamilies; i++) {
		const struct an_family *f = &a->families[i];

		fputs("<tr><td class=\"mono\">", fp);
		esc(fp, f->name);
		fputs("</td><td>", fp);
		esc(fp, f->group);
		fprintf(fp, "</td><td class=\"num\">%ld</td><td>", f->count);
		rt_widths(&b, f);
		put(fp, &b);
		fputs("</td><td class=\"num\">", fp);
		rt_long(&b, f->returning);
		put(fp, &b);
		fputs("</td></tr>\n", fp);
	}
	fputs("</tbody></table>\n", fp);
	buf_release(&b);
}

static void html_lines(FILE *fp, const struct an_isa *a)
{
	size_t i;

	if (!a->nlines)
		return;
	fputs("<p>Source lines and the memory instructions they became (atomic lines red, narrow"
	      " accesses yellow):</p>\n<table class=\"srclines\"><thead><tr><th>line</th><th>code"
	      "</th><th>instructions</th></tr></thead><tbody>\n", fp);
	for (i = 0; i < a->nlines; i++) {
		const struct an_srcline *l = &a->lines[i];

		fprintf(fp, "<tr class=\"%s\"><td class=\"num\">%ld</td><td class=\"mono\">",
			l->atomic ? "atomic" : l->narrow ? "narrow" : "", l->line);
		esc(fp, l->code);
		fputs("</td><td class=\"mono\">", fp);
		esc(fp, l->ops);
		fputs("</td></tr>\n", fp);
	}
	fputs("</tbody></table>\n", fp);
}

static void html_isa(FILE *fp, const struct an_kernel *k)
{
	struct buf b = BUF_INIT;
	size_t i;

	rt_isa(&b, k);
	para(fp, "ISA.", &b);
	rt_resources(&b, k);
	para(fp, "Resources.", &b);
	buf_release(&b);
	if (!k->isa.file)
		return;
	html_families(fp, &k->isa);
	html_lines(fp, &k->isa);
	if (k->isa.nfindings)
		fputs("<ul class=\"findings\">\n", fp);
	for (i = 0; i < k->isa.nfindings; i++) {
		fputs("<li>", fp);
		esc(fp, k->isa.findings[i]);
		fputs("</li>\n", fp);
	}
	if (k->isa.nfindings)
		fputs("</ul>\n", fp);
}

static void html_gap_list(FILE *fp, const struct an_gap *g, size_t n)
{
	size_t i;

	if (!n)
		return;
	fputs("<ul class=\"gaps\">\n", fp);
	for (i = 0; i < n; i++) {
		fputs("<li class=\"gap\">", fp);
		esc(fp, g[i].what);
		if (g[i].command) {
			fputs(": <code>", fp);
			esc(fp, g[i].command);
			fputs("</code>", fp);
		}
		fputs("</li>\n", fp);
	}
	fputs("</ul>\n", fp);
}

static void html_kernel(FILE *fp, const struct an_run *r, const struct an_kernel *k)
{
	struct buf b = BUF_INIT;

	fputs("<section class=\"kernel\" id=\"k-", fp);
	esc(fp, k->id);
	fputs("\">\n<h2>", fp);
	if (k->rank > 0)
		fprintf(fp, "%ld. ", k->rank);
	else
		fputs("unranked: ", fp);
	esc(fp, k->id);
	fputs("</h2>\n<p><b>Decision:</b> ", fp);
	decision_span(fp, k->decision);
	fputs(" ", fp);
	esc(fp, k->action);
	fputs(".</p>\n", fp);
	html_rules(fp, k);
	html_origin(fp, k);
	rt_time(&b, k);
	para(fp, "Time.", &b);
	rt_bytes(&b, k, r);
	para(fp, "Bytes.", &b);
	rt_hints(&b, k);
	para(fp, "Hints.", &b);
	html_args(fp, k);
	html_configs(fp, k);
	html_isa(fp, k);
	if (k->tune.file) {
		const char *mode = NAME_OF(tune_mode_names, k->tune.mode);

		buf_addf(&b, "(%s, %s): winner %s", mode ? mode : "-",
			 k->tune.target ? k->tune.target : "-", k->tune.winner ? k->tune.winner : "none");
		if (!isnan(k->tune.speedup))
			buf_addf(&b, ", %.2fx", k->tune.speedup);
		buf_addf(&b, " (%ld variant%s, %ld correct; %s)", k->tune.variants,
			 plural(k->tune.variants), k->tune.correct, k->tune.file);
		para(fp, "tko tune", &b);
	}
	if (k->ngaps) {
		fputs("<p><b>Missing evidence:</b></p>\n", fp);
		html_gap_list(fp, k->gaps, k->ngaps);
	}
	fputs("</section>\n", fp);
	buf_release(&b);
}

static void html_others(FILE *fp, const struct an_run *r)
{
	struct buf b = BUF_INIT;
	size_t i;

	stepview_html(fp, r);
	if (r->ncandidates) {
		fputs("<h2 id=\"candidates\">Autotuning candidates (never launched by the model)</h2>\n"
		      "<table><thead><tr><th>name</th><th>what</th><th>instances</th><th>configs timed"
		      "</th><th>fastest ms</th></tr></thead><tbody>\n", fp);
		for (i = 0; i < r->ncandidates; i++) {
			const struct an_candidate *c = &r->candidates[i];

			fputs("<tr><td class=\"mono\">", fp);
			esc(fp, c->name);
			fputs("</td><td>", fp);
			esc(fp, c->why);
			fprintf(fp, "</td><td class=\"num\">%ld</td><td class=\"num\">%ld</td>",
				c->count, c->timed);
			rt_ms(&b, c->best_ms);
			num_cell(fp, c->best_ms, &b);
			fputs("</tr>\n", fp);
		}
		fputs("</tbody></table>\n", fp);
	}
	if (r->nlibcalls) {
		fputs("<h2 id=\"libcalls\">Library calls (not Triton kernels, not timed)</h2>\n"
		      "<table><thead><tr><th>call</th><th>graph</th><th>wrapper</th><th>first line</th>"
		      "<th>call sites</th></tr></thead><tbody>\n", fp);
		for (i = 0; i < r->nlibcalls; i++) {
			const struct an_libcall *c = &r->libcalls[i];

			fputs("<tr><td class=\"mono\">", fp);
			esc(fp, c->op);
			fputs("</td><td>", fp);
			esc(fp, c->graph);
			fputs("</td><td class=\"mono\">", fp);
			esc(fp, c->wrapper);
			fprintf(fp, "</td><td class=\"num\">%ld</td><td class=\"num\">%ld</td></tr>\n",
				c->line, c->calls);
		}
		fputs("</tbody></table>\n", fp);
	}
	buf_release(&b);
}

static void html_gaps(FILE *fp, const struct an_run *r)
{
	size_t i;

	if (r->ngaps) {
		fputs("<h2 id=\"gaps\">Missing evidence (whole run)</h2>\n", fp);
		html_gap_list(fp, r->gaps, r->ngaps);
	}
	if (r->nnotes) {
		fputs("<h2 id=\"notes\">Notes</h2>\n<ul>\n", fp);
		for (i = 0; i < r->nnotes; i++) {
			fputs("<li>", fp);
			esc(fp, r->notes[i]);
			fputs("</li>\n", fp);
		}
		fputs("</ul>\n", fp);
	}
}

static void html_end(FILE *fp, const struct an_run *r)
{
	fputs("<p><small>Written by tko ", fp);
	esc(fp, r->tko_version);
	fprintf(fp, ". The rules are documented in docs/rules.md.</small></p>\n<script>\n%s</script>\n"
		"</body></html>\n", script);
}

const struct report_writer report_html = {
	"html", "html", html_begin, html_table, html_charts, html_kernel, html_others, html_gaps,
	html_end,
};
