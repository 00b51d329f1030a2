/* Time shares, ranks and footprint rates (share.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/share.h"
#include "util/jsonio.h"
#include "util/mem.h"
#include "banned.h"

static void set_peak(struct an_run *r, double peak_opt, const char *env_path,
		     const json_t *env, const json_t *replay)
{
	const json_t *bw = json_object_get(env, "bandwidth");
	const json_t *rp = json_object_get(replay, "peak");

	if (peak_opt > 0) {
		r->peak_gbps = peak_opt;
		r->peak_source = xstrdup("--peak-gbps");
	} else if (json_is_number(json_object_get(bw, "copy_gbps"))) {
		r->peak_gbps = json_num(bw, "copy_gbps", NAN);
		r->peak_source = xstrfmt("%s: a device-to-device copy, read + written bytes",
					 env_path);
	} else if (json_is_number(json_object_get(rp, "copy_gbps"))) {
		r->peak_gbps = json_num(rp, "copy_gbps", NAN);
		r->peak_source = xstrdup("the replay document's peak (tko run)");
	}
}

/* Where time_ms comes from, with its sentence. */
static void set_time(struct an_kernel *k)
{
	const struct an_config *c = an_kernel_chosen(k);
	char *table = k->time_note;

	k->time_note = NULL;
	if (c && !isnan(c->replay_ms)) {
		k->time_ms = c->replay_ms;
		k->time_basis = xstrdup("replay");
		k->time_note = xstrdup("tko run: median of device-event timings of the config the model"
				       " ran, inputs restored and L2 flushed before each repetition");
	} else if (c && !isnan(c->time_ms) && !strcmp(c->method, "max_autotune")) {
		k->time_ms = c->time_ms;
		k->time_basis = xstrdup("max_autotune");
		k->time_note = xstrfmt("max-autotune's time for %s, the choice with this template's"
				       " config, in the table for %s", c->label ? c->label : "the choice",
				       table ? table : "its op");
	} else if (c && !isnan(c->time_ms)) {
		k->time_ms = c->time_ms;
		k->time_basis = xstrdup("autotune");
		k->time_note = xstrfmt("the autotuner's time for the chosen config (%s)", c->method);
	}
	free(table);
}

static void set_bytes(struct an_kernel *k, double peak)
{
	if (!isnan(k->inductor_bytes)) {
		k->bytes = k->inductor_bytes;
		k->bytes_basis = xstrdup("inductor");
	} else if (!isnan(k->footprint_bytes)) {
		k->bytes = k->footprint_bytes;
		k->bytes_basis = xstrdup("footprint");
	} else if (!isnan(k->seed_bytes)) {
		k->bytes = k->seed_bytes;
		k->bytes_basis = xstrdup("seed_log");
	}
	if (!isnan(k->bytes) && k->time_ms > 0)
		k->gbps = k->bytes / (k->time_ms * 1e-3) / 1e9;
	if (!isnan(k->gbps) && peak > 0)
		k->peak_fraction = k->gbps / peak;
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

static const char *const basis_names[] = { "replay", "autotune", "max_autotune" };

static void set_method(struct an_run *r)
{
	struct buf b = BUF_INIT;
	size_t i, j, n[3] = { 0, 0, 0 }, wrapper = 0, capture = 0, assumed = 0;

	for (i = 0; i < r->nkernels; i++) {
		const struct an_kernel *k = &r->kernels[i];

		for (j = 0; k->time_basis && j < 3; j++)
			n[j] += !strcmp(k->time_basis, basis_names[j]);
		wrapper += !strcmp(k->launch_basis, "wrapper");
		capture += !strcmp(k->launch_basis, "capture");
		assumed += !strcmp(k->launch_basis, "assumed");
	}
	buf_addf(&b, "share = launches x time per launch, over the %ld kernels with a time"
		 " (%zu replayed by tko run, %zu from the autotuner, %zu from max-autotune tables);"
		 " launches: %zu from capture (whole run), %zu from wrapper call sites (per graph call),"
		 " %zu assumed 1; %ld kernels have no time; library calls are not timed",
		 r->timed, n[0], n[1], n[2], capture, wrapper, assumed, r->untimed);
	r->share_method = buf_detach(&b, NULL);
}

void share_compute(struct an_run *r, double peak_opt, const char *env_path,
		   const json_t *env, const json_t *replay)
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
