/* Shared report wording (rtext.h). */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "report/rtext.h"
#include "util/plural.h"
#include "banned.h"

void rt_ms(struct buf *b, double ms)
{
	if (isnan(ms))
		buf_adds(b, "-");
	else
		buf_addf(b, ms < 0.001 ? "%.6f" : "%.4f", ms);
}

void rt_pct(struct buf *b, double fraction)
{
	if (isnan(fraction))
		buf_adds(b, "-");
	else
		buf_addf(b, "%.1f%%", 100 * fraction);
}

void rt_gbps(struct buf *b, double gbps)
{
	if (isnan(gbps))
		buf_adds(b, "-");
	else
		buf_addf(b, "%.0f", gbps);
}

void rt_mb(struct buf *b, double bytes)
{
	if (isnan(bytes))
		buf_adds(b, "-");
	else
		buf_addf(b, "%.1f MB", bytes / 1e6);
}

void rt_long(struct buf *b, long v)
{
	if (v < 0)
		buf_adds(b, "-");
	else
		buf_addf(b, "%ld", v);
}

const char *rt_decision_title(enum decision decision)
{
	return decision_title(decision);
}

void rt_origin(struct buf *b, const struct an_origin *o)
{
	buf_addf(b, "%s:%ld", o->file, o->line);
	if (o->function)
		buf_addf(b, " in %s", o->function);
}

void rt_arg(struct buf *b, const struct an_arg *a)
{
	if (a->shape) {
		buf_addf(b, "%s%s", a->dtype ? a->dtype : "", a->shape);
		if (a->stride)
			buf_addf(b, " stride %s", a->stride);
		if (a->storage_offset > 0)
			buf_addf(b, " offset %ld", a->storage_offset);
	} else if (a->value) {
		buf_addf(b, "= %s", a->value);
	} else {
		buf_adds(b, "-");
	}
}

void rt_widths(struct buf *b, const struct an_family *f)
{
	size_t i;

	for (i = 0; i < f->nwidths; i++)
		buf_addf(b, "%s%ld-bit x%ld", i ? ", " : "", f->widths[i].bits, f->widths[i].count);
	if (!f->nwidths)
		buf_adds(b, "-");
}

void rt_evidence(struct buf *b, const struct an_fired *f)
{
	size_t i;

	for (i = 0; i < f->nev; i++)
		buf_addf(b, "%s%s=%.4g", i ? ", " : "", f->ev[i].key, f->ev[i].value);
}

static const char *launch_words(enum launch_basis basis)
{
	return basis == LAUNCH_NONE ? "" : launch_basis_words[basis];
}

void rt_time(struct buf *b, const struct an_kernel *k)
{
	buf_addf(b, "%ld launch%s (%s)", k->launches, plural_word(k->launches, "", "es"),
		 launch_words(k->launch_basis));
	if (isnan(k->time_ms)) {
		buf_adds(b, "; no time per launch was measured, so no share");
		return;
	}
	buf_adds(b, " x ");
	rt_ms(b, k->time_ms);
	buf_addf(b, " ms (%s) = ", k->time_note ? k->time_note : "source unknown");
	rt_ms(b, k->total_ms);
	buf_adds(b, " ms, ");
	rt_pct(b, k->share);
	buf_addf(b, " of the measured kernel time, rank %ld", k->rank);
}

void rt_rate(struct buf *b, const struct an_kernel *k)
{
	if (isnan(k->gbps))
		buf_adds(b, "-");
	else
		buf_addf(b, k->rate_doubt ? "(%.0f)" : k->bytes_estimate ? "%.0f est." : "%.0f", k->gbps);
}

void rt_rate_fraction(struct buf *b, const struct an_kernel *k)
{
	if (k->rate_doubt)
		buf_adds(b, "over copy");
	else
		rt_pct(b, k->peak_fraction);
}

static const char *bytes_source(enum bytes_basis basis)
{
	switch (basis) {
	case BYTES_TRAFFIC:
		return "tko's count";
	case BYTES_INDUCTOR:
		return "Inductor's estimate";
	case BYTES_FOOTPRINT:
		return "the arguments' span";
	case BYTES_SEED_LOG:
		return "the seed log's count";
	default:
		return "unknown";
	}
}

