/*
 * The HCU table and tko env's DCU warnings (see envhcu.h).
 *
 * Names: the brief's HCU table (hcu_targets.py of its HIP sibling skill,
 * docs/seed-scripts.md section 1). triton-das: its hcu backend's is_hcu
 * set and per-arch clang flags (docs/torch-triton-internals.md 5.2:
 * -support-768-vgprs for gfx936/gfx938, -support-512-vgprs for
 * gfx928/gfx946/gfx92a; gfx926 gets neither; gfx948 is not in the set).
 * "Verified" lists only what tko's tests check: t1003-isa-dcu.sh scans
 * the gfx926/gfx928 hipcc bundle and the gfx936 Triton and Tensile files,
 * test-isa-support.c checks gfx936's occupancy against a Kernel info block.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "isa/arch.h"
#include "live/envhcu.h"
#include "tune/arch.h"
#include "util/buf.h"
#include "util/jsonio.h"
#include "util/mem.h"
#include "banned.h"

#define NO_COMPILE "Triton compiling for it (it needs DTK and triton-das; tko tune --compile-only there)"
#define NO_TIMING "timing on the GPU (tko run, tko tune)"

static const struct hcu_target targets[] = {
	{ "gfx926", "孔明 (Kongming), K100", 1, 0,
	  "ISA scan of a hipcc -save-temps offload bundle (its gfx926 part)",
	  "occupancy (no VGPR-file flag in triton-das); " NO_COMPILE "; " NO_TIMING },
	{ "gfx928", "孔明e (Kongming e), K100_AI", 1, 512,
	  "ISA scan of a hipcc -save-temps offload bundle, spills through MUBUF buffer_store",
	  "the 512-VGPR budget (from triton-das's flags, not checked against a file); "
	  NO_COMPILE "; " NO_TIMING },
	{ "gfx92a", "月英 (Yueying)", 1, 512, NULL,
	  "ISA scan (no gfx92a file in tko's tests); the 512-VGPR budget (triton-das's flags); "
	  NO_COMPILE "; " NO_TIMING },
	{ "gfx936", "伯温 a0 (Bowen a0), BW", 1, 768,
	  "ISA scan of Triton and Tensile-style files (v_mmac, ds_read_m32x16, buffer loads into LDS); "
	  "occupancy from a 768-VGPR file against a Kernel info block (65 VGPRs, occupancy 10)",
	  NO_COMPILE "; " NO_TIMING },
	{ "gfx938", "伯温 b0 (Bowen b0)", 1, 768, NULL,
	  "ISA scan (no gfx938 file in tko's tests); the 768-VGPR budget (triton-das's flags); "
	  NO_COMPILE " (the brief's own validated stack is torch 2.9.0 / triton 3.3.0 / gfx938); "
	  NO_TIMING },
	{ "gfx946", "少伯 (Shaobo)", 1, 512, NULL,
	  "ISA scan (no gfx946 file in tko's tests); the 512-VGPR budget (triton-das's flags); "
	  "128 KiB LDS (from triton-das's configs); its MLS and WASP features, which the brief says "
	  "not to assume on gfx936/gfx938; " NO_COMPILE "; " NO_TIMING },
	{ "gfx948", "塞班 b1 (Saiban b1)", 0, 0, NULL,
	  "everything: only its name is known (triton-das does not list it); tko assumes wave64 "
	  "and 64 KiB LDS like the other HCUs and judges no VGPR budget" },
};

const struct hcu_target *hcu_targets(size_t *n)
{
	*n = sizeof(targets) / sizeof(targets[0]);
	return targets;
}

const struct hcu_target *hcu_target_find(const char *arch)
{
	size_t n = arch ? strcspn(arch, ":") : 0, i, j;

	for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		if (strlen(targets[i].arch) != n)
			continue;
		for (j = 0; j < n && tolower((unsigned char)arch[j]) == targets[i].arch[j]; j++)
			;
		if (j == n)
			return &targets[i];
	}
	return NULL;
}

static void warn(json_t *doc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warn(json_t *doc, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	char *s;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	s = buf_detach(&b, NULL);

	json_array_append_new(json_object_get(doc, "warnings"), json_string(s));
	free(s);
}

/* "gfx936", "gfx928, gfx936" ...: every HCU name, for messages. */
static char *hcu_names(void)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
		buf_addf(&b, "%s%s", i ? ", " : "", targets[i].arch);
	return buf_detach(&b, NULL);
}

