/*
 * The SASS scanner. Input: the text of `cuobjdump -sass` ("code for
 * sm_90", "Function : name", then one instruction per line after an
 * address comment, "LDG.E.128 R4, desc[UR4][R2.64] ;") or `nvdisasm -g -c`
 * (".text.name:", "//## File "k.py", line 33"), with
 * `cuobjdump -res-usage` output ("Function name:" / "REG:30 STACK:0
 * SHARED:0 LOCAL:0") anywhere in it. Output: one kernel per function.
 * Entry point: isa_sass.
 *
 * A mnemonic's base (before the first '.') gives the family; its parts
 * give the width: "128"/"64" bits, U8/S8/U16/S16, F32x4 (128 bits) for
 * vector reductions, "LDSM.16.M88.4" four 32-bit matrix rows. ATOM*
 * return the old value, RED* do not.
 */
#include <string.h>

#include "isa/result.h"
#include "isa/sass.h"
#include "isa/tok.h"
#include "util/lines.h"
#include "banned.h"

static const struct {
	const char *base;	/* mnemonic before the first '.' */
	unsigned char family;	/* enum isa_family */
	unsigned char flags;	/* ISA_OPF_* */
} sass_ops[] = {
	{ "LDG", ISA_FAM_GLOBAL_LOAD, 0 },
	{ "STG", ISA_FAM_GLOBAL_STORE, 0 },
	{ "LD", ISA_FAM_FLAT_LOAD, 0 },
	{ "ST", ISA_FAM_FLAT_STORE, 0 },
	{ "LDL", ISA_FAM_SCRATCH_LOAD, 0 },
	{ "STL", ISA_FAM_SCRATCH_STORE, 0 },
	{ "LDS", ISA_FAM_LDS_READ, 0 },
	{ "STS", ISA_FAM_LDS_WRITE, 0 },
	{ "LDSM", ISA_FAM_LDS_MATRIX_READ, 0 },
	{ "STSM", ISA_FAM_LDS_MATRIX_WRITE, 0 },
	{ "LDGSTS", ISA_FAM_GLOBAL_TO_LDS, 0 },
	{ "ATOMG", ISA_FAM_GLOBAL_ATOMIC, ISA_OPF_ATOMIC | ISA_OPF_RETURNS },
	{ "REDG", ISA_FAM_GLOBAL_ATOMIC, ISA_OPF_ATOMIC },
	{ "RED", ISA_FAM_FLAT_ATOMIC, ISA_OPF_ATOMIC },
	{ "ATOM", ISA_FAM_FLAT_ATOMIC, ISA_OPF_ATOMIC | ISA_OPF_RETURNS },
	{ "ATOMS", ISA_FAM_LDS_ATOMIC, ISA_OPF_ATOMIC | ISA_OPF_RETURNS },
	{ "HMMA", ISA_FAM_MMA, 0 },
	{ "IMMA", ISA_FAM_MMA, 0 },
	{ "DMMA", ISA_FAM_MMA, 0 },
	{ "BMMA", ISA_FAM_MMA, 0 },
	{ "HGMMA", ISA_FAM_WGMMA, 0 },
	{ "IGMMA", ISA_FAM_WGMMA, 0 },
	{ "QGMMA", ISA_FAM_WGMMA, 0 },
	{ "BGMMA", ISA_FAM_WGMMA, 0 },
	{ "UTCHMMA", ISA_FAM_WGMMA, 0 },
	{ "UTCQMMA", ISA_FAM_WGMMA, 0 },
	{ "UTCIMMA", ISA_FAM_WGMMA, 0 },
	{ "UTMALDG", ISA_FAM_BULK_COPY, 0 },
	{ "UTMASTG", ISA_FAM_BULK_COPY, 0 },
	{ "UTMAREDG", ISA_FAM_BULK_COPY, 0 },
	{ "UBLKCP", ISA_FAM_BULK_COPY, 0 },
	{ "BAR", ISA_FAM_BARRIER, 0 },
	{ "DEPBAR", ISA_FAM_ASYNC_WAIT, 0 },
	{ "LDGDEPBAR", ISA_FAM_ASYNC_WAIT, 0 },
	{ "WARPGROUP", ISA_FAM_ASYNC_WAIT, 0 },
	{ "ARRIVES", ISA_FAM_ASYNC_WAIT, 0 },
	{ "SYNCS", ISA_FAM_ASYNC_WAIT, 0 },
	{ "MEMBAR", ISA_FAM_FENCE, 0 },
	{ "CCTL", ISA_FAM_FENCE, 0 },
	{ "ERRBAR", ISA_FAM_FENCE, 0 },
};

