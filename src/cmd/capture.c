/*
 * tko capture [--out RUN] [--kernels REGEX] [--measure] [--json FILE]
 *             [--profile-steps N] [--profile-seconds S] [--no-profile] -- CMD ARGS...
 *
 * Runs the user's unchanged command (from argv, never through a shell)
 * with TorchInductor's and Triton's caches, logs and tko's Python capture
 * hook pointed into a fresh RUN directory (docs/design.md). The hook is the
 * sitecustomize in python/tko/_hook, put first on PYTHONPATH, so the
 * command needs no import. The command's stdout and stderr are shown as
 * they come and also written to RUN/log/model.log.
 *
 * The verbose logging tko switches on (TORCH_LOGS=+inductor, some 13,000
 * lines for a training step, and TRITON_PRINT_AUTOTUNING) is what tko
 * summarize reads, not what the user wants on the terminal: the hook
 * appends it to RUN/log/model.log only (python/tko/logroute.py; torch's
 * warnings still show). `tko -v capture` leaves it on the terminal too.
 * While the command runs, a progress line counts the kernels captured.
 *
 * Writes RUN/env.json before the command and RUN/tko-run.json after it.
 * Exits with the command's own exit status (128+N when a signal N ended
 * it, 127 when it could not be started); tko's own failures before the
 * command runs use the statuses of docs/exit-codes.md.
 *
 * The work is capture/session.h's, which tko investigate calls too; this
 * file is the options and the closing summary (report/capture_text.h).
 */
#include "capture/session.h"
#include "cmd/cmd.h"
#include "exitcode.h"
#include "report/capture_text.h"
#include "util/msg.h"
#include "util/opts.h"
#include "banned.h"

static const char *const usage[] = {
	"tko capture [--out RUN] [--kernels REGEX] [--measure] [--json FILE] -- CMD [ARGS...]",
	"Runs CMD with capture on and fills the RUN directory (default tko-run-<time>):",
	"RUN/log/model.log, RUN/capture/ (events.jsonl, autotune.log, kernels/), RUN/cache/",
	"(TORCHINDUCTOR_CACHE_DIR, TRITON_CACHE_DIR), RUN/env.json and RUN/tko-run.json.",
	"Once the model is in its steady state (no kernel compiled or autotuned for a while,",
	"the launch sequence repeating), a torch.profiler trace of a few steps goes to",
	"RUN/profile/ (trace-<pid>.json.gz, window-<pid>.json): tko investigate and tko",
	"profile read it.",
	"The terminal shows CMD's own output; the Inductor/Triton logging tko switches on",
	"goes to RUN/log/model.log only ('tko -v capture' shows it too).",
	"Exits with CMD's exit status.",
	NULL,
};

int cmd_capture(int argc, const char **argv)
{
	struct capture_opts o = CAPTURE_OPTS_INIT;
	const struct opt options[] = {
		OPT_STRING(0, "out", &o.out, "RUN", "the RUN directory to create (default tko-run-<time>)"),
		OPT_STRING(0, "kernels", &o.kernels, "REGEX", "snapshot only kernels whose name matches"),
		OPT_BOOL(0, "measure", &o.measure, "measure device copy bandwidth into env.json"),
		OPT_STRING(0, "json", &o.json, "FILE", "also write tko-run.json to FILE ('-': stdout)"),
		OPT_INT(0, "profile-steps", &o.profile.steps, "N", "steps in the profiled window (default 5)"),
		OPT_DOUBLE(0, "profile-seconds", &o.profile.seconds, "S", "at most S seconds of it (default 20)"),
		OPT_BOOL(0, "no-profile", &o.profile.off, "record no profile (RUN/profile/)"),
		OPT_END(),
	};
	struct capture_session s;
	int n, rest, ret;

	n = opts_parse(argc, argv, options, usage, OPTS_REST, &rest);
	if (n < 0)
		return opts_exit_code(n);
	if (rest < 0 || rest >= n) {
		msg_error("no command to run: give it after '--' (tko capture -- CMD ARGS...)");
		return EXIT_USAGE;
	}
	if (rest > 0) {
		msg_error("unexpected argument '%s' before '--'", argv[0]);
		return EXIT_USAGE;
	}
	capture_session_init(&s);
	ret = capture_session_run(&s, &o, argv + rest, n - rest);
	if (s.ran && !msg_settings.quiet)
		capture_print_summary(stderr, &s.m);
	capture_session_release(&s);
	return ret;
}
