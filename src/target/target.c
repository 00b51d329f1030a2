/*
 * The target table and arch spellings (see target.h).
 *
 * ISA columns. gfx90a/gfx94x/gfx95x: 512 unified VGPRs (arch + AGPR),
 * granule 8, 8 waves per SIMD. Checked against every Kernel info block in
 * corpus/amd-xcompile and corpus/dcu (e.g. 94 VGPRs -> Occupancy 5, 216 ->
 * 2, 512 -> 1). gfx906/gfx908: 256 VGPRs, granule 4, 10 waves (the gfx906
 * part of the hipcc bundle: 6 VGPRs -> 10). RDNA (gfx11/12) rows only carry
 * the wave size; their occupancy comes from the compiler.
 *
 * DCU: triton-das compiles gfx936/gfx938 with -support-768-vgprs and
 * gfx928/gfx92a/gfx946 with -support-512-vgprs (docs/dcu.md section 10),
 * so those are the per-wave budgets and VGPR files. corpus/dcu's gfx936
 * Triton file has NumVgprs 65 and Occupancy 10, which a 768-register file
 * with the GFX9 granule of 4 reproduces (768 / 68 = 11, capped at 10);
 * gfx928's 512 is taken from the same flags and not checked against a
 * file. gfx926 has no such flag: its occupancy is not computed. gfx948 is
 * only a name in the brief's HCU table (triton-das does not list it): its
 * row judges no VGPR budget.
 *
 * Tune columns. Shared memory is what one block may use: 64 KiB LDS on
 * CDNA2/CDNA3 and the Hygon DCUs, 160 KiB on gfx950 (docs/dcu.md sections
 * 6 and 11), 128 KiB on gfx946 per triton-das's configs, 64 KiB assumed
 * for gfx948; NVIDIA's opt-in maxima per block (sm_80 163 KiB,
 * sm_86/89/120 99 KiB, sm_90 and sm_100/103 227 KiB). AMD's stream
 * pipeliner gains little past three stages, hence the lower max_stages.
 * The Hygon arches are unknown to upstream LLVM, so Triton 3.6 fails on
 * them with "PassManager::run failed" (docs/dcu.md section 11): they need
 * DTK and triton-das.
 *
 * ELF numbers: EF_AMDGPU_MACH (llvm/BinaryFormat/ELF.h) of the archs tko
 * meets in code objects; gfx900 and gfx1030 are known only by it.
 *
 * HCU rows: the brief's HCU table (hcu_targets.py of its HIP sibling
 * skill, docs/seed-scripts.md section 1). triton-das: its hcu backend's
 * is_hcu set (docs/dcu.md section 11: every name but gfx948).
 * "Verified" lists only what tko's tests check: t1003-isa-dcu.sh scans
 * the gfx926/gfx928 hipcc bundle and the gfx936 Triton and Tensile files,
 * test-target.c checks gfx936's occupancy against a Kernel info block.
 *
 * Why the GPU's arch comes from its compute capability or gcnArchName:
 * torch's device properties name an NVIDIA GPU "NVIDIA H200" and, on CUDA
 * builds, fill gcnArchName with that same marketing name, which no
 * compiler knows (the first H200 run failed on exactly that).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "target/target.h"
#include "util/mem.h"
#include "banned.h"

#define NO_COMPILE "Triton compiling for it (it needs DTK and triton-das; tko tune --compile-only there)"
#define NO_TIMING "timing on the GPU (tko run, tko tune)"

static const struct target_hcu hcu926 = { "孔明 (Kongming), K100", 1,
	"ISA scan of a hipcc -save-temps offload bundle (its gfx926 part)",
	"occupancy (no VGPR-file flag in triton-das); " NO_COMPILE "; " NO_TIMING };
static const struct target_hcu hcu928 = { "孔明e (Kongming e), K100_AI", 1,
	"ISA scan of a hipcc -save-temps offload bundle, spills through MUBUF buffer_store",
	"the 512-VGPR budget (from triton-das's flags, not checked against a file); "
	NO_COMPILE "; " NO_TIMING };
static const struct target_hcu hcu92a = { "月英 (Yueying)", 1, NULL,
	"ISA scan (no gfx92a file in tko's tests); the 512-VGPR budget (triton-das's flags); "
	NO_COMPILE "; " NO_TIMING };
static const struct target_hcu hcu936 = { "伯温 a0 (Bowen a0), BW", 1,
	"ISA scan of Triton and Tensile-style files (v_mmac, ds_read_m32x16, buffer loads into LDS); "
	"occupancy from a 768-VGPR file against a Kernel info block (65 VGPRs, occupancy 10)",
	NO_COMPILE "; " NO_TIMING };
static const struct target_hcu hcu938 = { "伯温 b0 (Bowen b0)", 1, NULL,
	"ISA scan (no gfx938 file in tko's tests); the 768-VGPR budget (triton-das's flags); "
	NO_COMPILE " (the brief's own validated stack is torch 2.9.0 / triton 3.3.0 / gfx938); "
	NO_TIMING };
static const struct target_hcu hcu946 = { "少伯 (Shaobo)", 1, NULL,
	"ISA scan (no gfx946 file in tko's tests); the 512-VGPR budget (triton-das's flags); "
	"128 KiB LDS (from triton-das's configs); its MLS and WASP features, which the brief says "
	"not to assume on gfx936/gfx938; " NO_COMPILE "; " NO_TIMING };
static const struct target_hcu hcu948 = { "塞班 b1 (Saiban b1)", 0, NULL,
	"everything: only its name is known (triton-das does not list it); tko assumes wave64 "
	"and 64 KiB LDS like the other HCUs and judges no VGPR budget" };

#define AMD TARGET_AMD, TARGET_HIP, 0
#define HYG TARGET_HYGON, TARGET_HIP, 0
#define NV TARGET_NVIDIA, TARGET_CUDA

/*
 * Tune's rows come first, in the order "known: ..." has always listed
 * them; then the rows only the ISA scanner judges; then names known only
 * by their ELF number.
 */