/* Whether tko has a row for a non-Hygon arch (AMD or NVIDIA). */
static int known_elsewhere(const char *arch)
{
	struct buf norm = BUF_INIT;
	int known = tune_arch_normalize(arch, &norm) == 0 &&
		    (tune_arch_find(norm.buf) || isa_arch_find(norm.buf, norm.len));

	buf_release(&norm);
	return known;
}

static json_t *target_json(const struct hcu_target *t)
{
	json_t *o = json_pack("{s:s, s:s, s:b}", "arch", t->arch, "name", t->name,
			      "triton_das", t->das);

	json_set_new(o, "das_vgprs", t->das_vgprs ? json_integer(t->das_vgprs) : NULL);
	json_set_str(o, "verified", t->verified);
	json_set_str(o, "not_verified", t->not_verified);
	return o;
}

/* One GPU's arch: its HCU row into list (once), or a warning when tko does not know it. */
static int check_gpu(json_t *doc, const json_t *g, json_t *seen, json_t *list)
{
	const char *arch = json_str(g, "arch"), *type = json_str(g, "device_type");
	const struct hcu_target *t = hcu_target_find(arch);
	char *names;

	if (t) {
		if (!json_object_get(seen, t->arch)) {
			json_object_set_new(seen, t->arch, json_true());
			json_array_append_new(list, target_json(t));
			if (!t->das)
				warn(doc, "%s is a Hygon HCU name (%s) that triton-das does not list: "
				     "a recognised name does not mean Triton can compile for it", t->arch,
				     t->name);
		}
		return 1;
	}
	if (!arch)
		return 0;
	names = hcu_names();
	if (type && !strcmp(type, "HCU"))
		warn(doc, "rocminfo calls %s an HCU, but it is none of the Hygon names tko knows "
		     "(%s): confirm the vendor and toolchain support it", arch, names);
	else if (!strncmp(arch, "gfx", 3) && !known_elsewhere(arch))
		warn(doc, "%s is outside the architectures tko knows (Hygon: %s; AMD: gfx90a, "
		     "gfx942, gfx950, ...): no VGPR budget, occupancy or tune target for it", arch,
		     names);
	free(names);
	return 0;
}

static void buffer_ops_warnings(json_t *doc, int dcu)
{
	const char *v = json_str(json_object_get(doc, "env"), "AMDGCN_USE_BUFFER_OPS");

	if (v && !strcmp(v, "0"))
		warn(doc, "AMDGCN_USE_BUFFER_OPS=0 switches Triton's buffer ops off: loads and stores "
		     "compile to global_* instead of buffer_*; unset it unless that is the experiment");
	else if (v && !strcmp(v, "1") && dcu)
		warn(doc, "AMDGCN_USE_BUFFER_OPS=1 forces buffer ops; on the brief's validated torch "
		     "2.9.0 / triton 3.3.0 / gfx938 stack that made simple Triton and Inductor "
		     "pointwise kernels fail LLVM lowering: compile-probe first (tko tune "
		     "--compile-only on the DCU) and keep it off the capture run");
}

void env_hcu(json_t *doc)
{
	const json_t *gpus = json_object_get(doc, "gpus"), *g;
	const json_t *torch = json_object_get(doc, "torch");
	json_t *seen = json_object(), *list = json_array();
	size_t i, from_torch = 0;
	int hcu = 0;

	json_set_new(doc, "warnings", json_array());
	json_array_foreach(gpus, i, g) {
		hcu |= check_gpu(doc, g, seen, list);
		from_torch += json_str(g, "source") && !strcmp(json_str(g, "source"), "torch");
	}
	json_set_new(doc, "hcu_targets", list);
	json_decref(seen);
	if (hcu)
		json_set_bool(doc, "dcu", 1);
	buffer_ops_warnings(doc, json_is_true(json_object_get(doc, "dcu")));
	if (json_is_object(torch) && json_array_size(gpus) && !from_torch)
		warn(doc, "torch is importable but sees no GPU while %s lists one (torch.version.hip: "
		     "%s): capture and timing need a torch built for this GPU",
		     json_str(json_array_get(gpus, 0), "source") ?
		     json_str(json_array_get(gpus, 0), "source") : "another tool",
		     json_str(torch, "hip") ? json_str(torch, "hip") : "none");
}
