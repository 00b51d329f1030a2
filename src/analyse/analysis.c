/*
 * analysis_build(): gather, join, fill, share (see analysis.h). Each step
 * is one call; this file only orders them and fills the run's header
 * (device, command, counters). The rules and the gaps come after, in
 * decide/decide.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/analysis.h"
#include "analyse/inputs.h"
#include "analyse/share.h"
#include "analyse/stepprof.h"
#include "json/jsonio.h"
#include "model/env.h"
#include "model/manifest.h"
#include "rundir/layout.h"
#include "util/mem.h"
#include "util/spawn.h"
#include "version.h"
#include "banned.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* The captured command line, from tko-run.json's argv, each word quoted for the shell. */
static char *command_line(const struct run_manifest *m)
{
	struct buf b = BUF_INIT;
	size_t i;

	if (!m || !m->nargv)
		return NULL;
	for (i = 0; i < m->nargv; i++) {
		if (b.len)
			buf_addch(&b, ' ');
		buf_add_shell_word(&b, m->argv[i]);
	}
	return buf_detach(&b, NULL);
}

/* Device facts: capture's session_start, else env.json's first GPU, else a kernel's triton_meta. */
static void set_device(struct an_run *r, const struct an_inputs *in)
{
	const struct at_device *d = &in->at.device;
	struct env_gpu gpu;
	size_t i;

	env_doc_gpu(in->env, 0, &gpu);
	r->device = dup_or_null(d->name ? d->name : gpu.name);
	r->arch = dup_or_null(d->arch ? d->arch : gpu.arch);
	r->backend = dup_or_null(d->backend ? d->backend : gpu.backend);
	env_gpu_release(&gpu);
	for (i = 0; !r->arch && i < in->meta.kernels.nr; i++) {
		const struct meta_kernel *k = in->meta.kernels.v[i];

		if (k->device.arch) {
			r->arch = xstrdup(k->device.arch);
			r->backend = dup_or_null(k->device.backend);
		}
	}
}

static void set_header(struct an_run *r, const char *run_dir, const struct an_inputs *in)
{
	size_t i;

	r->tool = xstrdup("tko investigate");
	r->tko_version = xstrdup(TKO_VERSION);
	r->run = xstrdup(run_dir);
	r->command = command_line(in->manifest);
	set_device(r, in);
	r->logs = in->logs;
	r->modules = 0;
	for (i = 0; i < in->meta.nfiles; i++)
		r->modules += !strcmp(in->meta.files[i].role, "kernel");
	r->isa_files = (long)in->isa.files_nr;
	r->replays = in->replay_doc ? 1 : 0;
	r->tunes = (long)json_array_size(in->tunes);
}

/* What went wrong while reading, the evidence step's included. */
static void copy_notes(struct an_run *r, const struct an_inputs *in)
{
	size_t i;

	for (i = 0; i < in->nnotes; i++)
		an_add_str(&r->notes, &r->nnotes, in->notes[i]);
}

static void count_capture(struct an_run *r)
{
	size_t i;

	r->capture_dirs = 0;
	for (i = 0; i < r->nkernels; i++)
		r->capture_dirs += r->kernels[i].kernel_dir != NULL;
}

static void capture_outcome(struct an_capture_outcome *c, const struct an_inputs *in)
{
	const struct run_manifest *m = in->manifest;

	c->recorded = m != NULL;
	if (!m)
		return;
	c->command_found = m->command_found;
	c->exit_status = m->exit_status;
	c->signal = m->signal;
	c->launches = manifest_event_count(&m->capture, "launch");
	c->errors = m->capture.errors;
	c->torch = m->versions.torch != NULL;
	c->gpus = in->env ? (long)json_array_size(in->env->gpus) : -1;
	c->kernels_regex = dup_or_null(m->kernels_regex);
	c->torch_logs_set = dup_or_null(manifest_pairs_get(m->env_set, m->nenv_set, "TORCH_LOGS"));
	c->torch_logs_kept = dup_or_null(manifest_pairs_get(m->env_kept, m->nenv_kept,
							    "TORCH_LOGS"));
	c->triton_cache_set = !!manifest_pairs_get(m->env_set, m->nenv_set, "TRITON_CACHE_DIR");
	c->profile_set = !!manifest_pairs_get(m->env_set, m->nenv_set, "TKO_PROFILE_DIR");
	c->log_error = dup_or_null(m->log_error);
}

void an_facts_release(struct an_facts *f)
{
	struct an_capture_outcome *c = &f->capture;

	free(c->kernels_regex);
	free(c->torch_logs_set);
	free(c->torch_logs_kept);
	free(c->log_error);
	free(f->bandwidth_error);
	c->kernels_regex = c->torch_logs_set = c->torch_logs_kept = c->log_error = NULL;
	f->bandwidth_error = NULL;
}

static int have_disassembler(void)
{
	static const char *const tools[] = { "cuobjdump", "nvdisasm" };
	size_t i;

	for (i = 0; i < 2; i++) {
		char *p = find_in_path(tools[i]);

		if (p) {
			free(p);
			return 1;
		}
	}
	return 0;
}

static void progress(const struct an_opts *o, const char *step)
{
	if (o->progress)
		o->progress(o->progress_data, step);
}

int analysis_build(const char *run_dir, const struct an_opts *o, struct an_run *out,
		   struct an_facts *facts, struct buf *err)
{
	struct an_inputs in;
	char *env_path;
	int ret = -1;

	memset(facts, 0, sizeof(*facts));
	if (inputs_gather(&in, run_dir, o, err) < 0)
		goto done;
	set_header(out, run_dir, &in);
	progress(o, "joining the evidence per kernel");
	inputs_join(&in, out);
	inputs_evidence(&in, out);
	copy_notes(out, &in);
	count_capture(out);
	env_path = inputs_path(&in, rd_parts[RD_ENV].rel);
	share_compute(out, o->peak_gbps, env_path, in.env, in.replay_doc);
	free(env_path);
	progress(o, "reading the whole-step profile");
	if (stepprof_apply(out, run_dir, o->profile, err) < 0)
		goto done;
	facts->have_log = in.logs > 0;
	facts->have_triton_cache = in.isa.files_nr > 0 || in.tc.nr > 0;
	facts->have_replay = in.replay_doc != NULL;
	facts->have_disassembler = o->isa_tools && have_disassembler();
	capture_outcome(&facts->capture, &in);
	facts->bandwidth_error = in.env ? dup_or_null(in.env->bandwidth_error) : NULL;
	if (o->raw)
		inputs_take_raw(&in, o->raw);
	ret = 0;
done:
	inputs_release(&in);
	return ret;
}
