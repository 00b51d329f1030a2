/*
 * The PTX scanner. Input: PTX text (Triton's <kernel>.ptx, nvcc -ptx
 * output). Output: one isa_file_result kernel per .entry / .func with a
 * body. Entry point: isa_ptx.
 *
 * A mnemonic is split on '.' into its base (ld, st, atom, red, cp, mma,
 * wgmma, ldmatrix, ...), state space (global, shared, local, param) and
 * type/vector parts, which give the family and the bits per thread.
 * Cache-hint parts (L1::evict_last, L2::cache_hint) are dropped from the
 * op's name, so "ld.global.L1::evict_last.v4.b32" counts as
 * "ld.global.v4.b32". `atom` returns the old value, `red` does not.
 * cp.async's width is its cp-size operand (0x10 = 16 bytes).
 */
#include <string.h>

#include "isa/ptx.h"
#include "isa/result.h"
#include "isa/tok.h"
#include "util/lines.h"
#include "banned.h"

#define ISA_OPF_CPSIZE 64	/* width is cp.async's cp-size operand */

struct ptx_state {
	struct isa_file_result *f;	/* the result being filled */
	struct isa_kernel *cur;		/* the .entry / .func being read */
	char arch[32];			/* from .target, "" unknown */
	uint32_t fmap[256];		/* .file number -> source file id */
	uint32_t loc_file, loc_line;	/* the last .loc */
	int have_loc;			/* a .loc was seen */
	size_t lineno;			/* of the current line */
	struct isa_op_cache last;	/* the last raw mnemonic looked up */
};

static unsigned type_bits(const char *s, size_t n)
{
	static const struct {
		const char *t;		/* the type part */
		unsigned bits;		/* bits of one element */
	} types[] = {
		{ "b8", 8 }, { "u8", 8 }, { "s8", 8 }, { "e4m3x2", 16 },
		{ "b16", 16 }, { "u16", 16 }, { "s16", 16 }, { "f16", 16 },
		{ "bf16", 16 }, { "b32", 32 }, { "u32", 32 }, { "s32", 32 },
		{ "f32", 32 }, { "f16x2", 32 }, { "bf16x2", 32 }, { "tf32", 32 },
		{ "b64", 64 }, { "u64", 64 }, { "s64", 64 }, { "f64", 64 },
		{ "b128", 128 },
	};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (tok_eq(s, n, types[i].t))
			return types[i].bits;
	return 0;
}

enum ptx_space { SP_GENERIC, SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_OTHER };

/* What the parts after the base say: state space, vector count, bits. */
struct ptx_parts {
	enum ptx_space space;
	unsigned vec;		/* v2/v4/v8, else 1 */
	unsigned bits;		/* element bits of the last type part */
	unsigned x;		/* ldmatrix .x1/.x2/.x4 */
};

static void parse_parts(const char *m, const char *e, struct ptx_parts *pp)
{
	const char *p = memchr(m, '.', (size_t)(e - m));

	memset(pp, 0, sizeof(*pp));
	pp->vec = 1;
	while (p && p < e) {
		const char *s = p + 1, *dot = memchr(s, '.', (size_t)(e - s));
		size_t n = (size_t)((dot ? dot : e) - s);
		unsigned b;

		if (tok_eq(s, n, "global"))
			pp->space = SP_GLOBAL;
		else if (span_starts(s, n, "shared"))
			pp->space = SP_SHARED;
		else if (tok_eq(s, n, "local"))
			pp->space = SP_LOCAL;
		else if (tok_eq(s, n, "param") || tok_eq(s, n, "const") ||
			 tok_eq(s, n, "tex"))
			pp->space = SP_OTHER;
		else if (n == 2 && s[0] == 'v' && s[1] >= '2' && s[1] <= '8')
			pp->vec = (unsigned)(s[1] - '0');
		else if (n == 2 && s[0] == 'x' && s[1] >= '1' && s[1] <= '4')
			pp->x = (unsigned)(s[1] - '0');
		else if ((b = type_bits(s, n)))
			pp->bits = b;
		p = dot;
	}
}

static const unsigned char space_fam[][3] = {
	/* load, store, atomic */
	[SP_GENERIC] = { ISA_FAM_FLAT_LOAD, ISA_FAM_FLAT_STORE, ISA_FAM_FLAT_ATOMIC },
	[SP_GLOBAL] = { ISA_FAM_GLOBAL_LOAD, ISA_FAM_GLOBAL_STORE, ISA_FAM_GLOBAL_ATOMIC },
	[SP_SHARED] = { ISA_FAM_LDS_READ, ISA_FAM_LDS_WRITE, ISA_FAM_LDS_ATOMIC },
	[SP_LOCAL] = { ISA_FAM_SCRATCH_LOAD, ISA_FAM_SCRATCH_STORE, ISA_FAM_NONE },
	[SP_OTHER] = { ISA_FAM_NONE, ISA_FAM_NONE, ISA_FAM_NONE },
};

