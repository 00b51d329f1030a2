/* Missing evidence and the commands that fill it (gaps.h). */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "decide/gaps.h"
#include "rundir/cachematch.h"
#include "rundir/layout.h"
#include "util/buf.h"
#include "util/mem.h"
#include "banned.h"

static const char *command_of(const struct an_run *r)
{
	return r->command ? r->command : "python3 your_model.py";
}

/* Whether some kernel's argument shapes are known without a capture (a seed log). */
static int shapes_known(const struct an_run *r)
{
	size_t i, j;

	for (i = 0; i < r->nkernels; i++)
		for (j = 0; j < r->kernels[i].nargs; j++)
			if (r->kernels[i].args[j].shape)
				return 1;
	return 0;
}

/*
 * `fmt` with each %s replaced by the next path, quoted for the shell
 * (buf_add_shell_word): a RUN called "r;touch PWNED;#" must not make a
 * suggested command that runs touch. Only %s is understood.
 */
static char *shell_cmd(const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	const char *p;

	va_start(ap, fmt);
	for (p = fmt; *p; p++) {
		if (p[0] == '%' && p[1] == 's') {
			buf_add_shell_word(&b, va_arg(ap, const char *));
			p++;
		} else {
			buf_addch(&b, *p);
		}
	}
	va_end(ap);
	return buf_detach(&b, NULL);
}

/* RUN/<part> as the run names it: RUN/ with a slash of its own stays "RUN//part". */
static char *run_path(const struct an_run *r, enum rd_part p)
{
	return xstrfmt("%s/%s", r->run, rd_parts[p].rel);
}

static void run_gaps(struct an_run *r, const struct gaps_facts *f)
{
	char *cmd;

	if (!r->capture_dirs) {
		cmd = xstrfmt("tko investigate --out RUN2 -- %s", command_of(r));
		an_add_gap(&r->gaps, &r->ngaps, shapes_known(r) ?
			   "no capture: no kernel can be replayed (shapes, dtypes and strides come from"
			   " the seed skill's autotune.log; times are the autotuner's)" :
			   "no capture: the arguments' shapes, dtypes and strides"
			   " are unknown and no kernel can be replayed (times are the autotuner's, where"
			   " it timed any)", cmd);
		free(cmd);
	} else if (!f->have_replay) {
		char *json = run_path(r, RD_REPLAY_JSON);
		struct buf b = BUF_INIT;

		/* The glob stays outside the quotes, so the shell expands it. */
		buf_adds(&b, "tko run ");
		buf_add_shell_word(&b, r->run);
		buf_addf(&b, "/%s/* --json ", rd_parts[RD_KERNELS_DIR].rel);
		buf_add_shell_word(&b, json);
		free(json);
		cmd = buf_detach(&b, NULL);
		an_add_gap(&r->gaps, &r->ngaps, "no replay: times are the autotuner's, measured while"
			   " it was tuning; a replay times each kernel alone (on the GPU)", cmd);
		free(cmd);
	}
	if (isnan(r->peak_gbps)) {
		char *env = run_path(r, RD_ENV);

		cmd = shell_cmd("tko env --measure --json %s", env);
		free(env);
		an_add_gap(&r->gaps, &r->ngaps, "no measured peak bandwidth: footprint rates are not"
			   " compared with anything (run this on the GPU, or pass --peak-gbps)", cmd);
		free(cmd);
	}
	if (!f->have_log)
		an_add_gap(&r->gaps, &r->ngaps, "no TORCH_LOGS=+inductor log: no autotune times and no"
			   " user source lines", "TORCH_LOGS=+inductor (tko capture sets it)");
	if (!f->have_triton_cache)
		an_add_gap(&r->gaps, &r->ngaps, "no Triton cache in the RUN (cache/triton): no ISA",
			   "TRITON_CACHE_DIR=RUN/cache/triton (tko capture sets it)");
	if (!r->profile.file) {
		/* A gap's command must run as printed: the prose goes in the text. */
		cmd = shell_cmd("tko investigate --profile TRACE.json %s", r->run);
		an_add_gap(&r->gaps, &r->ngaps, r->nlibcalls ?
			   "no whole-step profile, and library calls (extern_kernels.*) are not timed:"
			   " shares are of the Triton kernel time only (tko capture records one in"
			   " RUN/profile/; or give a torch.profiler, rocprof or nsys file)" :
			   "no whole-step profile: shares are of the Triton kernel time only (tko"
			   " capture records one in RUN/profile/; or give a torch.profiler, rocprof or"
			   " nsys file)", cmd);
		free(cmd);
	}
}

static int ptx_without_registers(const struct an_kernel *k)
{
	return k->isa.file && k->isa.isa && !strcmp(k->isa.isa, "ptx") && k->isa.res.registers < 0;
}

static void kernel_gaps(struct an_run *r, struct an_kernel *k, const struct gaps_facts *f)
{
	char *what, *cmd;

	if (isnan(k->time_ms)) {
		if (k->kernel_dir && !f->have_replay) {
			char *kdir = xstrfmt("%s/%s", r->run, k->kernel_dir);
			char *json = run_path(r, RD_REPLAY_JSON);

			cmd = shell_cmd("tko run %s --json %s", kdir, json);
			free(kdir);
			free(json);
		} else
			cmd = k->kernel_dir ? NULL : xstrfmt("tko investigate --out RUN2 -- %s",
							     command_of(r));
		an_add_gap(&k->gaps, &k->ngaps, "no time: nothing timed the config it ran with", cmd);
		free(cmd);
	}
	if (!k->isa.file) {
		if (k->isa.match && !strcmp(k->isa.match, rd_how_names[RD_HOW_AMBIGUOUS]))
			what = xstrfmt("no ISA: %ld compiled configs of this module match the chosen"
				       " num_warps/num_stages, and no cache hash says which one ran",
				       k->isa.candidates);
		else
			what = xstrdup("no ISA: no compiled binary of this kernel for its arch in the"
				       " Triton cache");
		cmd = k->kernel_dir ? NULL : xstrfmt("tko investigate --out RUN2 -- %s", command_of(r));
		an_add_gap(&k->gaps, &k->ngaps, what, cmd);
		free(what);
		free(cmd);
	} else if (ptx_without_registers(k) && !f->have_disassembler) {
		size_t n = strlen(k->isa.file);

		if (n > 4 && !strcmp(k->isa.file + n - 4, ".ptx"))
			n -= 4;
		char *cubin = xstrfmt("%s/%.*s.cubin", r->run, (int)n, k->isa.file);

		cmd = shell_cmd("tko isa %s", cubin);
		free(cubin);
		an_add_gap(&k->gaps, &k->ngaps, "registers per thread unknown: PTX does not say and"
			   " nothing disassembled the cubin (needs the CUDA toolkit's cuobjdump or"
			   " nvdisasm)", cmd);
		free(cmd);
	}
	if (isnan(k->bytes))
		an_add_gap(&k->gaps, &k->ngaps, "no byte count: neither Inductor's estimate nor a"
			   " captured launch", NULL);
}

void gaps_compute(struct an_run *r, const struct gaps_facts *f)
{
	size_t i;

	run_gaps(r, f);
	for (i = 0; i < r->nkernels; i++)
		kernel_gaps(r, &r->kernels[i], f);
}
