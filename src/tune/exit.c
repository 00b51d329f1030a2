/* One kernel's tuning outcome as an exit status (see exit.h). */
#include "exitcode.h"
#include "tune/exit.h"
#include "banned.h"

static int exit_for(enum tune_fail f)
{
	static const int codes[] = {
		[TUNE_FAIL_INPUT] = EXIT_FAIL,
		[TUNE_FAIL_NOMATCH] = EXIT_NOMATCH,
		[TUNE_FAIL_TOOL] = EXIT_TOOL,
		[TUNE_FAIL_CHILD] = EXIT_CHILD,
		[TUNE_FAIL_TARGET] = EXIT_TOOL,
	};

	return codes[f];
}

int tune_exit_of(const struct tune_outcome *out)
{
	if (!out->ran)
		return exit_for(out->fail);
	return out->failed ? EXIT_FAIL : EXIT_OK;
}
