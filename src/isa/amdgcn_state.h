/*
 * The AMDGCN scanner's state, shared by amdgcn.c (the line loop and
 * instructions) and amdgcn_dir.c (directives: .loc/.file, targets,
 * symbol declarations, .amdhsa_kernel, .set, .macro, .if). Internal to
 * those two files.
 */
#ifndef TKO_ISA_AMDGCN_STATE_H
#define TKO_ISA_AMDGCN_STATE_H

#include <stdint.h>

#include "isa/amdgcn_meta.h"
#include "isa/asmcond.h"
#include "isa/result.h"
#include "util/strmap.h"
#include "util/buf.h"

enum amd_mode {
	M_CODE,		/* instructions and directives */
	M_YAML,		/* inside .amdgpu_metadata / AMDGPU Metadata */
	M_KINFO,	/* inside a "; Kernel info:" comment block */
	M_HOST,		/* the host part of an offload bundle: skipped */
};

struct amd_state {
	struct isa_file_result *f;	/* the result being filled */
	struct isa_kernel *cur;		/* the symbol whose code this is */
	char arch[64];			/* current target processor; "" unknown */
	enum amd_mode mode;		/* what the current line is read as */
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
	struct isa_op_cache last;	/* the last mnemonic looked up */
	uint64_t macro_calls;		/* lines calling a .macro */
	uint64_t unknown_ifs;		/* .if conditions that could not be evaluated */
	int bundle_parts;		/* device parts of an offload bundle */
	int host_parts;			/* host parts skipped */
	int objdump;			/* llvm-objdump style listing */
};

static inline int amd_active(const struct amd_state *st)
{
	return st->active;
}

static inline struct isa_kernel *amd_current(struct amd_state *st)
{
	if (!st->cur)
		st->cur = isa_kernel_get(st->f, "(no symbol)", 11, st->arch);
	return st->cur;
}

/* Starts symbol `name` (label or objdump "<name>:") in the current part. */
void amd_start_symbol(struct amd_state *st, const char *name, size_t n);
/* A new target (arch) or bundle part: .file numbers start afresh. */
void amd_new_part(struct amd_state *st, const char *arch, size_t n);
/* "amdgcn-amd-amdhsa--gfx942:sramecc+" -> (a, an) = "gfx942"; 0 or -1. */
int amd_target_arch(const char *s, size_t n, const char **a, size_t *an);
/* A line starting with '.' at q: a directive, or a local label (ignored). */
void amd_directive(struct amd_state *st, const char *q, const char *e);

#endif
