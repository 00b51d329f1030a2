/*
 * Readers for AMDGCN resource blocks (see amdgcn_meta.h). The examples
 * in the tables are from corpus/amd-xcompile (gfx942 Triton) and
 * corpus/dcu (DTK gfx936, Tensile-style gfx936, clang 15 gfx928).
 */
#include <string.h>

#include "isa/amdgcn_meta.h"
#include "isa/result.h"
#include "isa/tok.h"
#include "util/lines.h"
#include "banned.h"

struct key_res {
	const char *key;	/* as written */
	size_t len;		/* its length */
	enum isa_res res;	/* where its number goes */
};
#define KEY(k, r) { k, sizeof(k) - 1, r }

/* amdhsa.kernels entry keys ("    .vgpr_count:     12"). */
static const struct key_res yaml_keys[] = {
	KEY(".vgpr_count", ISA_RES_VGPRS),	/* arch+acc on gfx90a+, arch on DCU */
	KEY(".agpr_count", ISA_RES_AGPRS),
	KEY(".sgpr_count", ISA_RES_SGPRS),
	KEY(".vgpr_spill_count", ISA_RES_VGPR_SPILLS),
	KEY(".sgpr_spill_count", ISA_RES_SGPR_SPILLS),
	KEY(".group_segment_fixed_size", ISA_RES_LDS_BYTES),
	KEY(".private_segment_fixed_size", ISA_RES_SCRATCH_BYTES),
	KEY(".wavefront_size", ISA_RES_WAVEFRONT),
	KEY(".max_flat_workgroup_size", ISA_RES_WORKGROUP),
};

/*
 * "; Kernel info:" keys. gfx942 prints TotalNumSgprs, DCU's clang 17 and
 * clang 15 print NumSgprs; NumAgprs/TotalNumVgprs only exist on gfx90a+.
 */
static const struct key_res kinfo_keys[] = {
	KEY("codeLenInByte", ISA_RES_CODE_BYTES),
	KEY("NumSgprs", ISA_RES_SGPRS),
	KEY("TotalNumSgprs", ISA_RES_SGPRS),
	KEY("NumVgprs", ISA_RES_ARCH_VGPRS),
	KEY("NumAgprs", ISA_RES_AGPRS),
	KEY("TotalNumVgprs", ISA_RES_VGPRS),
	KEY("ScratchSize", ISA_RES_SCRATCH_BYTES),
	KEY("LDSByteSize", ISA_RES_LDS_BYTES),
	KEY("Occupancy", ISA_RES_OCCUPANCY),
};

/* .amdhsa_* keys; next_free_* also stand in for the counts when nothing better exists. */
static const struct {
	const char *key;	/* the directive without its dot */
	enum isa_res res;	/* where its number goes */
	enum isa_res also;	/* a second resource it stands in for, or ISA_RES_NR */
} hsa_keys[] = {
	{ "amdhsa_next_free_vgpr", ISA_RES_NEXT_FREE_VGPR, ISA_RES_VGPRS },
	{ "amdhsa_next_free_sgpr", ISA_RES_NEXT_FREE_SGPR, ISA_RES_SGPRS },
	{ "amdhsa_group_segment_fixed_size", ISA_RES_LDS_BYTES, ISA_RES_NR },
	{ "amdhsa_private_segment_fixed_size", ISA_RES_SCRATCH_BYTES, ISA_RES_NR },
	{ "amdhsa_accum_offset", ISA_RES_ACCUM_OFFSET, ISA_RES_NR },
};

/* LLVM 19+ ".set <kernel>.num_vgpr, 12" symbols. */
static const struct key_res set_keys[] = {
	KEY("num_vgpr", ISA_RES_ARCH_VGPRS),
	KEY("num_agpr", ISA_RES_AGPRS),
	KEY("numbered_sgpr", ISA_RES_SGPRS),
	KEY("private_seg_size", ISA_RES_SCRATCH_BYTES),
};

static int key_lookup(const struct key_res *t, size_t nt, const char *k,
		      size_t n, enum isa_res *res)
{
	size_t i;

	for (i = 0; i < nt; i++)
		if (t[i].len == n && !memcmp(k, t[i].key, n)) {
			*res = t[i].res;
			return 1;
		}
	return 0;
}

void amd_yaml_reset(struct amd_yaml *y)
{
	memset(y, 0, sizeof(*y));
	y->item_indent = -1;
}

void amd_yaml_flush(struct amd_yaml *y, struct isa_file_result *f,
		    const char *arch)
{
	struct isa_kernel *k;
	size_t r;

	if (y->entry && y->name_len) {
		k = isa_kernel_get(f, y->name, y->name_len, arch);
		k->is_kernel = 1;
		for (r = 0; r < ISA_RES_NR; r++)
			if (y->have[r])
				isa_res_set(k, (enum isa_res)r, y->val[r],
					    ISA_SRC_METADATA);
	}
	y->entry = 0;
	y->name_len = 0;
	memset(y->have, 0, sizeof(y->have));
}

