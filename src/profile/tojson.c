/* The profile's JSON document (tojson.h). */
#include <math.h>
#include <string.h>

#include "json/jsonw.h"
#include "profile/tojson.h"
#include "version.h"
#include "banned.h"

void prof_class_totals(const struct prof *p, double busy[PROF_CLASS_COUNT],
		       long calls[PROF_CLASS_COUNT])
{
	size_t i;

	for (i = 0; i < PROF_CLASS_COUNT; i++) {
		busy[i] = 0;
		calls[i] = 0;
	}
	for (i = 0; i < p->ngroups; i++) {
		busy[p->groups[i].cls] += p->groups[i].busy;
		calls[p->groups[i].cls] += p->groups[i].calls;
	}
}

static void str_id(struct jsonw *w, const struct prof *p, const char *key, uint32_t id)
{
	jsonw_key(w, key);
	if (id)
		jsonw_str(w, prof_str(p, id));
	else
		jsonw_null(w);
}

static void num(struct jsonw *w, const char *key, double v)
{
	jsonw_key(w, key);
	jsonw_real(w, v);
}

static void integer(struct jsonw *w, const char *key, long long v)
{
	jsonw_key(w, key);
	jsonw_int(w, v);
}

static void write_group(struct jsonw *w, const struct prof *p, const struct prof_group *g,
			size_t rank)
{
	jsonw_object(w);
	integer(w, "rank", (long long)rank);
	jsonw_key(w, "class");
	jsonw_str(w, prof_class_names[g->cls]);
	str_id(w, p, "key", g->key);
	str_id(w, p, "op", g->op);
	str_id(w, p, "top_kernel", g->top);
	integer(w, "kernels", g->kernels);
	integer(w, "calls", g->calls);
	num(w, "total_us", g->total);
	num(w, "busy_us", g->busy);
	num(w, "share", g->share);
	num(w, "mean_us", g->calls ? g->total / (double)g->calls : NAN);
	str_id(w, p, "dtype", g->dtype);
	str_id(w, p, "kernel_hash", g->kernel_hash);
	str_id(w, p, "kernel_file", g->kernel_file);
	str_id(w, p, "kernel_kwargs", g->kernel_kwargs);
	integer(w, "num_warps", g->num_warps);
	integer(w, "num_stages", g->num_stages);
	jsonw_end(w);
}

static void write_steps(struct jsonw *w, const struct prof *p)
{
	size_t i;

	jsonw_key(w, "steps");
	jsonw_object(w);
	integer(w, "count", (long long)p->nsteps);
	num(w, "step_time_us", p->step_time);
	jsonw_key(w, "list");
	jsonw_array(w);
	for (i = 0; i < p->nsteps; i++) {
		const struct prof_step *s = &p->steps[i];

		jsonw_object(w);
		integer(w, "number", s->number);
		num(w, "cpu_start_us", s->cpu_start);
		num(w, "cpu_dur_us", s->cpu_dur);
		num(w, "gpu_start_us", s->gpu_start);
		num(w, "gpu_end_us", s->gpu_end);
		integer(w, "activities", s->acts);
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_end(w);
}

static void write_classes(struct jsonw *w, const struct prof *p)
{
	double busy[PROF_CLASS_COUNT];
	long calls[PROF_CLASS_COUNT];
	size_t i;

	prof_class_totals(p, busy, calls);
	jsonw_key(w, "classes");
	jsonw_array(w);
	for (i = 0; i < PROF_CLASS_COUNT; i++) {
		if (!calls[i])
			continue;
		jsonw_object(w);
		jsonw_key(w, "class");
		jsonw_str(w, prof_class_names[i]);
		integer(w, "calls", calls[i]);
		num(w, "busy_us", busy[i]);
		num(w, "share", p->busy > 0 ? busy[i] / p->busy : NAN);
		jsonw_end(w);
	}
	jsonw_end(w);
}

static void write_header(struct jsonw *w, const struct prof *p)
{
	size_t i;

	integer(w, "schema_version", PROF_SCHEMA_VERSION);
	jsonw_key(w, "tool");
	jsonw_str(w, "tko profile");
	jsonw_key(w, "tko_version");
	jsonw_str(w, TKO_VERSION);
	jsonw_key(w, "file");
	jsonw_str(w, p->path ? p->path : "");
	jsonw_key(w, "format");
	jsonw_str(w, prof_format_names[p->format]);
	jsonw_key(w, "device");
	jsonw_str_or_null(w, p->device);
	jsonw_key(w, "partial");
	jsonw_bool(w, p->partial);
	jsonw_key(w, "timeline");
	jsonw_bool(w, p->timeline);
	jsonw_key(w, "notes");
	jsonw_array(w);
	for (i = 0; i < p->nnotes; i++)
		jsonw_str(w, p->notes[i]);
	jsonw_end(w);
	integer(w, "skipped", p->skipped);
	integer(w, "activities", (long long)p->nacts);
	integer(w, "ops", (long long)p->nops);
	integer(w, "devices", p->devices);
	integer(w, "streams", p->streams);
}

int prof_write_json(FILE *fp, const struct prof *p, size_t top)
{
	struct jsonw w;
	size_t i, n = top && top < p->ngroups ? top : p->ngroups;

	jsonw_init_prec(&w, fp, 10);
	jsonw_object(&w);
	write_header(&w, p);
	num(&w, "first_us", p->first);
	num(&w, "last_us", p->last);
	num(&w, "span_us", p->timeline ? p->last - p->first : NAN);
	num(&w, "busy_us", p->busy);
	num(&w, "idle_us", p->timeline ? p->idle : NAN);
	num(&w, "kernel_time_us", p->total);
	integer(&w, "idle_gaps", p->gaps);
	num(&w, "largest_gap_us", p->timeline ? p->largest_gap : NAN);
	integer(&w, "clock_jumps", p->clock_jumps);
	write_steps(&w, p);
	write_classes(&w, p);
	integer(&w, "groups_total", (long long)p->ngroups);
	jsonw_key(&w, "groups");
	jsonw_array(&w);
	for (i = 0; i < n; i++)
		write_group(&w, p, &p->groups[i], i + 1);
	jsonw_end(&w);
	jsonw_end(&w);
	return jsonw_finish(&w);
}
