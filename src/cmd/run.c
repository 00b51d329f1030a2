/*
 * tko run KERNEL_DIR... [--json FILE] [--timeout S] [--reps N] [--peak-gbps X] [--env FILE]
 *
 * Replays captured kernels (RUN/capture/kernels/<kernel>-<hash8>/) in one
 * child Python with a time limit (src/run/replay.c, python/tko/replay.py):
 * each recorded config is timed (median of device-event timings, inputs
 * restored and L2 flushed before every repetition) and its outputs checked
 * against the captured config's. Prints time, the time the autotuner
 * recorded, the bytes the launch moves (model/traffic.h: every read and
 * write, in-place arguments both ways; "est." when a gather's bound or an
 * assumption is in it), that rate in GB/s and its fraction of the measured
 * copy bandwidth (RUN/env.json, from `tko env --measure` or
 * `tko capture --measure`). A rate over 105% of the copy rate is not
 * printed as a fact: it is bracketed and its cause printed under the table.
 *
 * Without --json, when every kernel directory is RUN/capture/kernels/<name>
 * of one RUN, the document is also kept in RUN/analysis/replay.json
 * (src/run/store.c), where `tko investigate` finds it. All of it
 * but the options and the --json file is replay_into_run()
 * (src/run/replay.h) and report/replay_text.h, which investigate calls too.
 *
 * Exit: 0 all agree; 1 a kernel failed or its configs' outputs disagree
 * (or the kept copy could not be written); 3 no python/torch/GPU; 5 the
 * replay died; 124 it ran past --timeout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "exitcode.h"
#include "json/jsonio.h"
#include "parse/kernel_uses.h"
#include "report/replay_text.h"
#include "run/replay.h"
#include "util/msg.h"
#include "util/opts.h"
#include "banned.h"

static const char *const usage[] = {
	"tko run KERNEL_DIR... [--json FILE] [--timeout S] [--reps N] [--peak-gbps X] [--env FILE]",
	"The Python interpreter is $TKO_PYTHON (default python3); tko's package is found in",
	"$TKO_PYTHONPATH, else <folder of the tko binary>/../python. The Triton cache of the",
	"kernels' RUN is reused unless TRITON_CACHE_DIR is set. GB/s is the bytes the launch",
	"reads and writes (docs/json.md, \"Bytes and rates\") / median time.",
	"Without --json, the kernels of one RUN also get RUN/analysis/replay.json.",
	NULL,
};

int cmd_run(int argc, const char **argv)
{
	struct replay_opts o = REPLAY_OPTS_INIT;
	const char *json = NULL;
	const struct opt options[] = {
		OPT_STRING(0, "json", &json, "FILE", "write the JSON document to FILE ('-': stdout)"),
		OPT_DOUBLE(0, "timeout", &o.timeout_s, "S", "stop the replay after S seconds (default 600)"),
		OPT_INT(0, "reps", &o.reps, "N", "timed repetitions per config (default: automatic)"),
		OPT_DOUBLE(0, "peak-gbps", &o.peak_gbps, "X", "the peak to compare against, GB/s"),
		OPT_STRING(0, "env", &o.env_json, "FILE", "read the peak from this env.json"),
		OPT_END(),
	};
	struct strlist dirs = STRLIST_INIT;
	struct replay_outcome out = REPLAY_OUTCOME_INIT;
	struct buf err = BUF_INIT;
	int n, i, ret;

	n = opts_parse(argc, argv, options, usage, 0, NULL);
	if (n < 0)
		return opts_exit_code(n);
	if (!n || o.timeout_s <= 0 || o.reps < 0) {
		msg_error(n ? "--timeout must be positive and --reps not negative"
			    : "give at least one KERNEL_DIR");
		return EXIT_USAGE;
	}
	for (i = 0; i < n; i++)
		strlist_push(&dirs, argv[i]);
	o.read_uses = kernel_uses_read;
	/* with --json the document goes there, and nothing is kept in the RUN */
	ret = replay_into_run(&dirs, &o, !json, &out);
	if (out.doc && json && replay_doc_save(out.doc, json, &err) < 0) {
		msg_error("%s", err.buf);
		ret = EXIT_FAIL;
	}
	replay_text_show(&out, !json || strcmp(json, "-"), msg_command());
	replay_outcome_release(&out);
	strlist_release(&dirs);
	buf_release(&err);
	return ret;
}