static const struct target targets[] = {
	/* name  vendor,backend,cc  mach  wave vmax file gran waves agpr lds  smem thr stg isa tune up hcu */
	{ "gfx90a", AMD, 0x3f, 64, 512, 512, 8, 8, 1, 65536, 65536, 1024, 3, 1, 1, 1, NULL },
	{ "gfx942", AMD, 0x4c, 64, 512, 512, 8, 8, 1, 65536, 65536, 1024, 3, 1, 1, 1, NULL },
	{ "gfx950", AMD, 0x4f, 64, 512, 512, 8, 8, 1, 163840, 163840, 1024, 3, 1, 1, 1, NULL },
	{ "gfx926", HYG, 0, 64, 256, 0, 4, 10, 0, 65536, 65536, 1024, 3, 1, 1, 0, &hcu926 },
	{ "gfx928", HYG, 0, 64, 512, 512, 4, 10, 0, 65536, 65536, 1024, 3, 1, 1, 0, &hcu928 },
	{ "gfx936", HYG, 0, 64, 768, 768, 4, 10, 0, 65536, 65536, 1024, 3, 1, 1, 0, &hcu936 },
	{ "gfx938", HYG, 0, 64, 768, 768, 4, 10, 0, 65536, 65536, 1024, 3, 1, 1, 0, &hcu938 },
	{ "gfx92a", HYG, 0, 64, 512, 512, 4, 10, 0, 65536, 65536, 1024, 3, 1, 1, 0, &hcu92a },
	{ "gfx946", HYG, 0, 64, 512, 512, 4, 10, 0, 131072, 131072, 1024, 3, 1, 1, 0, &hcu946 },
	/* only the name is known (the brief's HCU table): wave64 and 64 KiB LDS assumed, no budget */
	{ "gfx948", HYG, 0, 64, 0, 0, 4, 10, 0, 65536, 65536, 1024, 3, 1, 1, 0, &hcu948 },
	{ "sm_80", NV, 80, 0, 32, 0, 0, 0, 0, 0, 0, 166912, 1024, 5, 0, 1, 1, NULL },
	{ "sm_86", NV, 86, 0, 32, 0, 0, 0, 0, 0, 0, 101376, 1024, 4, 0, 1, 1, NULL },
	{ "sm_89", NV, 89, 0, 32, 0, 0, 0, 0, 0, 0, 101376, 1024, 4, 0, 1, 1, NULL },
	{ "sm_90", NV, 90, 0, 32, 0, 0, 0, 0, 0, 0, 232448, 1024, 5, 0, 1, 1, NULL },
	{ "sm_100", NV, 100, 0, 32, 0, 0, 0, 0, 0, 0, 232448, 1024, 5, 0, 1, 1, NULL },
	{ "sm_103", NV, 103, 0, 32, 0, 0, 0, 0, 0, 0, 232448, 1024, 5, 0, 1, 1, NULL },
	{ "sm_120", NV, 120, 0, 32, 0, 0, 0, 0, 0, 0, 101376, 1024, 4, 0, 1, 1, NULL },
	{ "gfx906", AMD, 0x2f, 64, 256, 256, 4, 10, 0, 65536, 0, 0, 0, 1, 0, 1, NULL },
	{ "gfx908", AMD, 0x30, 64, 256, 256, 4, 10, 2, 65536, 0, 0, 0, 1, 0, 1, NULL },
	{ "gfx940", AMD, 0x40, 64, 512, 512, 8, 8, 1, 65536, 0, 0, 0, 1, 0, 1, NULL },
	{ "gfx941", AMD, 0x4b, 64, 512, 512, 8, 8, 1, 65536, 0, 0, 0, 1, 0, 1, NULL },
	{ "gfx1100", AMD, 0x41, 32, 0, 0, 0, 0, 0, 65536, 0, 0, 0, 1, 0, 1, NULL },
	{ "gfx1101", AMD, 0x46, 32, 0, 0, 0, 0, 0, 65536, 0, 0, 0, 1, 0, 1, NULL },
	{ "gfx1102", AMD, 0x47, 32, 0, 0, 0, 0, 0, 65536, 0, 0, 0, 1, 0, 1, NULL },
	{ "gfx1200", AMD, 0x48, 32, 0, 0, 0, 0, 0, 65536, 0, 0, 0, 1, 0, 1, NULL },
	{ "gfx1201", AMD, 0x4e, 32, 0, 0, 0, 0, 0, 65536, 0, 0, 0, 1, 0, 1, NULL },
	{ "gfx900", AMD, 0x2c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, NULL },
	{ "gfx1030", AMD, 0x36, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, NULL },
};
#undef AMD
#undef HYG
#undef NV

