/*
 * Facts: short statements about one scanned kernel (isa.h's findings),
 * each carrying the numbers it was computed from (struct isa_evidence) so
 * a report can show its work. Input: a finished kernel (counts, lines,
 * resources); output: k->findings. Whether one is worth a warning is not
 * judged here: the rules are (decide/isa_scope.h runs the rules that read
 * one kernel and sets each finding's severity from them). The ids are
 * stable and listed in docs/json.md:
 *
 *   vector_width  share of global/buffer/flat loads and stores (and
 *                 global-to-LDS copies) that move 128 bits per lane
 *   narrow_lines  source lines whose global memory instructions move 32
 *                 bits or less per lane
 *   buffer_ops    AMD: buffer_* instructions present or absent
 *   atomics       atomic instructions present, how many return a value
 *   spills        spills / scratch (or their absence, when known)
 *   occupancy     waves per SIMD and the VGPR budget of the arch
 *
 * Atomics are left out of the vector-width share: AMD has no 128-bit
 * atomic add, so they would only dilute it; the atomics finding lists
 * their widths instead.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "isa/facts.h"
#include "isa/result.h"
#include "target/target.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/plural.h"
#include "banned.h"

static const unsigned char global_families[] = {
	ISA_FAM_GLOBAL_LOAD, ISA_FAM_GLOBAL_STORE, ISA_FAM_BUFFER_LOAD,
	ISA_FAM_BUFFER_STORE, ISA_FAM_FLAT_LOAD, ISA_FAM_FLAT_STORE,
	ISA_FAM_GLOBAL_TO_LDS,
};

static int is_global_family(unsigned fam)
{
	return memchr(global_families, (int)fam, sizeof(global_families)) != NULL;
}

uint64_t isa_global_ops(const struct isa_kernel *k, uint64_t *wide,
			uint64_t *narrow)
{
	uint64_t total = 0, w = 0, nw = 0;
	size_t i;
	unsigned s;

	for (i = 0; i < sizeof(global_families); i++) {
		const struct isa_family_count *c = &k->fam[global_families[i]];

		total += c->count;
		for (s = 0; s < ISA_SLOT_NR; s++) {
			if (isa_slots[s].counter)
				continue;
			if (isa_slots[s].bits >= 128)
				w += c->slot[s];
			else if (isa_slots[s].bits <= 32)
				nw += c->slot[s];
		}
	}
	if (wide)
		*wide = w;
	if (narrow)
		*narrow = nw;
	return total;
}

static struct isa_finding *finding(struct isa_kernel *k, const char *id)
{
	struct isa_finding *fd;

	ALLOC_GROW(k->findings, k->findings_nr + 1, k->findings_alloc);
	fd = &k->findings[k->findings_nr++];
	memset(fd, 0, sizeof(*fd));
	fd->id = id;
	return fd;
}

static void ev(struct isa_finding *fd, const char *key, long long v,
	       enum isa_src src)
{
	if (fd->ev_nr < ISA_EVIDENCE_MAX) {
		fd->ev[fd->ev_nr].key = key;
		fd->ev[fd->ev_nr].value = v;
		fd->ev[fd->ev_nr].src = src;
		fd->ev_nr++;
	}
}

static void ev_res(struct isa_finding *fd, const struct isa_kernel *k,
		   enum isa_res r)
{
	if (isa_res_known(k, r))
		ev(fd, isa_res_info[r].name, k->res[r].value, k->res[r].src);
}

static unsigned percent(uint64_t part, uint64_t whole)
{
	return whole ? (unsigned)((part * 100 + whole / 2) / whole) : 0;
}

static void vector_width(struct isa_kernel *k)
{
	uint64_t wide, narrow, total = isa_global_ops(k, &wide, &narrow);
	uint64_t mid = total - wide - narrow;
	struct isa_finding *fd;
	struct buf b = BUF_INIT;

	if (!total)
		return;
	fd = finding(k, "vector_width");
	buf_addf(&b, "%llu of %llu global/buffer memory instructions move 128 bits "
		 "per lane (%u%%)", (unsigned long long)wide,
		 (unsigned long long)total, percent(wide, total));
	if (mid)
		buf_addf(&b, "; %llu %s 64 or 96", (unsigned long long)mid,
			 plural_word((long long)mid, "moves", "move"));
	if (narrow)
		buf_addf(&b, "; %llu %s 32 or fewer", (unsigned long long)narrow,
			 plural_word((long long)narrow, "moves", "move"));
	fd->message = buf_detach(&b, NULL);
	ev(fd, "global_memory_ops", (long long)total, ISA_SRC_NONE);
	ev(fd, "ops_128bit", (long long)wide, ISA_SRC_NONE);
	ev(fd, "ops_64_96bit", (long long)mid, ISA_SRC_NONE);
	ev(fd, "ops_32bit_or_less", (long long)narrow, ISA_SRC_NONE);
	ev(fd, "percent_128bit", percent(wide, total), ISA_SRC_NONE);
}

/* Appends "line N" or "file.py:N" for a line entry. */
static void add_where(struct buf *b, const struct isa_file_result *f,
		      uint32_t file, uint32_t line)
{
	const char *path = isa_srcfile(f, file);

	if (f->srcfiles_nr > 1 && path)
		buf_addf(b, "%s:%u", path_base(path), line);
	else
		buf_addf(b, "line %u", line);
}

