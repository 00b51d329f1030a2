/*
 * The AMDGCN scanner's directives (see amdgcn_state.h): .loc and .file
 * for source lines, .amdgcn_target for the arch, .globl/.type/
 * .amdhsa_kernel for symbols, .amdhsa_* fields, .set (kernel resource
 * symbols and integers for .if), .macro/.endm, and conditional assembly.
 * Entry point: amd_directive(), table-driven.
 */
#include <string.h>

#include "isa/amdgcn_state.h"
#include "isa/tok.h"
#include "util/lines.h"
#include "banned.h"

void amd_start_symbol(struct amd_state *st, const char *name, size_t n)
{
	st->cur = isa_kernel_get(st->f, name, n, st->arch);
	if (!st->cur->label_line)
		st->cur->label_line = st->lineno;
	st->part_has_symbol = 1;
}

void amd_new_part(struct amd_state *st, const char *arch, size_t n)
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

int amd_target_arch(const char *s, size_t n, const char **a, size_t *an)
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

	if (amd_target_arch(s, n, &a, &an) < 0)
		return;
	if (an == strlen(st->arch) && !memcmp(a, st->arch, an))
		return;
	amd_new_part(st, a, an);
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
	void (*fn)(struct amd_state *st, const char *p, const char *e);	/* its handler */
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

void amd_directive(struct amd_state *st, const char *q, const char *e)
{
	const char *name = q + 1, *w = tok_mnemonic_end(name, e);
	size_t n = (size_t)(w - name), i;

	if (!n)
		return;
	if (n == 3 && !memcmp(name, "loc", 3)) {
		if (amd_active(st))
			d_loc(st, w, e);
		return;
	}
	if (st->hsa && n > 7 && !memcmp(name, "amdhsa_", 7) && amd_active(st)) {
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
		if (directives[i].cond || amd_active(st))
			directives[i].fn(st, w, e);
		return;
	}
}