#define NTARGETS (sizeof(targets) / sizeof(targets[0]))

const struct target *target_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < NTARGETS; i++)
		if (!strcmp(targets[i].name, name))
			return &targets[i];
	return NULL;
}

const struct target *target_isa_find(const char *name, size_t n)
{
	const char *colon = memchr(name, ':', n);
	size_t i;

	if (colon)
		n = (size_t)(colon - name);
	for (i = 0; i < NTARGETS; i++)
		if (targets[i].isa && strlen(targets[i].name) == n && !memcmp(targets[i].name, name, n))
			return &targets[i];
	return NULL;
}

const struct target *target_of_elf_mach(unsigned mach)
{
	size_t i;

	for (i = 0; mach && i < NTARGETS; i++)
		if (targets[i].elf_mach == mach)
			return &targets[i];
	return NULL;
}

int target_known(const struct target *t)
{
	return t && (t->isa || t->tunable);
}

int target_is_dcu(const char *name)
{
	struct buf norm = BUF_INIT;
	const struct target *t = name && !target_norm(name, &norm) ? target_find(norm.buf) : NULL;

	buf_release(&norm);
	return t && t->vendor == TARGET_HYGON;
}

int target_vgpr_waves(const struct target *t, long long vgprs)
{
	long long alloc;
	long long waves;

	if (!t || !t->vgpr_file || vgprs <= 0 || vgprs > t->vgpr_max)
		return 0;
	alloc = (vgprs + t->granule - 1) / t->granule * t->granule;
	waves = t->vgpr_file / alloc;
	return (int)(waves > t->max_waves ? t->max_waves : waves);
}