static int narrow_entry(const struct isa_file_result *f,
			const struct isa_srcline *l)
{
	const struct isa_op *o = &f->ops[l->op];

	return is_global_family(o->family) && o->slot < ISA_SLOT_NR &&
	       !isa_slots[o->slot].counter && isa_slots[o->slot].bits <= 32;
}

/*
 * Appends the narrow instructions of one source line, entries [i, j) of
 * k->lines, as "line 33 (2 global_load_dword)"; returns how many there are.
 */
static uint64_t narrow_group(const struct isa_file_result *f,
			     const struct isa_kernel *k, size_t i, size_t j,
			     struct buf *b)
{
	uint64_t n = 0;

	for (; i < j; i++) {
		const struct isa_srcline *l = &k->lines[i];

		if (!narrow_entry(f, l))
			continue;
		if (!n) {
			buf_adds(b, b->len ? "; " : "");
			add_where(b, f, l->file, l->line);
			buf_adds(b, " (");
		} else {
			buf_adds(b, ", ");
		}
		buf_addf(b, "%llu %s", (unsigned long long)l->count,
			 f->ops[l->op].name);
		n += l->count;
	}
	if (n)
		buf_addch(b, ')');
	return n;
}

static void narrow_lines(const struct isa_file_result *f, struct isa_kernel *k)
{
	struct buf b = BUF_INIT, scratch = BUF_INIT;
	struct isa_finding *fd;
	uint64_t insns = 0;
	size_t i, j, nlines = 0;

	for (i = 0; i < k->lines_nr; i = j) {
		uint64_t n;

		for (j = i; j < k->lines_nr && k->lines[j].file == k->lines[i].file &&
			    k->lines[j].line == k->lines[i].line; j++)
			;
		n = narrow_group(f, k, i, j, nlines < 5 ? &b : &scratch);
		if (n) {
			nlines++;
			insns += n;
		}
	}
	buf_release(&scratch);
	if (!nlines) {
		buf_release(&b);
		return;
	}
	if (nlines > 5)
		buf_addf(&b, "; and %zu more line%s", nlines - 5,
			 plural((long long)(nlines - 5)));
	fd = finding(k, "narrow_lines");
	fd->message = xstrfmt("%llu global memory instruction%s moving 32 bits or "
			      "fewer per lane %s from %zu source line%s: %s",
			      (unsigned long long)insns, plural((long long)insns),
			      plural_word((long long)insns, "comes", "come"), nlines,
			      plural(nlines), b.buf);
	buf_release(&b);
	ev(fd, "lines", (long long)nlines, ISA_SRC_NONE);
	ev(fd, "instructions", (long long)insns, ISA_SRC_NONE);
}

