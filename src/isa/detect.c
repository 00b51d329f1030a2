/*
 * Content detection (see detect.h). The non-assembly kinds are tested on
 * their first lines, where each announces itself ("; ModuleID", "#loc",
 * "module attributes", "import", "{"); the ISA scanners vote with their
 * own detect() over the probe. The highest score of at least 50 wins.
 */
#include <string.h>

#include "isa/detect.h"
#include "isa/tok.h"
#include "target/target.h"
#include "util/lines.h"
#include "banned.h"

static int first_line_starts(const char *p, size_t n, const char *const *pfx)
{
	struct lines it = LINES_INIT(p, n);
	const char *s;
	size_t len, i, seen = 0;

	while (lines_next(&it, &s, &len) && seen < 5) {
		const char *q = tok_skip_ws(s, s + len);

		if (q == s + len)
			continue;
		seen++;
		for (i = 0; pfx[i]; i++)
			if (span_starts(q, (size_t)(s + len - q), pfx[i]))
				return 1;
	}
	return 0;
}

static int llvm_ir(const char *p, size_t n)
{
	static const char *const pfx[] = {
		"; ModuleID = ", "source_filename = ", "target datalayout = ",
		"target triple = ", NULL,
	};
	return first_line_starts(p, n, pfx) ? 95 : 0;
}

static int mlir(const char *p, size_t n)
{
	static const char *const pfx[] = {
		"#loc", "#blocked", "#shared", "#mma", "#ttg.", "#triton_gpu",
		"module attributes {", "module {", "tt.func", "func.func", NULL,
	};
	return first_line_starts(p, n, pfx) ? 95 : 0;
}

static int python(const char *p, size_t n)
{
	static const char *const pfx[] = {
		"import ", "from ", "def ", "class ", "@triton.jit", "#!/usr/bin/env python",
		"# AOT ID:", "'''", "\"\"\"", NULL,
	};
	return first_line_starts(p, n, pfx) ? 80 : 0;
}

static int json(const char *p, size_t n)
{
	const char *q = p, *e = p + n;

	while (q < e && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
		q++;
	return q < e && (*q == '{' || *q == '[') ? 90 : 0;
}

static int markdown(const char *p, size_t n)
{
	static const char *const pfx[] = { "# ", "## ", "```", "> ", NULL };

	return first_line_starts(p, n, pfx) ? 70 : 0;
}

static const struct {
	const char *kind;	/* isa_skip.kind */
	const char *what;	/* for messages */
	int (*detect)(const char *p, size_t n);	/* 0..100 that p[0..n) is this kind */
} skip_kinds[] = {
	{ "llvm-ir", "LLVM IR", llvm_ir },
	{ "mlir", "MLIR (Triton TTIR/TTGIR/source)", mlir },
	{ "python", "Python", python },
	{ "json", "JSON", json },
	{ "markdown", "Markdown text", markdown },
};

static unsigned le16(const unsigned char *b)
{
	return (unsigned)b[0] | (unsigned)b[1] << 8;
}

static unsigned long le32(const unsigned char *b)
{
	return (unsigned long)le16(b) | (unsigned long)le16(b + 2) << 16;
}

static int sniff_elf(const unsigned char *b, size_t n, struct isa_sniff *out)
{
	const struct target *t;

	if (n < 52 || memcmp(b, "\x7f" "ELF", 4))
		return 0;
	out->machine = le16(b + 18);
	out->input = out->machine == 190 ? ISA_IN_CUBIN :
		     out->machine == 224 ? ISA_IN_AMDGPU : ISA_IN_ELF;
	out->what = out->machine == 190 ? "NVIDIA cubin" :
		    out->machine == 224 ? "AMDGPU code object" : "CPU ELF binary";
	/* e_flags & EF_AMDGPU_MACH names the processor (target/target.c's ELF column) */
	if (out->input == ISA_IN_AMDGPU && b[4] == 2 && n >= 64 &&
	    (t = target_of_elf_mach((unsigned)(le32(b + 48) & 0xff))))
		memcpy(out->arch, t->name, strlen(t->name) + 1);
	return 1;
}

void isa_sniff(const char *p, size_t n, struct isa_sniff *out)
{
	const unsigned char *b = (const unsigned char *)p;
	size_t probe = n < ISA_PROBE_BYTES ? n : ISA_PROBE_BYTES, i;
	const char *nul = memchr(p, '\0', probe);
	int best = 0, score;
	const struct isa_scanner *const *sc;

	memset(out, 0, sizeof(*out));
	if (sniff_elf(b, n, out))
		return;
	if (n >= 8 && le32(b) == 0xba55ed50ul) {
		out->input = ISA_IN_CUBIN;
		out->fatbin = 1;
		out->what = "NVIDIA fatbin";
		return;
	}
	if (nul) {
		out->input = ISA_IN_BINARY;
		out->what = "binary data";
		out->nul_at = (size_t)(nul - p);
		return;
	}
	out->input = ISA_IN_UNKNOWN;
	for (i = 0; i < sizeof(skip_kinds) / sizeof(skip_kinds[0]); i++) {
		score = skip_kinds[i].detect(p, probe);
		if (score > best) {
			best = score;
			out->input = ISA_IN_SKIP;
			out->skip_kind = skip_kinds[i].kind;
			out->what = skip_kinds[i].what;
		}
	}
	for (sc = isa_scanners; *sc; sc++) {
		score = (*sc)->detect(p, probe);
		if (score >= best && score >= 50) {
			best = score;
			out->input = ISA_IN_TEXT;
			out->kind = (*sc)->kind;
			out->what = (*sc)->name;
		}
	}
	if (best < 50) {
		out->input = ISA_IN_UNKNOWN;
		out->what = NULL;
	}
}
