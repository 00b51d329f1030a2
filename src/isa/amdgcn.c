/*
 * The AMDGCN scanner. Input: AMDGCN assembly text in any of the forms
 * seen in the corpus -- LLVM's asm printer (Triton .amdgcn, hipcc
 * -save-temps .s and its clang offload bundles with one part per arch,
 * DTK / DCU "hcu" output), hand-written Tensile-style .s (.macro, .if,
 * symbolic v[vgprX+N] operands, // and block comments), llvm-objdump -d
 * listings with llvm-readelf --notes appended, and dccobjdump ISA dumps.
 * Output: the kernels of an isa_file_result. Entry point: isa_amdgcn.
 *
 * One pass, one line at a time, no allocation per line. Each line is
 * dispatched on its first character; instruction mnemonics are matched
 * against the family table only when their first letters can start a
 * counted family, and a mnemonic is classified once and then found by
 * an interned lookup (the last one is cached). Block comments are found
 * with one memmem over the text, so lines without one pay nothing.
 *
 * Instructions inside .macro bodies are counted once, as written, and
 * macro calls are not expanded: the counts are what a grep of the text
 * sees, minus comments and false .if branches. ROCm vs DCU spellings are
 * rows of amd_ops below (v_mmac_*, ds_read_m*, buffer_load ... lds).
 */
#include <string.h>

#include "isa/amdgcn.h"
#include "isa/amdgcn_meta.h"
#include "isa/amdgcn_ops.h"
#include "isa/asmcond.h"
#include "isa/result.h"
#include "isa/tok.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

enum amd_mode {
	M_CODE,		/* instructions and directives */
	M_YAML,		/* inside .amdgpu_metadata / AMDGPU Metadata */
	M_KINFO,	/* inside a "; Kernel info:" comment block */
	M_HOST,		/* the host part of an offload bundle: skipped */
};

struct amd_state {
	struct isa_file_result *f;
	struct isa_kernel *cur;		/* the symbol whose code this is */
	char arch[64];			/* current target processor; "" unknown */
	enum amd_mode mode;
	size_t lineno;			/* of the line being read */
	uint32_t fmap[256];		/* .file number -> source file id */
	uint32_t loc_file, loc_line;	/* the last .loc */
	int have_loc;			/* a .loc was seen in this part */
	int part_has_symbol;		/* a symbol started since the last target change */
	struct strmap funcs;		/* names declared by .globl/.type/.amdhsa_kernel */
	struct strmap macros;		/* .macro names */
	uint64_t macro_first[4];	/* bit per first byte of a .macro name */
	struct strmap syms;		/* integer .set symbols, for .if */
	int in_macro;			/* inside a .macro body */
	struct asm_cond cond;		/* the .if stack */
	int active;			/* asm_cond_active(&cond), kept current */
	struct isa_kernel *hsa;		/* kernel of the open .amdhsa_kernel block */
	struct isa_kernel *kinfo;	/* kernel of the open Kernel info block */
	struct amd_yaml yaml;		/* the open metadata block */
	const char *next_block;		/* the next "/" "*" in the text, or NULL */
	int in_block;			/* the line starts inside a block comment */
	struct buf clean;		/* the current line without block comments */
	char last[64];			/* the last mnemonic looked up ... */
	size_t last_n;			/* ... its length (0: none) ... */
	uint32_t last_op;		/* ... and its op */
	uint64_t macro_calls;		/* lines calling a .macro */
	uint64_t unknown_ifs;		/* .if conditions that could not be evaluated */
	int bundle_parts;		/* device parts of an offload bundle */
	int host_parts;			/* host parts skipped */
	int objdump;			/* llvm-objdump style listing */
};

static int active(const struct amd_state *st)
{
	return st->active;
}

static struct isa_kernel *current(struct amd_state *st)
{
	if (!st->cur)
		st->cur = isa_kernel_get(st->f, "(no symbol)", 11, st->arch);
	return st->cur;
}

static void start_symbol(struct amd_state *st, const char *name, size_t n)
{
	st->cur = isa_kernel_get(st->f, name, n, st->arch);
	if (!st->cur->label_line)
		st->cur->label_line = st->lineno;
	st->part_has_symbol = 1;
}