/* "F32x4" -> 128, "F16x2" -> 32, "U16" -> 16, "64" -> 64; 0 otherwise. */
static unsigned part_bits(const char *s, size_t n, int atomic)
{
	const char *p = s, *e = s + n;
	unsigned long long b, x = 1;

	if (tok_eq(s, n, "128"))
		return 128;
	if (tok_eq(s, n, "64"))
		return 64;
	if (tok_eq(s, n, "U8") || tok_eq(s, n, "S8"))
		return 8;
	if (tok_eq(s, n, "U16") || tok_eq(s, n, "S16"))
		return 16;
	if (!atomic)
		return 0;
	while (p < e && *p >= 'A' && *p <= 'Z')
		p++;
	if (p == s || tok_uint(&p, e, &b) < 0 || b > 128)
		return 0;
	if (p < e && *p == 'x' && (p++, tok_uint(&p, e, &x) < 0 || x > 8))
		return 0;
	return p == e ? (unsigned)(b * x) : 0;
}

static unsigned sass_bits(const char *m, size_t n, unsigned family, int atomic)
{
	const char *e = m + n, *p = memchr(m, '.', n);
	unsigned bits = 0, b;
	int after_m88 = 0;

	while (p && p < e) {
		const char *s = p + 1, *dot = memchr(s, '.', (size_t)(e - s));
		size_t k = (size_t)((dot ? dot : e) - s);

		if (family == ISA_FAM_LDS_MATRIX_READ || family == ISA_FAM_LDS_MATRIX_WRITE) {
			if (tok_eq(s, k, "M88") || tok_eq(s, k, "MT88"))
				after_m88 = 1;
			else if (after_m88 && k == 1 && *s >= '1' && *s <= '4')
				bits = 32 * (unsigned)(*s - '0');
		} else if ((b = part_bits(s, k, atomic))) {
			bits = b;
		}
		p = dot;
	}
	if (!bits && family <= ISA_FAM_LDS_ATOMIC && family != ISA_FAM_BULK_COPY)
		bits = 32;
	return bits;
}

static uint32_t sass_classify(struct isa_file_result *f, const char *m, size_t n)
{
	const char *dot = memchr(m, '.', n);
	size_t bn = dot ? (size_t)(dot - m) : n, i;

	for (i = 0; i < sizeof(sass_ops) / sizeof(sass_ops[0]); i++) {
		unsigned fam = sass_ops[i].family, bits;

		if (!tok_eq(m, bn, sass_ops[i].base))
			continue;
		bits = isa_families[fam].group == ISA_GROUP_MATRIX ||
		       isa_families[fam].group == ISA_GROUP_SYNC ? 0 :
		       sass_bits(m, n, fam, sass_ops[i].flags & ISA_OPF_ATOMIC);
		return isa_op_add(f, m, n, fam, bits ? isa_slot_of_bits(bits) : ISA_SLOT_NONE,
				  sass_ops[i].flags, 0);
	}
	return isa_op_add(f, m, n, ISA_FAM_NONE, ISA_SLOT_NONE, 0, 0);
}

struct sass_state {
	struct isa_file_result *f;	/* the result being filled */
	struct isa_kernel *cur;		/* function being read */
	struct isa_kernel *res;		/* function of the open -res-usage entry */
	char arch[32];			/* "sm_90", "" unknown */
	uint32_t loc_file, loc_line;	/* the last //## File line */
	int have_loc;			/* line info seen */
	size_t lineno;			/* of the current line */
};

static void start(struct sass_state *st, const char *name, size_t n)
{
	st->cur = isa_kernel_get(st->f, name, n, st->arch);
	st->cur->is_kernel = 1;
	if (!st->cur->label_line)
		st->cur->label_line = st->lineno;
	st->have_loc = 0;
}

static void set_arch(struct sass_state *st, const char *p, const char *e)
{
	const char *w = tok_word_end(p = tok_skip_ws(p, e), e, ",;");

	if (w > p && (size_t)(w - p) < sizeof(st->arch)) {
		memcpy(st->arch, p, (size_t)(w - p));
		st->arch[w - p] = '\0';
	}
}

/* "REG:30 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:576 ..." */
static void res_usage(struct sass_state *st, const char *p, const char *e)
{
	static const struct {
		const char *key;	/* as cuobjdump prints it */
		enum isa_res res;	/* where its number goes */
	} keys[] = {
		{ "REG:", ISA_RES_REGISTERS }, { "STACK:", ISA_RES_STACK_BYTES },
		{ "SHARED:", ISA_RES_SHARED_BYTES }, { "LOCAL:", ISA_RES_LOCAL_BYTES },
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *k = span_find(p, (size_t)(e - p), keys[i].key);
		unsigned long long v;

		if (k && (k == p || tok_is_ws(k[-1]))) {
			k += strlen(keys[i].key);
			if (tok_uint(&k, e, &v) == 0)
				isa_res_set(st->res, keys[i].res, (long long)v,
					    ISA_SRC_RES_USAGE);
		}
	}
}

