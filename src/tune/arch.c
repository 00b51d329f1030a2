/*
 * The target table (see arch.h). Shared-memory sizes are what one block
 * may use: 64 KiB LDS on CDNA2/CDNA3 and the Hygon DCUs, 160 KiB on
 * gfx950 (docs/dcu.md sections 6 and 11); NVIDIA's
 * opt-in maxima per block (sm_80 163 KiB, sm_86/89/120 99 KiB, sm_90 and
 * sm_100/103 227 KiB). AMD's stream pipeliner gains little past three
 * stages, hence the lower max_stages. Hygon arches (gfx926/928/92a/936/
 * 938/946/948, the same set as src/isa/arch.c's dcu rows; 128 KiB LDS on
 * gfx946 per triton-das's configs, 64 KiB assumed for gfx948, which is
 * only a name in the brief's table) are unknown to upstream LLVM, so Triton 3.6 fails on them with
 * "PassManager::run failed" (docs/dcu.md section 11): they need DTK and
 * triton-das.
 *
 * Why the GPU's arch comes from its compute capability or gcnArchName:
 * torch's device properties name an NVIDIA GPU "NVIDIA H200" and, on
 * CUDA builds, fill gcnArchName with that same marketing name, which no
 * compiler knows (the first H200 run failed on exactly that).
 */
#include <ctype.h>
#include <string.h>

#include "tune/arch.h"
#include "util/jsonio.h"
#include "banned.h"

static const struct tune_arch arches[] = {
	{ "gfx90a", TUNE_HIP, 0, 64, 1024, 65536, 3, 0, 1 },
	{ "gfx942", TUNE_HIP, 0, 64, 1024, 65536, 3, 0, 1 },
	{ "gfx950", TUNE_HIP, 0, 64, 1024, 163840, 3, 0, 1 },
	{ "gfx926", TUNE_HIP, 0, 64, 1024, 65536, 3, 1, 0 },
	{ "gfx928", TUNE_HIP, 0, 64, 1024, 65536, 3, 1, 0 },
	{ "gfx936", TUNE_HIP, 0, 64, 1024, 65536, 3, 1, 0 },
	{ "gfx938", TUNE_HIP, 0, 64, 1024, 65536, 3, 1, 0 },
	{ "gfx92a", TUNE_HIP, 0, 64, 1024, 65536, 3, 1, 0 },
	{ "gfx946", TUNE_HIP, 0, 64, 1024, 131072, 3, 1, 0 },
	{ "gfx948", TUNE_HIP, 0, 64, 1024, 65536, 3, 1, 0 },
	{ "sm_80", TUNE_CUDA, 80, 32, 1024, 166912, 5, 0, 1 },
	{ "sm_86", TUNE_CUDA, 86, 32, 1024, 101376, 4, 0, 1 },
	{ "sm_89", TUNE_CUDA, 89, 32, 1024, 101376, 4, 0, 1 },
	{ "sm_90", TUNE_CUDA, 90, 32, 1024, 232448, 5, 0, 1 },
	{ "sm_100", TUNE_CUDA, 100, 32, 1024, 232448, 5, 0, 1 },
	{ "sm_103", TUNE_CUDA, 103, 32, 1024, 232448, 5, 0, 1 },
	{ "sm_120", TUNE_CUDA, 120, 32, 1024, 101376, 4, 0, 1 },
};

const struct tune_arch *tune_arch_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (!strcmp(arches[i].name, name))
			return &arches[i];
	return NULL;
}

void tune_arch_list(struct buf *out)
{
	size_t i;

	for (i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		buf_addf(out, "%s%s", i ? ", " : "", arches[i].name);
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

int tune_arch_normalize(const char *name, struct buf *out)
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

/* The architecture a GPU description names, tried in order. */
static void gpu_candidates(const json_t *gpu, struct buf *tried, char cands[3][32])
{
	const json_t *cc = json_object_get(gpu, "cc");
	const char *backend = json_str(gpu, "backend");
	const char *fields[2] = { json_str(gpu, "arch"), json_str(gpu, "arch_name") };
	size_t i;

	cands[0][0] = cands[1][0] = cands[2][0] = '\0';
	for (i = 0; i < 2; i++)
		if (fields[i] && strlen(fields[i]) < sizeof(cands[0]))
			memcpy(cands[i], fields[i], strlen(fields[i]) + 1);
	if ((!backend || !strcmp(backend, "cuda")) && json_array_size(cc) == 2 &&
	    json_is_integer(json_array_get(cc, 0)) && json_is_integer(json_array_get(cc, 1)))
		snprintf(cands[2], sizeof(cands[2]), "sm_%lld%lld",
			 (long long)json_integer_value(json_array_get(cc, 0)),
			 (long long)json_integer_value(json_array_get(cc, 1)));
	for (i = 0; i < 3; i++)
		if (cands[i][0])
			buf_addf(tried, "%s'%s'", tried->len ? ", " : "", cands[i]);
}

const struct tune_arch *tune_arch_of_gpu(const json_t *gpu, struct buf *err)
{
	struct buf tried = BUF_INIT, norm = BUF_INIT;
	const struct tune_arch *a = NULL;
	const char *name = json_str(gpu, "name");
	char cands[3][32];
	size_t i;

	gpu_candidates(gpu, &tried, cands);
	for (i = 0; i < 3 && !a; i++) {
		buf_reset(&norm);
		if (cands[i][0] && !tune_arch_normalize(cands[i], &norm))
			a = tune_arch_find(norm.buf);
	}
	if (!a) {
		buf_addf(err, "the GPU '%s' reports %s, which is not a target tko knows (known: ",
			 name ? name : "?", tried.len ? tried.buf : "no architecture");
		tune_arch_list(err);
		buf_adds(err, "); give --target");
	}
	buf_release(&tried);
	buf_release(&norm);
	return a;
}

int tune_arch_check(const char *name, int das, struct buf *err)
{
	const struct tune_arch *a = tune_arch_find(name);

	if (!a) {
		buf_addf(err, "unknown target '%s' (known: ", name);
		tune_arch_list(err);
		buf_addch(err, ')');
		return -1;
	}
	if (!a->upstream && !das) {
		buf_addf(err, "upstream Triton cannot compile for Hygon '%s' "
			 "(LLVM does not know it); run on a machine with DTK and "
			 "triton-das, or use gfx942/gfx90a as a proxy", name);
		return -1;
	}
	return 0;
}
