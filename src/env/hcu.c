/*
 * tko env's DCU section and warnings (see hcu.h). The HCU rows are
 * target/target.c's Hygon rows; their das_vgprs is the VGPR file the row
 * judges occupancy with, which is what triton-das's clang flags ask for
 * (-support-768-vgprs, -support-512-vgprs; none for gfx926 and gfx948).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "env/hcu.h"
#include "json/jsonio.h"
#include "util/buf.h"
#include "util/mem.h"
#include "banned.h"

const struct target *hcu_target_find(const char *arch)
{
	size_t n = arch ? strcspn(arch, ":") : 0, i, j, nr;
	const struct target *const *hygon = target_hygon(&nr);

	for (i = 0; i < nr; i++) {
		if (strlen(hygon[i]->name) != n)
			continue;
		for (j = 0; j < n && tolower((unsigned char)arch[j]) == hygon[i]->name[j]; j++)
			;
		if (j == n)
			return hygon[i];
	}
	return NULL;
}

static void warn(struct env_doc *doc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warn(struct env_doc *doc, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	env_doc_warn(doc, b.buf);
	buf_release(&b);
}

/* "gfx926, gfx928, ...": every HCU name, for messages. */
static char *hcu_names(void)
{
	struct buf b = BUF_INIT;
	size_t i, n;
	const struct target *const *hygon = target_hygon(&n);

	for (i = 0; i < n; i++)
		buf_addf(&b, "%s%s", i ? ", " : "", hygon[i]->name);
	return buf_detach(&b, NULL);
}

/* Whether tko has a row with facts for a non-Hygon arch (AMD or NVIDIA). */
static int known_elsewhere(const char *arch)
{
	struct buf norm = BUF_INIT;
	int known = target_norm(arch, &norm) == 0 && target_known(target_find(norm.buf));

	buf_release(&norm);
	return known;
}

/* The HCU row of t into doc's hcu_targets, unless it is there. */
static int add_target(struct env_doc *doc, const struct target *t)
{
	struct env_hcu_target *h;
	size_t i;

	for (i = 0; i < doc->nhcu_targets; i++)
		if (!strcmp(doc->hcu_targets[i].arch, t->name))
			return 0;
	doc->hcu_targets = rf_grow(doc->hcu_targets, doc->nhcu_targets, sizeof(*doc->hcu_targets));
	h = &doc->hcu_targets[doc->nhcu_targets++];
	h->arch = xstrdup(t->name);
	h->name = xstrdup(t->hcu->name);
	h->triton_das = t->hcu->das;
	h->das_vgprs = t->vgpr_file ? t->vgpr_file : RF_I64_NONE;
	h->verified = t->hcu->verified ? xstrdup(t->hcu->verified) : NULL;
	h->not_verified = t->hcu->not_verified ? xstrdup(t->hcu->not_verified) : NULL;
	return 1;
}

/* One GPU's arch: its HCU row into hcu_targets (once), or a warning when tko does not know it. */
static int check_gpu(struct env_doc *doc, const json_t *g)
{
	const char *arch = json_str(g, "arch"), *type = json_str(g, "device_type");
	const struct target *t = hcu_target_find(arch);
	char *names;

	if (t) {
		if (add_target(doc, t)) {
			if (!t->hcu->das)
				warn(doc, "%s is a Hygon HCU name (%s) that triton-das does not list: "
				     "a recognised name does not mean Triton can compile for it", t->name,
				     t->hcu->name);
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

static void buffer_ops_warnings(struct env_doc *doc, int dcu)
{
	const char *v = env_doc_flag(doc, "AMDGCN_USE_BUFFER_OPS");

	if (v && !strcmp(v, "0"))
		warn(doc, "AMDGCN_USE_BUFFER_OPS=0 switches Triton's buffer ops off: loads and stores "
		     "compile to global_* instead of buffer_*; unset it unless that is the experiment");
	else if (v && !strcmp(v, "1") && dcu)
		warn(doc, "AMDGCN_USE_BUFFER_OPS=1 forces buffer ops; on the brief's validated torch "
		     "2.9.0 / triton 3.3.0 / gfx938 stack that made simple Triton and Inductor "
		     "pointwise kernels fail LLVM lowering: compile-probe first (tko tune "
		     "--compile-only on the DCU) and keep it off the capture run");
}

void env_hcu(struct env_doc *doc)
{
	const json_t *gpus = doc->gpus, *g;
	const json_t *torch = doc->torch;
	size_t i, from_torch = 0;
	int hcu = 0;

	json_array_foreach(gpus, i, g) {
		hcu |= check_gpu(doc, g);
		from_torch += json_str(g, "source") && !strcmp(json_str(g, "source"), "torch");
	}
	if (hcu)
		doc->dcu = 1;
	buffer_ops_warnings(doc, doc->dcu);
	if (json_is_object(torch) && json_array_size(gpus) && !from_torch)
		warn(doc, "torch is importable but sees no GPU while %s lists one (torch.version.hip: "
		     "%s): capture and timing need a torch built for this GPU",
		     json_str(json_array_get(gpus, 0), "source") ?
		     json_str(json_array_get(gpus, 0), "source") : "another tool",
		     json_str(torch, "hip") ? json_str(torch, "hip") : "none");
}
