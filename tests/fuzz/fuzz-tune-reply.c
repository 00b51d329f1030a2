/*
 * Fuzzes what tko tune reads from its Python worker (py/worker.c hands
 * each reply line to it): a compile or bench reply's result
 * (tune/result.c). The kernel and its search space come from the source
 * now (fuzz-triton-meta.c).
 */
#include "fuzz.h"
#include "json/jsonio.h"
#include "tune/result.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf err = BUF_INIT;
	json_t *rep = json_load_span("tune worker reply", (const char *)data, size, &err);
	struct tune_results rs = TUNE_RESULTS_INIT;

	if (rep) {
		tune_result_from_reply(tune_results_at(&rs, 0), rep);
		tune_results_release(&rs);
	}
	json_decref(rep);
	buf_release(&err);
	return 0;
}