/* "//## File "/path/k.py", line 33" (nvdisasm -g). */
static void line_info(struct sass_state *st, const char *p, const char *e)
{
	const char *s, *l;
	size_t n;
	unsigned long long v;

	p = span_find(p, (size_t)(e - p), "File");
	if (!p || (p += 4, tok_quoted(&p, e, &s, &n) < 0))
		return;
	l = span_find(p, (size_t)(e - p), "line ");
	if (!l)
		return;
	l += 5;
	if (tok_uint(&l, e, &v) < 0)
		return;
	st->loc_file = isa_srcfile_add(st->f, s, n);
	st->loc_line = v > UINT32_MAX ? 0 : (uint32_t)v;
	st->have_loc = 1;
}

static void instruction(struct sass_state *st, const char *q, const char *e)
{
	const char *w;
	uint32_t op;
	const struct isa_op *o;

	q = tok_skip_ws(q, e);
	if (q < e && *q == '@')
		q = tok_skip_ws(tok_word_end(q, e, ""), e);
	w = tok_word_end(q, e, ";");
	if (w == q || *q < 'A' || *q > 'Z')
		return;
	if (!st->cur)
		start(st, "(no symbol)", 11);
	st->cur->instructions++;
	if (!strchr("LSARHIDQUBWMCE", *q))
		return;
	if (!isa_op_find(st->f, q, (size_t)(w - q), &op))
		op = sass_classify(st->f, q, (size_t)(w - q));
	o = &st->f->ops[op];
	if (o->family != ISA_FAM_NONE)
		isa_count(st->f, st->cur, op, o->slot < ISA_SLOT_NR ? 1u << o->slot : 0,
			  (o->flags & ISA_OPF_RETURNS) != 0, st->loc_file,
			  st->loc_line, st->have_loc);
}

static void sass_line(struct sass_state *st, const char *s, const char *e)
{
	const char *q = tok_skip_ws(s, e), *p;
	size_t n = (size_t)(e - q);

	if (q >= e)
		return;
	if (n > 4 && q[0] == '/' && q[1] == '*') {
		p = span_find(q + 2, n - 2, "*/");
		if (p && q[2] != ' ')
			instruction(st, p + 2, e);
	} else if (span_starts(q, n, "//##")) {
		line_info(st, q, e);
	} else if (span_starts(q, n, "code for ")) {
		set_arch(st, q + 9, e);
	} else if (span_starts(q, n, ".target")) {
		set_arch(st, q + 7, e);
	} else if (span_starts(q, n, "Function : ")) {
		p = tok_skip_ws(q + 11, e);
		start(st, p, (size_t)(tok_word_end(p, e, "") - p));
	} else if (span_starts(q, n, "Function ") && e[-1] == ':') {
		p = tok_skip_ws(q + 9, e);
		st->res = isa_kernel_get(st->f, p, (size_t)(e - 1 - p), st->arch);
		st->res->is_kernel = 1;
	} else if (span_starts(q, n, "REG:") && st->res) {
		res_usage(st, q, e);
	} else if (span_starts(q, n, ".text.") && e[-1] == ':') {
		start(st, q + 6, (size_t)(e - 1 - q - 6));
	}
}

static int sass_scan(const char *data, size_t len, struct isa_file_result *f,
		     struct buf *err)
{
	struct sass_state st;
	struct lines it = LINES_INIT(data, len);
	const char *s;
	size_t n;

	(void)err;
	memset(&st, 0, sizeof(st));
	st.f = f;
	f->isa = ISA_SASS;
	f->format = "disassembly";
	while (lines_next(&it, &s, &n)) {
		st.lineno = it.lineno;
		sass_line(&st, s, s + n);
	}
	return 0;
}

static int sass_detect(const char *p, size_t n)
{
	int score = 0;

	if (span_find(p, n, "code for sm_") || span_find(p, n, "EF_CUDA_SM"))
		score += 60;
	if (span_find(p, n, "Function : ") || span_find(p, n, ".text."))
		score += 20;
	if (span_find(p, n, "/*0000*/"))
		score += 40;
	return score > 100 ? 100 : score;
}

const struct isa_scanner isa_sass = {
	"sass", ISA_SASS, sass_detect, sass_scan,
};