const struct target *const *target_hygon(size_t *n)
{
	static const struct target *list[NTARGETS];
	static size_t nr;
	size_t i, j;

	if (!nr) {
		for (i = 0; i < NTARGETS; i++) {
			if (targets[i].vendor != TARGET_HYGON)
				continue;
			for (j = nr; j && strcmp(list[j - 1]->name, targets[i].name) > 0; j--)
				list[j] = list[j - 1];
			list[j] = &targets[i];
			nr++;
		}
	}
	*n = nr;
	return list;
}

void target_list_tunable(struct buf *out)
{
	size_t i, n = 0;

	for (i = 0; i < NTARGETS; i++)
		if (targets[i].tunable)
			buf_addf(out, "%s%s", n++ ? ", " : "", targets[i].name);
}

int target_check_tunable(const char *name, int das, struct buf *err)
{
	const struct target *t = target_find(name);

	if (!t || !t->tunable) {
		buf_addf(err, "unknown target '%s' (known: ", name);
		target_list_tunable(err);
		buf_addch(err, ')');
		return -1;
	}
	if (!t->upstream && !das) {
		buf_addf(err, "upstream Triton cannot compile for Hygon '%s' "
			 "(LLVM does not know it); run on a machine with DTK and "
			 "triton-das, or use gfx942/gfx90a as a proxy", name);
		return -1;
	}
	return 0;
}

/* "9.0" or "90" (a compute capability): the digits of sm_NN, or 0. */
static size_t capability(const char *s, size_t n, char *out, size_t cap)
{
	size_t i, k = 0, dots = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '.' && i && i + 1 < n && !dots++)
			continue;
		if (!isdigit((unsigned char)s[i]) || k + 1 >= cap)
			return 0;
		out[k++] = s[i];
	}
	out[k] = '\0';
	return k;
}

int target_norm(const char *name, struct buf *out)
{
	size_t n = strcspn(name, ":"), i, start;
	char digits[16];

	if (n > 3 && !strncmp(name, "gfx", 3)) {
		for (i = 3; i < n; i++)
			if (!isalnum((unsigned char)name[i]))
				return -1;
		buf_add(out, name, n);
		return 0;
	}
	if (n > 2 && (!strncmp(name, "sm", 2) || !strncmp(name, "SM", 2))) {
		start = name[2] == '_' ? 3 : 2;
		for (i = start; i < n && isdigit((unsigned char)name[i]); i++)
			;
		/* sm_90a, sm_100f: feature-set suffixes of the same arch */
		if (i == start || i + 1 < n || (i < n && !isalpha((unsigned char)name[i])))
			return -1;
		buf_addf(out, "sm_%.*s", (int)(i - start), name + start);
		return 0;
	}
	if (capability(name, n, digits, sizeof(digits))) {
		buf_addf(out, "sm_%s", digits);
		return 0;
	}
	return -1;
}

void target_cuda_arch(long long cc, struct buf *out)
{
	buf_addf(out, "sm_%lld", cc);
}

char *target_norm_dup(const char *name, size_t n)
{
	char *s = xstrndup(name, n), *out;
	struct buf b = BUF_INIT;
	size_t keep = strcspn(s, ":");

	if (!target_norm(s, &b)) {
		out = buf_detach(&b, NULL);
	} else {
		buf_release(&b);
		out = keep ? xstrndup(s, keep) : NULL;
	}
	free(s);
	return out;
}