/* Strips YAML quotes from a scalar value. */
static void unquote(const char **v, size_t *n)
{
	span_trim(v, n);
	if (*n >= 2 && ((*v)[0] == '\'' || (*v)[0] == '"') &&
	    (*v)[*n - 1] == (*v)[0]) {
		(*v)++;
		*n -= 2;
	}
}

/* An entry-level "key: value" of a kernel entry. */
static void yaml_entry_key(struct amd_yaml *y, const char *k, size_t kn,
			   const char *v, size_t vn)
{
	enum isa_res r;
	long long x;
	const char *p = v;

	unquote(&v, &vn);
	if (TOK_IS(k, kn, ".name")) {
		if (vn < sizeof(y->name)) {
			memcpy(y->name, v, vn);
			y->name_len = vn;
		}
		return;
	}
	p = v;
	if (key_lookup(yaml_keys, sizeof(yaml_keys) / sizeof(yaml_keys[0]), k, kn, &r) &&
	    tok_int(&p, v + vn, &x) == 0) {
		y->val[r] = x;
		y->have[r] = 1;
	}
}

int amd_yaml_line(struct amd_yaml *y, struct isa_file_result *f,
		  const char *arch, const char *s, size_t n, const char **t,
		  size_t *tn)
{
	const char *e = s + n, *p = tok_skip_ws(s, e), *colon;
	int indent = (int)(p - s), item = 0;

	if (p >= e || *p == '#')
		return 0;
	if (indent == 0) {
		if (y->in_kernels)
			amd_yaml_flush(y, f, arch);
		y->in_kernels = span_starts(p, (size_t)(e - p), "amdhsa.kernels:");
		if (span_starts(p, (size_t)(e - p), "amdhsa.target:")) {
			*t = p + strlen("amdhsa.target:");
			*tn = (size_t)(e - *t);
			unquote(t, tn);
			return 1;
		}
		return 0;
	}
	if (!y->in_kernels || (y->item_indent >= 0 && indent > y->item_indent + 2))
		return 0;
	if (e - p >= 2 && p[0] == '-' && p[1] == ' ') {
		if (y->item_indent < 0)
			y->item_indent = indent;
		if (indent == y->item_indent) {
			amd_yaml_flush(y, f, arch);
			y->entry = 1;
		}
		item = 1;
		p = tok_skip_ws(p + 2, e);
	}
	if (!y->entry || (item ? indent : indent - 2) != y->item_indent)
		return 0;
	colon = memchr(p, ':', (size_t)(e - p));
	if (colon)
		yaml_entry_key(y, p, (size_t)(colon - p), colon + 1,
			       (size_t)(e - colon - 1));
	return 0;
}

void amd_kinfo_line(struct isa_kernel *k, const char *s, size_t n)
{
	const char *e = s + n, *p = s, *sep, *kend, *v;
	enum isa_res r;
	long long x;

	while (p < e && (*p == ';' || tok_is_ws(*p)))
		p++;
	for (sep = p; sep < e && *sep != ':' && *sep != '='; sep++)
		;
	if (sep >= e)
		return;
	kend = sep;
	while (kend > p && tok_is_ws(kend[-1]))
		kend--;
	v = tok_skip_ws(sep + 1, e);
	if (key_lookup(kinfo_keys, sizeof(kinfo_keys) / sizeof(kinfo_keys[0]), p,
		       (size_t)(kend - p), &r) &&
	    tok_int(&v, e, &x) == 0)
		isa_res_set(k, r, x, ISA_SRC_KERNEL_INFO);
}

void amd_hsa_field(struct isa_kernel *k, const char *name, size_t nn,
		   const char *p, const char *e)
{
	long long x;
	size_t i;

	p = tok_skip_ws(p, e);
	if (tok_int(&p, e, &x) < 0)
		return;
	if (TOK_IS(name, nn, "amdhsa_wavefront_size32")) {
		isa_res_set(k, ISA_RES_WAVEFRONT, x ? 32 : 64, ISA_SRC_AMDHSA);
		return;
	}
	for (i = 0; i < sizeof(hsa_keys) / sizeof(hsa_keys[0]); i++) {
		if (!tok_eq(name, nn, hsa_keys[i].key))
			continue;
		isa_res_set(k, hsa_keys[i].res, x, ISA_SRC_AMDHSA);
		if (hsa_keys[i].also != ISA_RES_NR)
			isa_res_set(k, hsa_keys[i].also, x, ISA_SRC_AMDHSA);
		return;
	}
}

int amd_set_field(struct isa_file_result *f, const char *arch,
		  const char *sym, size_t n, long long v)
{
	const char *dot = NULL, *p;
	struct isa_kernel *k;
	enum isa_res r;

	for (p = sym; p < sym + n; p++)
		if (*p == '.')
			dot = p;
	if (!dot || dot == sym ||
	    !key_lookup(set_keys, sizeof(set_keys) / sizeof(set_keys[0]), dot + 1,
			(size_t)(sym + n - dot - 1), &r))
		return 0;
	k = isa_kernel_find(f, sym, (size_t)(dot - sym), arch);
	if (!k)
		return 0;
	isa_res_set(k, r, v, ISA_SRC_SYMBOL);
	return 1;
}