void rt_bytes(struct buf *b, const struct an_kernel *k, const struct an_run *r)
{
	if (isnan(k->bytes)) {
		buf_adds(b, "bytes moved unknown (no captured launch, no Inductor estimate)");
		return;
	}
	buf_adds(b, k->bytes_estimate ? "about " : "");
	rt_mb(b, k->bytes);
	buf_addf(b, " read and written per launch (%s%s: %s)", k->bytes_estimate ? "an estimate, " : "",
		 bytes_source(k->bytes_basis), k->bytes_note ? k->bytes_note : "no note");
	if (k->bytes_basis != BYTES_INDUCTOR && !isnan(k->inductor_bytes)) {
		buf_adds(b, "; Inductor's kernel_num_gb says ");
		rt_mb(b, k->inductor_bytes);
	}
	if (isnan(k->gbps))
		return;
	buf_adds(b, ". Rate: ");
	rt_rate(b, k);
	buf_adds(b, " GB/s (bytes / time per launch)");
	if (k->rate_doubt)
		buf_addf(b, ", over 105%% of the measured %.0f GB/s copy rate, so not a fact: %s",
			 r->peak_gbps, k->rate_doubt);
	else if (!isnan(k->peak_fraction)) {
		buf_adds(b, ", ");
		rt_pct(b, k->peak_fraction);
		buf_addf(b, " of the measured %.0f GB/s copy rate", r->peak_gbps);
	}
}

static void names(struct buf *b, char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf_addf(b, "%s%s", i ? ", " : "", v[i]);
}

void rt_hints(struct buf *b, const struct an_kernel *k)
{
	if (k->pointer_args < 0) {
		buf_adds(b, "no kernel source was read");
		return;
	}
	buf_addf(b, "%ld pointer argument%s", k->pointer_args, plural(k->pointer_args));
	if (!k->hints_known) {
		buf_adds(b, "; hints are decided by Triton at launch (no triton_meta)");
	} else {
		buf_adds(b, k->nno_divisibility ? "; without tt.divisibility: " :
			 "; all have tt.divisibility=16");
		names(b, k->no_divisibility, k->nno_divisibility);
		buf_adds(b, k->nno_pointer_range ? "; without tt.pointer_range=32: " :
			 "; all have tt.pointer_range=32");
		names(b, k->no_pointer_range, k->nno_pointer_range);
	}
	buf_addf(b, ". Source: %ld tl.load, %ld tl.store, %ld tl.atomic_*, %ld tl.assume,"
		 " %ld tl.multiple_of, %ld tl.max_contiguous, %ld tl.dot", k->src_loads,
		 k->src_stores, k->src_atomics, k->src_assume, k->src_multiple_of,
		 k->src_max_contiguous, k->src_dot);
}

void rt_isa(struct buf *b, const struct an_kernel *k)
{
	const struct an_isa *a = &k->isa;

	if (!a->file) {
		buf_adds(b, "no ISA");
		return;
	}
	buf_addf(b, "%s %s, Triton cache entry %s (matched by %s): %ld instruction%s; %ld"
		 " global/buffer/flat loads and stores (%ld global, %ld buffer, %ld flat), %ld of"
		 " them 128-bit per lane (", a->isa, a->arch ? a->arch : "?", a->cache_dir, a->match,
		 a->instructions, plural(a->instructions), a->mem_ops, a->global_ops, a->buffer_ops,
		 a->flat_ops, a->mem_wide);
	rt_pct(b, a->vector_share);
	buf_addf(b, " vector share), %ld of 32 bits or less; %ld atomic%s (%ld %s the old"
		 " value); %ld LDS/shared instruction%s; %ld matrix instruction%s", a->mem_narrow,
		 a->atomics, plural(a->atomics), a->atomics_returning,
		 plural_word(a->atomics_returning, "returns", "return"), a->lds_ops,
		 plural(a->lds_ops), a->matrix_ops, plural(a->matrix_ops));
}

void rt_resources(struct buf *b, const struct an_kernel *k)
{
	const struct an_res *r = &k->isa.res;
	static const struct {
		const char *label;
		size_t off;
	} items[] = {
		{ "registers/thread", offsetof(struct an_res, registers) },
		{ "VGPRs", offsetof(struct an_res, vgprs) },
		{ "AGPRs", offsetof(struct an_res, agprs) },
		{ "SGPRs", offsetof(struct an_res, sgprs) },
		{ "spills", offsetof(struct an_res, spills) },
		{ "scratch B", offsetof(struct an_res, scratch_bytes) },
		{ "LDS/shared B", offsetof(struct an_res, lds_bytes) },
		{ "local B", offsetof(struct an_res, local_bytes) },
		{ "occupancy (waves/SIMD)", offsetof(struct an_res, occupancy) },
		{ "num_warps", offsetof(struct an_res, num_warps) },
		{ "num_stages", offsetof(struct an_res, num_stages) },
		{ "threads/block", offsetof(struct an_res, workgroup) },
	};
	size_t i, shown = 0;

	for (i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		long v = *(const long *)(const void *)((const char *)r + items[i].off);

		if (v < 0)
			continue;
		buf_addf(b, "%s%s %ld", shown++ ? ", " : "", items[i].label, v);
	}
	if (!shown)
		buf_adds(b, "unknown");
}

void rt_peak(struct buf *b, const struct an_run *r)
{
	if (isnan(r->peak_gbps))
		buf_adds(b, "no measured peak bandwidth (rates are not compared with one)");
	else
		buf_addf(b, "measured peak %.0f GB/s (%s)", r->peak_gbps,
			 r->peak_source ? r->peak_source : "source unknown");
}