static void buffer_ops(struct isa_kernel *k)
{
	const struct isa_family_count *c = k->fam;
	uint64_t bl = c[ISA_FAM_BUFFER_LOAD].count, bs = c[ISA_FAM_BUFFER_STORE].count;
	uint64_t ba = c[ISA_FAM_BUFFER_ATOMIC].count;
	uint64_t gl = c[ISA_FAM_GLOBAL_LOAD].count, gs = c[ISA_FAM_GLOBAL_STORE].count;
	uint64_t ga = c[ISA_FAM_GLOBAL_ATOMIC].count;
	struct isa_finding *fd;

	if (!(bl + bs + ba + gl + gs + ga))
		return;
	fd = finding(k, "buffer_ops");
	if (bl + bs + ba)
		fd->message = xstrfmt("buffer ops in use: %llu buffer_load, %llu "
				      "buffer_store, %llu buffer_atomic (and %llu "
				      "global_load, %llu global_store, %llu global_atomic)",
				      (unsigned long long)bl, (unsigned long long)bs,
				      (unsigned long long)ba, (unsigned long long)gl,
				      (unsigned long long)gs, (unsigned long long)ga);
	else
		fd->message = xstrfmt("no buffer ops: %llu global_load, %llu "
				      "global_store and %llu global_atomic instead; "
				      "Triton emits buffer ops only where it can prove "
				      "32-bit offsets (tt.pointer_range=32 on pointer "
				      "arguments, AMDGCN_USE_BUFFER_OPS)",
				      (unsigned long long)gl, (unsigned long long)gs,
				      (unsigned long long)ga);
	ev(fd, "buffer_load", (long long)bl, ISA_SRC_NONE);
	ev(fd, "buffer_store", (long long)bs, ISA_SRC_NONE);
	ev(fd, "buffer_atomic", (long long)ba, ISA_SRC_NONE);
	ev(fd, "global_load", (long long)gl, ISA_SRC_NONE);
	ev(fd, "global_store", (long long)gs, ISA_SRC_NONE);
	ev(fd, "global_atomic", (long long)ga, ISA_SRC_NONE);
}

static void atomics(struct isa_kernel *k)
{
	struct buf b = BUF_INIT, w = BUF_INIT;
	uint64_t total = 0, ret = 0, slot[ISA_SLOT_NR] = { 0 };
	struct isa_finding *fd;
	unsigned fam, s;

	for (fam = 0; fam < ISA_FAM_NR; fam++) {
		const struct isa_family_count *c = &k->fam[fam];

		if (isa_families[fam].group != ISA_GROUP_ATOMIC || !c->count)
			continue;
		buf_addf(&b, "%s%llu %s", total ? ", " : "",
			 (unsigned long long)c->count, isa_families[fam].name);
		total += c->count;
		ret += c->returning;
		for (s = 0; s < ISA_SLOT_NR; s++)
			slot[s] += c->slot[s];
	}
	if (!total) {
		buf_release(&b);
		return;
	}
	for (s = 0; s < ISA_SLOT_NR; s++)
		if (slot[s])
			buf_addf(&w, "%s%s-bit %llu", w.len ? ", " : "widths ",
				 isa_slots[s].name, (unsigned long long)slot[s]);
	fd = finding(k, "atomics");
	fd->message = xstrfmt("%llu atomic instruction%s (%s), %llu %s the old "
			      "value%s%s", (unsigned long long)total, plural((long long)total),
			      b.buf, (unsigned long long)ret,
			      plural_word((long long)ret, "returns", "return"),
			      w.len ? "; " : "", w.buf);
	ev(fd, "atomics", (long long)total, ISA_SRC_NONE);
	ev(fd, "returning", (long long)ret, ISA_SRC_NONE);
	for (fam = 0; fam < ISA_FAM_NR; fam++)
		if (isa_families[fam].group == ISA_GROUP_ATOMIC && k->fam[fam].count)
			ev(fd, isa_families[fam].name, (long long)k->fam[fam].count,
			   ISA_SRC_NONE);
	buf_release(&b);
	buf_release(&w);
}

/* Adds "N what (source)" to b when resource r is known; what[0] for 1, what[1] else. */
static void spill_part(struct buf *b, const struct isa_kernel *k,
		       enum isa_res r, const char *const what[2])
{
	if (!isa_res_known(k, r))
		return;
	buf_addf(b, "%s%lld %s (%s)", b->len ? ", " : "", k->res[r].value,
		 plural_word(k->res[r].value, what[0], what[1]), isa_src_name(k->res[r].src));
}

