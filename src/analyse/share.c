/* Time shares, ranks and rates (share.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/share.h"
#include "env/peak.h"
#include "model/replay.h"
#include "model/traffic.h"
#include "util/mem.h"
#include "util/plural.h"
#include "banned.h"

/* The peak in the analysis's order (env/peak.h); a rate of 0 recorded in a document counts. */
static void set_peak(struct an_run *r, double peak_opt, const char *env_path,
		     const struct env_doc *env, const struct replay_doc *replay)
{
	struct peak_inputs in = PEAK_INPUTS_INIT;
	struct peak p = PEAK_INIT;

	in.option = peak_opt;
	in.env = env;
	in.env_path = env ? env_path : NULL;	/* gather read it (or found it unusable) */
	in.replay_gbps = replay && replay->have_peak ? replay->peak.copy_gbps : NAN;
	in.zero_counts = 1;
	in.order = peak_order_analyse;
	if (peak_resolve(&in, &p)) {
		r->peak_gbps = p.gbps;
		r->peak_source = peak_source_text(&p);
	}
	peak_release(&p);
}

/* Where time_ms comes from, with its sentence. */
static void set_time(struct an_kernel *k)
{
	const struct an_config *c = an_kernel_chosen(k);
	char *table = k->time_note;

	k->time_note = NULL;
	if (c && !isnan(c->replay_ms)) {
		k->time_ms = c->replay_ms;
		k->time_basis = TIME_REPLAY;
		k->time_note = xstrdup("tko run: median of device-event timings of the config the model"
				       " ran, inputs restored and L2 flushed before each repetition");
	} else if (c && !isnan(c->time_ms) && c->method == AT_MAX_AUTOTUNE) {
		k->time_ms = c->time_ms;
		k->time_basis = TIME_MAX_AUTOTUNE;
		k->time_note = xstrfmt("max-autotune's time for %s, the choice with this template's"
				       " config, in the table for %s", c->label ? c->label : "the choice",
				       table ? table : "its op");
	} else if (c && !isnan(c->time_ms)) {
		k->time_ms = c->time_ms;
		k->time_basis = TIME_AUTOTUNE;
		k->time_note = xstrfmt("the autotuner's time for the chosen config (%s)",
				       at_method_names[c->method]);
	}
	free(table);
}

static void set_note(struct an_kernel *k, const char *note)
{
	free(k->bytes_note);
	k->bytes_note = xstrdup(note);
	k->bytes_estimate = 1;
}

/* The bytes for the rate: tko's count first, the others only when there is none. */
static void pick_bytes(struct an_kernel *k)
{
	if (!isnan(k->traffic_bytes) && k->traffic_bytes >= 0) {
		k->bytes = k->traffic_bytes;
		k->bytes_basis = BYTES_TRAFFIC;
	} else if (!isnan(k->inductor_bytes)) {
		k->bytes = k->inductor_bytes;
		k->bytes_basis = BYTES_INDUCTOR;
		set_note(k, "Inductor's kernel_num_gb: no captured launch to count");
	} else if (!isnan(k->footprint_bytes)) {
		k->bytes = k->footprint_bytes;
		k->bytes_basis = BYTES_FOOTPRINT;
		set_note(k, "the span of the captured arguments, each storage once");
	} else if (!isnan(k->seed_bytes)) {
		k->bytes = k->seed_bytes;
		k->bytes_basis = BYTES_SEED_LOG;
		set_note(k, "the seed log's numel x element size, mutated arguments twice");
	}
}

/* The rate and its fraction of the copy rate, or the doubt that replaces the fraction. */
static void set_bytes(struct an_kernel *k, double peak)
{
	struct traffic t;

	pick_bytes(k);
	if (!isnan(k->bytes) && traffic_gbps(k->bytes, k->time_ms) > 0)
		k->gbps = traffic_gbps(k->bytes, k->time_ms);
	if (isnan(k->gbps) || !(peak > 0))
		return;
	memset(&t, 0, sizeof(t));
	t.bytes = k->bytes;
	t.estimate = k->bytes_estimate;
	t.gathered = k->bytes_basis == BYTES_TRAFFIC && k->traffic_gathered > 0 ? k->traffic_gathered : 0;
	free(k->rate_doubt);
	k->rate_doubt = traffic_rate_doubt(&t, k->gbps, peak);
	k->peak_fraction = k->rate_doubt ? NAN : k->gbps / peak;
}

static int by_rank(const void *pa, const void *pb)
{
	const struct an_kernel *a = pa, *b = pb;

	if (isnan(a->total_ms) != isnan(b->total_ms))
		return isnan(a->total_ms) ? 1 : -1;
	if (!isnan(a->total_ms) && a->total_ms != b->total_ms)
		return a->total_ms > b->total_ms ? -1 : 1;
	return strcmp(a->id, b->id);
}

static void set_method(struct an_run *r)
{
	struct buf b = BUF_INIT;
	size_t i, n[TIME_NR] = { 0 }, launch[LAUNCH_NR] = { 0 };

	for (i = 0; i < r->nkernels; i++) {
		const struct an_kernel *k = &r->kernels[i];

		if (k->time_basis != TIME_NONE)
			n[k->time_basis]++;
		if (k->launch_basis != LAUNCH_NONE)
			launch[k->launch_basis]++;
	}
	buf_addf(&b, "share = launches x time per launch, over the %ld kernel%s with a time"
		 " (%zu replayed by tko run, %zu from the autotuner, %zu from max-autotune tables);"
		 " launches: %zu from capture (whole run), %zu from wrapper call sites (per graph call),"
		 " %zu assumed 1; %ld kernel%s %s no time; library calls are not timed",
		 r->timed, plural(r->timed), n[TIME_REPLAY], n[TIME_AUTOTUNE], n[TIME_MAX_AUTOTUNE],
		 launch[LAUNCH_CAPTURE], launch[LAUNCH_WRAPPER], launch[LAUNCH_ASSUMED], r->untimed,
		 plural(r->untimed), plural_word(r->untimed, "has", "have"));
	r->share_method = buf_detach(&b, NULL);
}

void share_compute(struct an_run *r, double peak_opt, const char *env_path,
		   const struct env_doc *env, const struct replay_doc *replay)
{
	size_t i;

	set_peak(r, peak_opt, env_path, env, replay);
	r->measured_ms = 0;
	r->timed = r->untimed = 0;
	for (i = 0; i < r->nkernels; i++) {
		struct an_kernel *k = &r->kernels[i];

		set_time(k);
		set_bytes(k, r->peak_gbps);
		if (isnan(k->time_ms)) {
			r->untimed++;
			continue;
		}
		k->total_ms = (double)k->launches * k->time_ms;
		r->measured_ms += k->total_ms;
		r->timed++;
	}
	for (i = 0; i < r->nkernels; i++) {
		struct an_kernel *k = &r->kernels[i];

		if (!isnan(k->total_ms) && r->measured_ms > 0)
			k->share = k->total_ms / r->measured_ms;
	}
	share_rank(r);
	set_method(r);
}

void share_rank(struct an_run *r)
{
	size_t i;

	if (r->nkernels)
		qsort(r->kernels, r->nkernels, sizeof(*r->kernels), by_rank);
	for (i = 0; i < r->nkernels; i++)
		r->kernels[i].rank = isnan(r->kernels[i].total_ms) ? -1 : (long)i + 1;
}
