/*
 * The resource blocks of AMDGCN assembly, read for amdgcn.c: the
 * .amdgpu_metadata YAML (amdhsa.kernels, also in llvm-readelf --notes
 * output), the "; Kernel info:" / "; Function info:" comment blocks,
 * .amdhsa_* directives inside .amdhsa_kernel ... .end_amdhsa_kernel, and
 * LLVM's ".set <kernel>.num_vgpr, N" symbols. Each maps its keys onto
 * enum isa_res with a table, tagged with the block it came from.
 */
#ifndef TKO_ISA_AMDGCN_META_H
#define TKO_ISA_AMDGCN_META_H

#include "isa/isa.h"

struct amd_yaml {
	int in_kernels;		/* inside the amdhsa.kernels list */
	int item_indent;	/* column of that list's "- ", -1 until seen */
	int entry;		/* a kernel entry is being collected */
	char name[512];		/* its .name */
	size_t name_len;	/* 0 until seen */
	long long val[ISA_RES_NR];	/* its numbers */
	unsigned char have[ISA_RES_NR];	/* which are set */
};

void amd_yaml_reset(struct amd_yaml *y);
/*
 * One line of the YAML. Returns 1 and sets (*t, *tn) when the line is
 * "amdhsa.target: ..." (the caller learns the arch from it), else 0.
 */
int amd_yaml_line(struct amd_yaml *y, struct isa_file_result *f,
		  const char *arch, const char *s, size_t n, const char **t,
		  size_t *tn);
/* Applies a collected entry to its kernel (created if new). */
void amd_yaml_flush(struct amd_yaml *y, struct isa_file_result *f,
		    const char *arch);

/* One "; Key: value" or "; key = value" line of a Kernel info block. */
void amd_kinfo_line(struct isa_kernel *k, const char *s, size_t n);

/* ".amdhsa_<name> value" in an .amdhsa_kernel block (name without dot). */
void amd_hsa_field(struct isa_kernel *k, const char *name, size_t nn,
		   const char *p, const char *e);

/*
 * ".set <kernel>.<field>, value": sets the resource of an existing
 * kernel; returns 1 when `sym` had such a form and kernel.
 */
int amd_set_field(struct isa_file_result *f, const char *arch,
		  const char *sym, size_t n, long long v);

#endif