/* A new target (arch) or bundle part: .file numbers start afresh. */
static void new_part(struct amd_state *st, const char *arch, size_t n)
{
	size_t i;

	memset(st->fmap, 0, sizeof(st->fmap));
	st->have_loc = 0;
	st->loc_file = st->loc_line = 0;
	st->cur = NULL;
	st->part_has_symbol = 0;
	if (n >= sizeof(st->arch))
		n = sizeof(st->arch) - 1;
	memcpy(st->arch, arch, n);
	st->arch[n] = '\0';
	for (i = 0; i < st->f->kernels_nr; i++)
		isa_kernel_fill_arch(st->f->kernels[i], st->arch);
}

/* "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-" -> "gfx942". */
static int target_arch(const char *s, size_t n, const char **a, size_t *an)
{
	const char *g = TOK_FIND(s, n, "gfx"), *e = s + n, *p;

	if (!g)
		return -1;
	for (p = g; p < e && ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')); p++)
		;
	*a = g;
	*an = (size_t)(p - g);
	return 0;
}

static void set_target(struct amd_state *st, const char *s, size_t n)
{
	const char *a;
	size_t an;

	if (target_arch(s, n, &a, &an) < 0)
		return;
	if (an == strlen(st->arch) && !memcmp(a, st->arch, an))
		return;
	new_part(st, a, an);
}

/* ".loc 1 22 0 prologue_end": the source line of what follows. */
static void d_loc(struct amd_state *st, const char *p, const char *e)
{
	unsigned long long file, line;

	p = tok_skip_ws(p, e);
	if (tok_dec(&p, e, &file) < 0)
		return;
	p = tok_skip_ws(p, e);
	if (tok_dec(&p, e, &line) < 0)
		return;
	st->loc_file = file < 256 ? st->fmap[file] : 0;
	st->loc_line = line > UINT32_MAX ? 0 : (uint32_t)line;
	st->have_loc = 1;
}

/* ".file 1 "dir" "name"" or ".file 1 "path"" (".file "x.cpp"" has no number). */
static void d_file(struct amd_state *st, const char *p, const char *e)
{
	unsigned long long num;
	const char *a, *b;
	size_t an, bn;
	struct buf path = BUF_INIT;

	p = tok_skip_ws(p, e);
	if (tok_uint(&p, e, &num) < 0 || num >= 256 || tok_quoted(&p, e, &a, &an) < 0)
		return;
	if (tok_quoted(&p, e, &b, &bn) == 0 && bn) {
		if (b[0] != '/' && an) {
			buf_add(&path, a, an);
			if (a[an - 1] != '/')
				buf_addch(&path, '/');
		}
		buf_add(&path, b, bn);
	} else {
		buf_add(&path, a, an);
	}
	st->fmap[num] = isa_srcfile_add(st->f, path.buf, path.len);
	buf_release(&path);
}

static void d_target(struct amd_state *st, const char *p, const char *e)
{
	const char *s;
	size_t n;

	if (tok_quoted(&p, e, &s, &n) == 0)
		set_target(st, s, n);
}

static void declare(struct amd_state *st, const char *p, const char *e)
{
	const char *w;
	int added;

	p = tok_skip_ws(p, e);
	w = tok_word_end(p, e, ",;");
	if (w > p)
		strmap_put(&st->funcs, p, (size_t)(w - p), &added);
}

static void d_globl(struct amd_state *st, const char *p, const char *e)
{
	declare(st, p, e);
}

/* ".type name,@function" */
static void d_type(struct amd_state *st, const char *p, const char *e)
{
	if (TOK_FIND(p, (size_t)(e - p), "@function"))
		declare(st, p, e);
}

static void d_hsa_kernel(struct amd_state *st, const char *p, const char *e)
{
	const char *w;

	p = tok_skip_ws(p, e);
	w = tok_word_end(p, e, ";/");
	if (w == p)
		return;
	declare(st, p, e);
	st->hsa = isa_kernel_get(st->f, p, (size_t)(w - p), st->arch);
	st->hsa->is_kernel = 1;
}

static void d_hsa_end(struct amd_state *st, const char *p, const char *e)
{
	(void)p;
	(void)e;
	st->hsa = NULL;
}

static void d_metadata(struct amd_state *st, const char *p, const char *e)
{
	(void)p;
	(void)e;
	st->mode = M_YAML;
	amd_yaml_reset(&st->yaml);
}

/* ".set NAME, VALUE": kernel resource symbols, or integers for .if. */
static void d_set(struct amd_state *st, const char *p, const char *e)
{
	const char *w, *v;
	long long x;
	int added;

	p = tok_skip_ws(p, e);
	w = tok_word_end(p, e, ",");
	v = tok_skip_ws(w, e);
	if (w == p || v >= e || *v != ',')
		return;
	v = tok_skip_ws(v + 1, e);
	if (tok_int(&v, e, &x) < 0)
		return;
	if (!amd_set_field(st->f, st->arch, p, (size_t)(w - p), x))
		*strmap_put(&st->syms, p, (size_t)(w - p), &added) = (size_t)x;
}

static void d_macro(struct amd_state *st, const char *p, const char *e)
{
	const char *w;
	int added;

	p = tok_skip_ws(p, e);
	w = tok_word_end(p, e, ",");
	if (w > p) {
		strmap_put(&st->macros, p, (size_t)(w - p), &added);
		st->macro_first[(unsigned char)*p >> 6] |= 1ull << ((unsigned char)*p & 63);
	}
	st->in_macro = 1;
}

static void d_endm(struct amd_state *st, const char *p, const char *e)
{
	(void)p;
	(void)e;
	st->in_macro = 0;
}

/* The truth of a condition; unknown ones count as true (and are noted). */
static int cond_value(struct amd_state *st, const char *p, const char *e)
{
	long long v;

	if (asm_cond_eval(&st->syms, p, tok_comment_start(p, e), &v) < 0) {
		st->unknown_ifs++;
		return 1;
	}
	return v != 0;
}

static void d_if(struct amd_state *st, const char *p, const char *e)
{
	asm_cond_if(&st->cond, cond_value(st, p, e));
	st->active = asm_cond_active(&st->cond);
}

static void d_ifdef(struct amd_state *st, const char *p, const char *e, int want)
{
	const char *w;
	size_t v;

	p = tok_skip_ws(p, e);
	w = tok_word_end(p, e, ";/");
	asm_cond_if(&st->cond, strmap_get(&st->syms, p, (size_t)(w - p), &v) == want);
	st->active = asm_cond_active(&st->cond);
}

static void d_ifdef1(struct amd_state *st, const char *p, const char *e)
{
	d_ifdef(st, p, e, 1);
}

static void d_ifndef(struct amd_state *st, const char *p, const char *e)
{
	d_ifdef(st, p, e, 0);
}

static void d_elseif(struct amd_state *st, const char *p, const char *e)
{
	asm_cond_elseif(&st->cond, cond_value(st, p, e));
	st->active = asm_cond_active(&st->cond);
}

static void d_else(struct amd_state *st, const char *p, const char *e)
{
	(void)p;
	(void)e;
	asm_cond_else(&st->cond);
	st->active = asm_cond_active(&st->cond);
}

static void d_endif(struct amd_state *st, const char *p, const char *e)
{
	(void)p;
	(void)e;
	asm_cond_endif(&st->cond);
	st->active = asm_cond_active(&st->cond);
}

static const struct {
	const char *name;	/* without the dot */
	size_t len;		/* its length */
	void (*fn)(struct amd_state *st, const char *p, const char *e);
	int cond;		/* 1: also runs inside a false .if branch */
} directives[] = {
	{ "loc", 3, d_loc, 0 },
	{ "file", 4, d_file, 0 },
	{ "amdgcn_target", 13, d_target, 0 },
	{ "amdhsa_kernel", 13, d_hsa_kernel, 0 },
	{ "end_amdhsa_kernel", 17, d_hsa_end, 0 },
	{ "amdgpu_metadata", 15, d_metadata, 0 },
	{ "globl", 5, d_globl, 0 },
	{ "global", 6, d_globl, 0 },
	{ "type", 4, d_type, 0 },
	{ "set", 3, d_set, 0 },
	{ "macro", 5, d_macro, 0 },
	{ "endm", 4, d_endm, 0 },
	{ "if", 2, d_if, 1 },
	{ "ifdef", 5, d_ifdef1, 1 },
	{ "ifndef", 6, d_ifndef, 1 },
	{ "elseif", 6, d_elseif, 1 },
	{ "else", 4, d_else, 1 },
	{ "endif", 5, d_endif, 1 },
};

/* A line starting with '.' at q: a directive, or a local label (ignored). */
static void directive(struct amd_state *st, const char *q, const char *e)
{
	const char *name = q + 1, *w = tok_mnemonic_end(name, e);
	size_t n = (size_t)(w - name), i;

	if (n == 3 && !memcmp(name, "loc", 3)) {
		if (active(st))
			d_loc(st, w, e);
		return;
	}
	if (st->hsa && n > 7 && !memcmp(name, "amdhsa_", 7) && active(st)) {
		amd_hsa_field(st->hsa, name, n, w, tok_comment_start(w, e));
		if (!TOK_IS(name, n, "amdhsa_kernel"))
			return;
	}
	switch (name[0]) {
	case 'a': case 'e': case 'f': case 'g': case 'i': case 'm': case 's': case 't':
		break;
	default:
		return;
	}
	for (i = 0; i < sizeof(directives) / sizeof(directives[0]); i++) {
		if (directives[i].len != n || directives[i].name[0] != name[0] ||
		    memcmp(name, directives[i].name, n))
			continue;
		if (directives[i].cond || active(st))
			directives[i].fn(st, w, e);
		return;
	}
}

/* "vmcnt(0) lgkmcnt(1)": the counters an s_waitcnt names, as slot bits. */
static unsigned waitcnt_counters(const char *p, const char *e)
{
	unsigned slots = 0;

	for (; p + 5 <= e; p++) {
		if (p[0] == 'v' && p[1] == 'm' && p[2] == 'c')
			slots |= 1u << ISA_C_VMCNT;
		else if (p[0] == 'l' && p[1] == 'g' && p[2] == 'k')
			slots |= 1u << ISA_C_LGKMCNT;
		else if (p[0] == 'e' && p[1] == 'x' && p[2] == 'p')
			slots |= 1u << ISA_C_EXPCNT;
	}
	return slots;
}

/* The operands [p, e) of a counted instruction decide its variant. */
static void count_insn(struct amd_state *st, uint32_t op, const char *p,
		       const char *e)
{
	struct isa_file_result *f = st->f;
	const struct isa_op *o = &f->ops[op];
	const char *c = e;
	unsigned slots = o->slot < ISA_SLOT_NR ? 1u << o->slot : 0;
	int ret = (o->flags & ISA_OPF_RETURNS) != 0;
	struct isa_kernel *k = current(st);

	if (o->flags & (ISA_OPF_LDS_MOD | ISA_OPF_ATOMIC | ISA_OPF_SPILLABLE |
			ISA_OPF_WAITCNT))
		c = tok_comment_fast(p, e);
	if ((o->flags & ISA_OPF_LDS_MOD) && tok_has_word(p, c, "lds")) {
		char name[80];
		size_t n = o->len;

		if (n + 4 < sizeof(name)) {
			memcpy(name, o->name, n);
			memcpy(name + n, " lds", 4);
			if (!isa_op_find(f, name, n + 4, &op))
				op = isa_op_add(f, name, n + 4, ISA_FAM_GLOBAL_TO_LDS,
						o->slot, ISA_OPF_DCU, 0);
			o = &f->ops[op];
		}
	}
	if ((o->flags & ISA_OPF_ATOMIC) && !ret)
		ret = tok_has_word(p, c, "glc") || tok_has_word(p, c, "sc0") ||
		      tok_has_word(p, c, "th:TH_ATOMIC_RETURN");
	if ((o->flags & ISA_OPF_SPILLABLE) && c < e) {
		if (TOK_FIND(c, (size_t)(e - c), "Spill"))
			k->spill_stores++;
		else if (TOK_FIND(c, (size_t)(e - c), "Reload"))
			k->spill_reloads++;
	}
	if (o->flags & ISA_OPF_WAITCNT)
		slots = waitcnt_counters(p, c);
	slots |= (unsigned)o->counters << ISA_C_VMCNT;
	isa_count(f, k, op, slots, ret, st->loc_file, st->loc_line, st->have_loc);
}

static uint32_t lookup(struct amd_state *st, const char *m, size_t n)
{
	uint32_t op;

	if (n == st->last_n && tok_same(m, st->last, n))
		return st->last_op;
	if (!isa_op_find(st->f, m, n, &op))
		op = amd_classify(st->f, m, n);
	if (n < sizeof(st->last)) {
		memcpy(st->last, m, n);
		st->last_n = n;
		st->last_op = op;
	}
	return op;
}

static int is_label_name(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		if (!tok_is_ident(s[i]))
			return 0;
	return 1;
}

/*
 * A label starts a symbol when .globl/.type/.amdhsa_kernel declared it,
 * or, in text that declares nothing, when it is the first label of the
 * part and stands alone on its line (tool messages such as
 * "dccobjdump: wrote k.ISA" have text after the colon).
 */
static void label(struct amd_state *st, const char *s, size_t n, int alone)
{
	size_t v;

	if (!is_label_name(s, n))
		return;
	if (strmap_get(&st->funcs, s, n, &v) ||
	    (alone && !st->part_has_symbol && !st->funcs.nr && s[0] != '.'))
		start_symbol(st, s, n);
}

/* A call of a .macro defined earlier (a first-byte filter saves lookups). */
static int is_macro(const struct amd_state *st, const char *q, size_t n)
{
	unsigned char c = (unsigned char)*q;
	size_t v;

	return (st->macro_first[c >> 6] >> (c & 63) & 1) &&
	       strmap_get(&st->macros, q, n, &v);
}

/* An instruction, macro call or label at q (first non-blank of the line). */
static void statement(struct amd_state *st, const char *q, const char *e)
{
	const char *w = tok_mnemonic_end(q, e);
	size_t n = (size_t)(w - q);

	if (n && q[n - 1] == ':') {
		const char *rest = tok_skip_ws(w, e);
		int alone = rest >= e || *rest == ';' || *rest == '/';

		label(st, q, n - 1, alone);
		if (alone)
			return;
		q = rest;
		w = tok_mnemonic_end(q, e);
		n = (size_t)(w - q);
	}
	if (n && is_macro(st, q, n)) {
		st->macro_calls++;
		return;
	}
	/* Every AMDGCN mnemonic has a '_' early on ("s_nop", "buffer_load_"): prose does not. */
	if (!n || *q < 'a' || *q > 'z' || !memchr(q, '_', n < 8 ? n : 8))
		return;
	current(st)->instructions++;
	if (st->in_macro)
		st->cur->macro_instructions++;
	if (amd_candidate(q, n)) {
		uint32_t op = lookup(st, q, n);

		if (st->f->ops[op].family != ISA_FAM_NONE)
			count_insn(st, op, w, e);
	}
}

/* "0000000000001700 <add_scale>:" in llvm-objdump output. */
static int objdump_symbol(struct amd_state *st, const char *q, const char *e)
{
	const char *p = q, *lt, *gt;

	while (p < e && ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
		p++;
	if (p == q || p + 3 >= e || *p != ' ' || p[1] != '<')
		return 0;
	lt = p + 2;
	gt = memchr(lt, '>', (size_t)(e - lt));
	if (!gt || gt + 1 >= e || gt[1] != ':')
		return 0;
	st->objdump = 1;
	st->cur = isa_kernel_get(st->f, lt, (size_t)(gt - lt), st->arch);
	if (!st->cur->label_line)
		st->cur->label_line = st->lineno;
	st->part_has_symbol = 1;
	return 1;
}

/* "# __CLANG_OFFLOAD_BUNDLE____START__ hip-amdgcn-amd-amdhsa-gfx906". */
static void bundle_marker(struct amd_state *st, const char *q, const char *e)
{
	size_t n = (size_t)(e - q);
	const char *start = TOK_FIND(q, n, "__CLANG_OFFLOAD_BUNDLE____START__");
	const char *a;
	size_t an;

	if (!start) {
		if (TOK_FIND(q, n, "__CLANG_OFFLOAD_BUNDLE____END__") &&
		    st->mode == M_HOST)
			st->mode = M_CODE;
		return;
	}
	st->f->format = "offload bundle";
	if (TOK_FIND(start, (size_t)(e - start), "host-") ||
	    target_arch(start, (size_t)(e - start), &a, &an) < 0) {
		st->mode = M_HOST;
		st->host_parts++;
		return;
	}
	st->mode = M_CODE;
	st->bundle_parts++;
	st->arch[0] = '\0';
	new_part(st, a, an);
}

static void comment_line(struct amd_state *st, const char *q, const char *e)
{
	size_t n = (size_t)(e - q);

	if (n < 14 || q[1] != ' ' || (q[2] != 'K' && q[2] != 'F'))
		return;
	if (span_starts(q, n, "; Kernel info:") ||
	    span_starts(q, n, "; Function info:")) {
		st->mode = M_KINFO;
		st->kinfo = st->cur;
	}
}

/* One line of code mode, [s, e) with block comments already removed. */
static void code_line(struct amd_state *st, const char *s, const char *e)
{
	const char *q = tok_skip_ws(s, e);

	if (q >= e)
		return;
	switch (*q) {
	case ';':
		if (active(st))
			comment_line(st, q, e);
		return;
	case '#':
		bundle_marker(st, q, e);
		return;
	case '/':
		return;
	case '.':
		directive(st, q, e);
		return;
	case 'A':
		if (span_starts(q, (size_t)(e - q), "AMDGPU Metadata:")) {
			st->mode = M_YAML;
			amd_yaml_reset(&st->yaml);
		}
		return;
	default:
		if (!active(st))
			return;
		if (*q >= '0' && *q <= '9' && objdump_symbol(st, q, e))
			return;
		statement(st, q, e);
	}
}

static void yaml_line(struct amd_state *st, const char *s, size_t n)
{
	const char *t;
	size_t tn;

	if (span_starts(s, n, ".end_amdgpu_metadata") ||
	    span_starts(s, n, "...") ||
	    span_starts(tok_skip_ws(s, s + n), (size_t)(s + n - tok_skip_ws(s, s + n)),
			".end_amdgpu_metadata")) {
		amd_yaml_flush(&st->yaml, st->f, st->arch);
		st->mode = M_CODE;
		return;
	}
	if (amd_yaml_line(&st->yaml, st->f, st->arch, s, n, &t, &tn) &&
	    !st->arch[0] && target_arch(t, tn, &t, &tn) == 0)
		new_part(st, t, tn);
}

/* Removes block comments from the line when one is open or starts in it. */
static void block_comments(struct amd_state *st, const char **s, size_t *n,
			   const char *end)
{
	const char *e = *s + *n;

	if (!st->in_block && (!st->next_block || st->next_block >= e))
		return;
	tok_strip_block_comments(*s, e, &st->in_block, &st->clean);
	if (st->next_block && st->next_block < e) {
		const char *from = e < end ? e : end;

		st->next_block = span_find(from, (size_t)(end - from), "/*");
	}
	*s = st->clean.buf;
	*n = st->clean.len;
}

static void finish_notes(struct amd_state *st, int unterminated)
{
	struct isa_file_result *f = st->f;
	size_t i;
	int any_kernel = 0;

	if (st->mode == M_YAML)
		isa_warn(f, "ends inside the .amdgpu_metadata block: the file looks truncated");
	if (st->hsa)
		isa_warn(f, "ends inside an .amdhsa_kernel block: the file looks truncated");
	if (st->cond.depth)
		isa_warn(f, "ends inside an .if block");
	if (st->in_macro)
		isa_warn(f, "ends inside a .macro body");
	if (st->in_block)
		isa_warn(f, "ends inside a block comment");
	if (unterminated && f->kernels_nr)
		isa_note(f, "the last line has no newline");
	if (st->bundle_parts)
		isa_note(f, "clang offload bundle: %d device part%s scanned, %d host part%s skipped",
			 st->bundle_parts, st->bundle_parts == 1 ? "" : "s",
			 st->host_parts, st->host_parts == 1 ? "" : "s");
	if (st->macro_calls)
		isa_note(f, "counts are as written: instructions inside .macro bodies count "
			 "once, %llu macro calls are not expanded",
			 (unsigned long long)st->macro_calls);
	if (st->unknown_ifs)
		isa_note(f, "%llu .if conditions could not be evaluated; their first branch is counted",
			 (unsigned long long)st->unknown_ifs);
	for (i = 0; i < f->kernels_nr; i++) {
		const struct isa_kernel *k = f->kernels[i];

		any_kernel |= k->is_kernel;
		if (k->res[ISA_RES_VGPRS].src == ISA_SRC_METADATA &&
		    isa_res_known(k, ISA_RES_NEXT_FREE_VGPR) &&
		    k->res[ISA_RES_NEXT_FREE_VGPR].value != k->res[ISA_RES_VGPRS].value)
			isa_note(f, "%s: the metadata says %lld VGPRs, .amdhsa_next_free_vgpr "
				 "%lld (the metadata is used)", k->name,
				 k->res[ISA_RES_VGPRS].value,
				 k->res[ISA_RES_NEXT_FREE_VGPR].value);
	}
	for (i = 0; !any_kernel && i < f->kernels_nr; i++)
		f->kernels[i]->is_kernel = 1;
	if (st->objdump)
		f->format = "disassembly";
}

static int amd_scan(const char *data, size_t len, struct isa_file_result *f,
		    struct buf *err)
{
	struct amd_state st;
	struct lines it = LINES_INIT(data, len);
	const char *s, *end = data + len;
	size_t n;

	(void)err;
	memset(&st, 0, sizeof(st));
	st.f = f;
	st.active = 1;
	f->isa = ISA_AMDGCN;
	buf_init(&st.clean);
	amd_yaml_reset(&st.yaml);
	st.next_block = span_find(data, len, "/*");
	while (lines_next(&it, &s, &n)) {
		st.lineno = it.lineno;
		block_comments(&st, &s, &n, end);
		switch (st.mode) {
		case M_YAML:
			yaml_line(&st, s, n);
			continue;
		case M_HOST:
			bundle_marker(&st, tok_skip_ws(s, s + n), s + n);
			continue;
		case M_KINFO:
			if (n && tok_skip_ws(s, s + n) < s + n &&
			    *tok_skip_ws(s, s + n) == ';') {
				if (st.kinfo)
					amd_kinfo_line(st.kinfo, s, n);
				continue;
			}
			st.mode = M_CODE;
			break;
		case M_CODE:
			break;
		}
		code_line(&st, s, s + n);
	}
	finish_notes(&st, it.last_unterminated);
	buf_release(&st.clean);
	strmap_release(&st.funcs);
	strmap_release(&st.macros);
	strmap_release(&st.syms);
	return 0;
}

/*
 * A directive that only AMDGCN has, at the start of a line, decides; else
 * most statements must be AMDGCN instructions. Quoted keys (a JSON dump
 * of the metadata) and prose do not count.
 */
static int amd_detect(const char *p, size_t n)
{
	struct lines it = LINES_INIT(p, n);
	const char *s;
	size_t len, insns = 0, lines = 0;

	while (lines_next(&it, &s, &len)) {
		const char *e = s + len, *q = tok_skip_ws(s, e);
		const char *w = tok_word_end(q, e, ";/");
		size_t k = (size_t)(e - q);

		if (span_starts(q, k, ".amdgcn_target") ||
		    TOK_FIND(q, k, "file format elf64-amdgpu") ||
		    (*q == '#' && TOK_FIND(q, k, "__CLANG_OFFLOAD_BUNDLE____START__") &&
		     TOK_FIND(q, k, "amdgcn")))
			return 100;
		if (span_starts(q, k, ".amdhsa_kernel ") || span_starts(q, k, "amdhsa.kernels:"))
			return 90;
		if (q == w || *q == ';' || *q == '/' || *q == '#' || *q == '.')
			continue;
		if (++lines > 2000)
			break;
		if ((w - q > 2 && (q[0] == 'v' || q[0] == 's') && q[1] == '_') ||
		    amd_candidate(q, (size_t)(w - q)))
			insns++;
	}
	return insns >= 3 && insns * 2 >= lines ? 60 : 0;
}

const struct isa_scanner isa_amdgcn = {
	"amdgcn", ISA_AMDGCN, amd_detect, amd_scan,
};