/* Family of bases whose parts do not matter beyond a prefix. */
static const struct {
	const char *prefix;	/* mnemonic prefix; the first matching row wins */
	unsigned char family;	/* enum isa_family */
} ptx_prefix_fam[] = {
	{ "cp.async.bulk", ISA_FAM_BULK_COPY },
	{ "cp.reduce.async.bulk", ISA_FAM_BULK_COPY },
	{ "cp.async.commit_group", ISA_FAM_ASYNC_WAIT },
	{ "cp.async.wait", ISA_FAM_ASYNC_WAIT },
	{ "cp.async.mbarrier", ISA_FAM_ASYNC_WAIT },
	{ "wgmma.mma_async", ISA_FAM_WGMMA },
	{ "wgmma.", ISA_FAM_ASYNC_WAIT },
	{ "tcgen05.mma", ISA_FAM_WGMMA },
	{ "mma.", ISA_FAM_MMA },
	{ "mbarrier.", ISA_FAM_ASYNC_WAIT },
	{ "barrier.", ISA_FAM_BARRIER },
	{ "bar.", ISA_FAM_BARRIER },
	{ "fence.", ISA_FAM_FENCE },
	{ "membar.", ISA_FAM_FENCE },
};

static uint32_t ptx_classify(struct isa_file_result *f, const char *m, size_t n)
{
	const char *e = m + n, *dot = memchr(m, '.', n);
	size_t bn = (size_t)((dot ? dot : e) - m), i;
	struct ptx_parts pp;
	unsigned fam = ISA_FAM_NONE, flags = 0, bits = 0;

	parse_parts(m, e, &pp);
	for (i = 0; i < sizeof(ptx_prefix_fam) / sizeof(ptx_prefix_fam[0]); i++)
		if (span_starts(m, n, ptx_prefix_fam[i].prefix))
			return isa_op_add(f, m, n, ptx_prefix_fam[i].family,
					  ISA_SLOT_NONE, 0, 0);
	if (tok_eq(m, bn, "ld") || tok_eq(m, bn, "ldu")) {
		fam = space_fam[pp.space][0];
	} else if (tok_eq(m, bn, "st")) {
		fam = space_fam[pp.space][1];
	} else if (tok_eq(m, bn, "atom") || tok_eq(m, bn, "red")) {
		fam = space_fam[pp.space][2];
		flags = ISA_OPF_ATOMIC | (m[0] == 'a' ? ISA_OPF_RETURNS : 0);
	} else if (span_starts(m, n, "cp.async.")) {
		fam = ISA_FAM_GLOBAL_TO_LDS;
		flags = ISA_OPF_CPSIZE;
	} else if (tok_eq(m, bn, "ldmatrix") || tok_eq(m, bn, "stmatrix")) {
		fam = m[0] == 'l' ? ISA_FAM_LDS_MATRIX_READ : ISA_FAM_LDS_MATRIX_WRITE;
		bits = 32 * (pp.x ? pp.x : 1);
	}
	if (!bits && pp.bits && fam != ISA_FAM_GLOBAL_TO_LDS)
		bits = pp.bits * pp.vec;
	return isa_op_add(f, m, n, fam, bits ? isa_slot_of_bits(bits) : ISA_SLOT_NONE,
			  flags, 0);
}

/* The mnemonic without cache-hint parts ("L1::evict_last", "L2::..."). */
static size_t normalize(const char *m, size_t n, char *out, size_t cap)
{
	const char *e = m + n, *p = m;
	size_t len = 0;

	while (p < e) {
		const char *dot = memchr(p + 1, '.', (size_t)(e - p - 1));
		const char *end = dot ? dot : e;
		size_t k = (size_t)(end - p);

		if (!(p > m && (span_starts(p + 1, k - 1, "L1::") ||
				span_starts(p + 1, k - 1, "L2::")))) {
			if (len + k >= cap)
				return 0;
			memcpy(out + len, p, k);
			len += k;
		}
		p = end;
	}
	return len;
}

static uint32_t lookup(struct ptx_state *st, const char *m, size_t n)
{
	char norm[128];
	size_t k;
	uint32_t op;

	if (isa_op_cache_get(&st->last, m, n, &op))
		return op;
	k = normalize(m, n, norm, sizeof(norm));
	if (!k)
		return UINT32_MAX;
	if (!isa_op_find(st->f, norm, k, &op))
		op = ptx_classify(st->f, norm, k);
	isa_op_cache_put(&st->last, m, n, op);
	return op;
}

/* The cp-size operand (third) of cp.async, in bits; 0 when unreadable. */
static unsigned cp_size_bits(const char *p, const char *e)
{
	int depth = 0, idx = 0;
	unsigned long long v;

	for (; p < e && idx < 2; p++) {
		if (*p == '[' || *p == '{')
			depth++;
		else if (*p == ']' || *p == '}')
			depth--;
		else if (*p == ',' && !depth)
			idx++;
	}
	p = tok_skip_ws(p, e);
	if (idx != 2 || tok_uint(&p, e, &v) < 0 || v > 64)
		return 0;
	return (unsigned)v * 8;
}

