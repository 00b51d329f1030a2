/*
 * tko profile FILE [--json FILE] [--top N]: where a profiled step's GPU
 * time went, from a torch.profiler trace, rocprofv3/rocprof or nsys output
 * (src/profile/ reads and attributes it; report/profile_text.h prints it).
 * Exit codes: 0; 1 a file that is not a profile, has no kernels or ends
 * before any; 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "exitcode.h"
#include "profile/attrib.h"
#include "profile/prof.h"
#include "profile/tojson.h"
#include "report/profile_text.h"
#include "util/file.h"
#include "util/msg.h"
#include "util/opts.h"
#include "banned.h"

static const char *const usage[] = {
	"tko profile [--json FILE] [--top N] PROFILE",
	"",
	"Where a profiled step's GPU time went. PROFILE is any of (told from its content):",
	"  torch.profiler / Kineto Chrome trace (.json, .json.gz; tko capture writes RUN/profile/)",
	"  rocprofv3 kernel_trace.csv or kernel_stats.csv, rocprof v1 / DTK results.csv",
	"  nsys stats cuda_gpu_trace or cuda_gpu_kern_sum CSV, nsys export --type sqlite",
	"Each GPU kernel is attributed: Triton kernels by name and Inductor's kernel hash,",
	"library kernels (GEMM, attention, NCCL, copies) under the ATen op that launched",
	"them; shares are of the GPU busy time (the union of all kernels), idle is listed",
	"apart. Steps come from ProfilerStep#N ranges. JSON: docs/json.md, \"tko profile\".",
	NULL,
};

static int write_json(const struct prof *p, const char *path, size_t top, struct buf *err)
{
	struct atomic_file af = ATOMIC_FILE_INIT;

	if (atomic_open(&af, path, err) < 0)
		return -1;
	if (prof_write_json(af.fp, p, top) < 0) {
		buf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		atomic_abort(&af);
		return -1;
	}
	return atomic_commit(&af, err);
}

int cmd_profile(int argc, const char **argv)
{
	const char *json = NULL;
	long top = 20;
	const struct opt options[] = {
		OPT_STRING(0, "json", &json, "FILE", "write JSON to FILE ('-': stdout, no table); all groups"),
		OPT_INT(0, "top", &top, "N", "groups in the table (default 20, 0: all)"),
		OPT_END(),
	};
	int n = opts_parse(argc, argv, options, usage, 0, NULL), ret = EXIT_OK;
	struct buf err = BUF_INIT;
	struct prof p;

	if (n < 0)
		return opts_exit_code(n);
	if (n != 1 || top < 0) {
		msg_error(n ? "give one profile file and a --top of 0 or more (see 'tko profile --help')" :
			  "missing PROFILE (see 'tko profile --help')");
		return EXIT_USAGE;
	}
	prof_init(&p);
	if (prof_read_path(&p, argv[0], &err) < 0) {
		msg_error("%s", err.buf);
		ret = EXIT_FAIL;
		goto done;
	}
	prof_attribute(&p);
	if (json && write_json(&p, json, 0, &err) < 0) {
		msg_error("%s", err.buf);
		ret = EXIT_FAIL;
		goto done;
	}
	if (!json || strcmp(json, "-"))
		profile_print(stdout, &p, (size_t)top);
	if (p.partial)
		msg_warn("'%s' ends early: the numbers cover what it holds", argv[0]);
done:
	prof_release(&p);
	buf_release(&err);
	return ret;
}
