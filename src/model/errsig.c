/* The known compile-failure signatures (errsig.h). */
#include <stddef.h>
#include <string.h>

#include "model/errsig.h"
#include "banned.h"

static const struct errsig sigs[] = {
	{ "llvm_translation_failed", "LLVM Translation failed",
	  "LLVM could not translate the kernel's IR; on the brief's validated torch 2.9.0 / "
	  "triton 3.3.0 / gfx938 stack AMDGCN_USE_BUFFER_OPS=1 did this to simple Triton and "
	  "Inductor pointwise kernels, and so did pointer-to-int tl.assume forms: keep buffer ops "
	  "(or that assumption) off on this stack" },
	{ "unrealized_conversion_cast", "unrealized_conversion_cast",
	  "a builtin.unrealized_conversion_cast survived lowering, a conversion no pass could "
	  "lower; the brief saw it on gfx938 with AMDGCN_USE_BUFFER_OPS=1 and with some tl.assume "
	  "forms: drop that variant's hint or buffer ops, not the kernel" },
	{ "passmanager_failed", "PassManager::run failed",
	  "Triton's MLIR pass pipeline failed; for a Hygon arch (gfx926/928/936/938) upstream "
	  "Triton does not know the target and fails this way: compile with DTK's triton-das" },
};

const struct errsig *errsig_find(const char *error, const char *traceback)
{
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if ((error && strstr(error, sigs[i].needle)) ||
		    (traceback && strstr(traceback, sigs[i].needle)))
			return &sigs[i];
	return NULL;
}