static int json_pair(const json_t *v, int *a, int *b)
{
	if (json_array_size(v) != 2 || !json_is_integer(json_array_get(v, 0)) ||
	    !json_is_integer(json_array_get(v, 1)))
		return -1;
	*a = (int)json_integer_value(json_array_get(v, 0));
	*b = (int)json_integer_value(json_array_get(v, 1));
	return 0;
}

void target_gpu_facts_read(const json_t *gpu, struct target_gpu_facts *f)
{
	*f = (struct target_gpu_facts)TARGET_GPU_FACTS_INIT;
	f->name = json_str(gpu, "name");
	f->backend = json_str(gpu, "backend");
	f->gcn_arch_name = json_str(gpu, "gcn_arch_name");
	if (!f->gcn_arch_name)
		f->gcn_arch_name = json_str(gpu, "arch_name");
	f->arch = json_str(gpu, "arch");
	if (json_pair(json_object_get(gpu, "capability"), &f->cc_major, &f->cc_minor) < 0 &&
	    json_pair(json_object_get(gpu, "cc"), &f->cc_major, &f->cc_minor) < 0)
		f->cc_major = f->cc_minor = -1;
}

/*
 * The names the facts give, raw, in the order they are trusted: a HIP
 * device's gcnArchName, a CUDA device's capability (a device that does
 * not say its backend is taken for CUDA here, as torch's CUDA builds
 * leave gcnArchName to the marketing name), then an arch named before.
 */
static size_t candidates(const struct target_gpu_facts *g, char out[3][64])
{
	int hip = g->backend && !strcmp(g->backend, "hip");
	size_t n = 0;

	if (hip && g->gcn_arch_name && strlen(g->gcn_arch_name) < sizeof(out[0]))
		memcpy(out[n++], g->gcn_arch_name, strlen(g->gcn_arch_name) + 1);
	if (!hip && g->cc_major >= 0 && g->cc_minor >= 0)
		snprintf(out[n++], sizeof(out[0]), "sm_%d%d", g->cc_major, g->cc_minor);
	if (g->arch && strlen(g->arch) < sizeof(out[0]))
		memcpy(out[n++], g->arch, strlen(g->arch) + 1);
	return n;
}

int target_gpu_arch(const struct target_gpu_facts *g, struct buf *out)
{
	char cand[3][64];
	size_t i, n = candidates(g, cand);

	for (i = 0; i < n; i++) {
		size_t keep = strcspn(cand[i], ":");

		if (!target_norm(cand[i], out))
			return 0;
		/* a gcnArchName tko has no spelling for is still the processor's name */
		if (keep && !strncmp(cand[i], "gfx", 3)) {
			buf_add(out, cand[i], keep);
			return 0;
		}
	}
	return -1;
}

const struct target *target_of_gpu(const struct target_gpu_facts *g, struct buf *err)
{
	struct buf tried = BUF_INIT, norm = BUF_INIT;
	const struct target *t = NULL;
	char cand[3][64];
	size_t i, n = candidates(g, cand);

	for (i = 0; i < n && !t; i++) {
		buf_addf(&tried, "%s'%s'", tried.len ? ", " : "", cand[i]);
		buf_reset(&norm);
		if (!target_norm(cand[i], &norm) && (t = target_find(norm.buf)) && !t->tunable)
			t = NULL;
	}
	if (!t) {
		buf_addf(err, "the GPU '%s' reports %s, which is not a target tko knows (known: ",
			 g->name ? g->name : "?", tried.len ? tried.buf : "no architecture");
		target_list_tunable(err);
		buf_adds(err, "); give --target");
	}
	buf_release(&tried);
	buf_release(&norm);
	return t;
}

json_t *target_compile_json(const struct target *t)
{
	if (t->backend == TARGET_CUDA)
		return json_pack("{s:s, s:i, s:i}", "backend", "cuda", "arch", t->cc,
				 "warp_size", t->wave);
	return json_pack("{s:s, s:s, s:i}", "backend", "hip", "arch", t->name,
			 "warp_size", t->wave);
}
