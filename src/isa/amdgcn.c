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
 * dispatched on its first character; directives go to amdgcn_dir.c,
 * resource blocks to amdgcn_meta.c. Instruction mnemonics are matched
 * against the family table (amdgcn_ops.c, where ROCm vs DCU spellings
 * are rows) only when their first letters can start a counted family,
 * and a mnemonic is classified once and then found by an interned lookup
 * (the last one is cached). Block comments are located by one forward
 * SIMD search kept ahead of the line loop, so lines without one pay
 * nothing.
 *
 * Instructions inside .macro bodies are counted once, as written, and
 * macro calls are not expanded: the counts are what a grep of the text
 * sees, minus comments and false .if branches.
 */
#include <string.h>

#include "isa/amdgcn.h"
#include "isa/amdgcn_ops.h"
#include "isa/amdgcn_state.h"
#include "isa/tok.h"
#include "util/lines.h"
#include "util/plural.h"
#include "banned.h"

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
	struct isa_kernel *k = amd_current(st);

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

	if (isa_op_cache_get(&st->last, m, n, &op))
		return op;
	if (!isa_op_find(st->f, m, n, &op))
		op = amd_classify(st->f, m, n);
	isa_op_cache_put(&st->last, m, n, op);
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
		amd_start_symbol(st, s, n);
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
	if (!n || *q < 'a' || *q > 'z' ||
	    !((n > 1 && q[1] == '_') || (n > 2 && q[2] == '_') || memchr(q, '_', n < 8 ? n : 8)))
		return;
	amd_current(st)->instructions++;
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
	    amd_target_arch(start, (size_t)(e - start), &a, &an) < 0) {
		st->mode = M_HOST;
		st->host_parts++;
		return;
	}
	st->mode = M_CODE;
	st->bundle_parts++;
	st->arch[0] = '\0';
	amd_new_part(st, a, an);
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
		if (amd_active(st))
			comment_line(st, q, e);
		return;
	case '#':
		bundle_marker(st, q, e);
		return;
	case '/':
		return;
	case '.':
		amd_directive(st, q, e);
		return;
	case 'A':
		if (span_starts(q, (size_t)(e - q), "AMDGPU Metadata:")) {
			st->mode = M_YAML;
			amd_yaml_reset(&st->yaml);
		}
		return;
	default:
		if (!amd_active(st))
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
	    !st->arch[0] && amd_target_arch(t, tn, &t, &tn) == 0)
		amd_new_part(st, t, tn);
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

		st->next_block = tok_find_block_open(from, (size_t)(end - from));
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
			 st->bundle_parts, plural(st->bundle_parts),
			 st->host_parts, plural(st->host_parts));
	if (st->macro_calls)
		isa_note(f, "counts are as written: instructions inside .macro bodies count "
			 "once, %llu macro call%s %s not expanded",
			 (unsigned long long)st->macro_calls, plural((long long)st->macro_calls),
			 plural_word((long long)st->macro_calls, "is", "are"));
	if (st->unknown_ifs)
		isa_note(f, "%llu .if condition%s could not be evaluated; %s first branch is counted",
			 (unsigned long long)st->unknown_ifs, plural((long long)st->unknown_ifs),
			 plural_word((long long)st->unknown_ifs, "its", "their"));
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
	st.next_block = tok_find_block_open(data, len);
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
		    (q < e && *q == '#' && TOK_FIND(q, k, "__CLANG_OFFLOAD_BUNDLE____START__") &&
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