static void spills(struct isa_kernel *k)
{
	static const enum isa_res rs[] = {
		ISA_RES_VGPR_SPILLS, ISA_RES_SGPR_SPILLS, ISA_RES_SCRATCH_BYTES,
		ISA_RES_LOCAL_BYTES,
	};
	static const char *const what[][2] = {
		{ "VGPR spilled", "VGPRs spilled" }, { "SGPR spilled", "SGPRs spilled" },
		{ "scratch byte per lane", "scratch bytes per lane" },
		{ "local byte per thread", "local bytes per thread" },
	};
	uint64_t st = k->fam[ISA_FAM_SCRATCH_STORE].count;
	uint64_t ld = k->fam[ISA_FAM_SCRATCH_LOAD].count;
	struct buf b = BUF_INIT;
	struct isa_finding *fd;
	int any = st || ld || k->spill_stores || k->spill_reloads, known = 0;
	size_t i;

	for (i = 0; i < sizeof(rs) / sizeof(rs[0]); i++) {
		if (!isa_res_known(k, rs[i]))
			continue;
		known = 1;
		any |= k->res[rs[i]].value > 0;
		spill_part(&b, k, rs[i], what[i]);
	}
	if (!any && !known) {
		buf_release(&b);
		return;
	}
	if (st || ld)
		buf_addf(&b, "%s%llu scratch store%s, %llu scratch load%s",
			 b.len ? ", " : "", (unsigned long long)st, plural((long long)st),
			 (unsigned long long)ld, plural((long long)ld));
	if (k->spill_stores || k->spill_reloads)
		buf_addf(&b, "%s%llu instruction%s commented as spills, %llu as reloads",
			 b.len ? ", " : "", (unsigned long long)k->spill_stores,
			 plural((long long)k->spill_stores),
			 (unsigned long long)k->spill_reloads);
	if (any && !k->is_kernel)
		buf_adds(&b, "; a device function's own frame, which a kernel calling it counts"
			   " in its scratch size");
	fd = finding(k, "spills");
	fd->message = xstrfmt("%s: %s", any ? "spills or scratch in use" : "no spills",
			      b.buf);
	buf_release(&b);
	for (i = 0; i < sizeof(rs) / sizeof(rs[0]); i++)
		ev_res(fd, k, rs[i]);
	ev(fd, "scratch_stores", (long long)st, ISA_SRC_NONE);
	ev(fd, "scratch_loads", (long long)ld, ISA_SRC_NONE);
	ev(fd, "spill_comments", (long long)(k->spill_stores + k->spill_reloads),
	   ISA_SRC_NONE);
}

static void occupancy(struct isa_kernel *k)
{
	const struct target *a = k->arch ? target_isa_find(k->arch, strlen(k->arch)) : NULL;
	const struct isa_value *occ = &k->res[ISA_RES_OCCUPANCY];
	const struct isa_value *v = &k->res[ISA_RES_VGPRS];
	struct isa_finding *fd;
	struct buf b = BUF_INIT;
	int waves = 0;

	if (occ->src == ISA_SRC_NONE)
		return;
	fd = finding(k, "occupancy");
	buf_addf(&b, "occupancy %lld wave%s per SIMD (%s)", occ->value, plural(occ->value),
		 isa_src_name(occ->src));
	if (v->src != ISA_SRC_NONE && a && a->vgpr_max) {
		buf_addf(&b, "; %lld of %d VGPRs per wave on %s", v->value,
			 a->vgpr_max, a->name);
		waves = target_vgpr_waves(a, v->value);
		if (waves)
			buf_addf(&b, ", which alone allow %d wave%s", waves, plural(waves));
	}
	fd->message = buf_detach(&b, NULL);
	ev_res(fd, k, ISA_RES_OCCUPANCY);
	ev_res(fd, k, ISA_RES_VGPRS);
	ev_res(fd, k, ISA_RES_AGPRS);
	ev_res(fd, k, ISA_RES_SGPRS);
	ev_res(fd, k, ISA_RES_LDS_BYTES);
	if (a && a->vgpr_max)
		ev(fd, "vgpr_budget", a->vgpr_max, ISA_SRC_ARCH);
	if (waves)
		ev(fd, "vgpr_limited_waves", waves, ISA_SRC_COMPUTED);
}

void isa_facts(const struct isa_file_result *f, struct isa_kernel *k)
{
	vector_width(k);
	narrow_lines(f, k);
	if (f->isa == ISA_AMDGCN)
		buffer_ops(k);
	atomics(k);
	spills(k);
	occupancy(k);
}