static void instruction(struct ptx_state *st, const char *q, const char *e)
{
	const char *w = tok_word_end(q, e, ";");
	size_t n = (size_t)(w - q);
	uint32_t op;
	const struct isa_op *o;
	unsigned slots;
	struct isa_kernel *k;

	if (!n || *q < 'a' || *q > 'z' || !st->cur)
		return;
	k = st->cur;
	k->instructions++;
	if (!strchr("lsarcmwbtf", *q))
		return;
	op = lookup(st, q, n);
	if (op == UINT32_MAX || st->f->ops[op].family == ISA_FAM_NONE)
		return;
	o = &st->f->ops[op];
	slots = o->slot < ISA_SLOT_NR ? 1u << o->slot : 0;
	if (o->flags & ISA_OPF_CPSIZE) {
		unsigned s = isa_slot_of_bits(cp_size_bits(w, e));

		slots = s < ISA_SLOT_NR ? 1u << s : 0;
	}
	isa_count(st->f, k, op, slots, (o->flags & ISA_OPF_RETURNS) != 0,
		  st->loc_file, st->loc_line, st->have_loc);
}

/* ".visible .entry name(" / ".func (.param .b32 r) name(" with a body. */
static void entry(struct ptx_state *st, const char *q, const char *e)
{
	const char *p = span_find(q, (size_t)(e - q), ".entry"), *name, *end;
	int is_entry = p != NULL;

	if (span_find(q, (size_t)(e - q), ".extern"))
		return;
	if (!p)
		p = span_find(q, (size_t)(e - q), ".func");
	if (!p)
		return;
	p = tok_skip_ws(p + (is_entry ? 6 : 5), e);
	if (p < e && *p == '(') {
		const char *close = memchr(p, ')', (size_t)(e - p));

		if (!close)
			return;
		p = tok_skip_ws(close + 1, e);
	}
	name = p;
	for (end = name; end < e && tok_is_ident(*end); end++)
		;
	if (end == name)
		return;
	st->cur = isa_kernel_get(st->f, name, (size_t)(end - name), st->arch);
	st->cur->is_kernel = is_entry;
	if (!st->cur->label_line)
		st->cur->label_line = st->lineno;
}

static void directive(struct ptx_state *st, const char *q, const char *e)
{
	const char *p = q + 1, *w = tok_word_end(p, e, ",;");
	size_t n = (size_t)(w - p);
	unsigned long long a, b;
	const char *s;
	size_t sn;

	w = tok_skip_ws(w, e);
	if (tok_eq(p, n, "loc")) {
		if (tok_uint(&w, e, &a) == 0 && (w = tok_skip_ws(w, e), tok_uint(&w, e, &b) == 0)) {
			st->loc_file = a < 256 ? st->fmap[a] : 0;
			st->loc_line = b > UINT32_MAX ? 0 : (uint32_t)b;
			st->have_loc = 1;
		}
	} else if (tok_eq(p, n, "file")) {
		if (tok_uint(&w, e, &a) == 0 && a < 256 && tok_quoted(&w, e, &s, &sn) == 0)
			st->fmap[a] = isa_srcfile_add(st->f, s, sn);
	} else if (tok_eq(p, n, "target")) {
		const char *t = tok_word_end(w, e, ",;");

		if ((size_t)(t - w) < sizeof(st->arch)) {
			memcpy(st->arch, w, (size_t)(t - w));
			st->arch[t - w] = '\0';
		}
	} else if ((tok_eq(p, n, "reqntid") || tok_eq(p, n, "maxntid")) && st->cur) {
		if (tok_uint(&w, e, &a) == 0)
			isa_res_set(st->cur, ISA_RES_WORKGROUP, (long long)a, ISA_SRC_PTX);
	} else if (tok_eq(p, n, "visible") || tok_eq(p, n, "entry") ||
		   tok_eq(p, n, "func") || tok_eq(p, n, "weak")) {
		entry(st, q, e);
	}
}

static int ptx_scan(const char *data, size_t len, struct isa_file_result *f,
		    struct buf *err)
{
	struct ptx_state st;
	struct lines it = LINES_INIT(data, len);
	const char *s;
	size_t n;

	(void)err;
	memset(&st, 0, sizeof(st));
	st.f = f;
	f->isa = ISA_PTX;
	f->format = "ptx";
	while (lines_next(&it, &s, &n)) {
		const char *e = s + n, *q = tok_skip_ws(s, e);

		st.lineno = it.lineno;
		if (q >= e)
			continue;
		if (*q == '@') {
			q = tok_skip_ws(tok_word_end(q, e, ""), e);
			if (q >= e)
				continue;
		}
		if (*q == '.')
			directive(&st, q, e);
		else
			instruction(&st, q, e);
	}
	return 0;
}

static int ptx_detect(const char *p, size_t n)
{
	int score = 0;

	if (span_find(p, n, ".version ") && span_find(p, n, ".target sm_"))
		score += 60;
	if (span_find(p, n, ".address_size"))
		score += 20;
	if (span_find(p, n, ".entry ") || span_find(p, n, ".func "))
		score += 20;
	return score > 100 ? 100 : score;
}

const struct isa_scanner isa_ptx = {
	"ptx", ISA_PTX, ptx_detect, ptx_scan,
};
