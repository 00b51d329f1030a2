/*
 * apply/tmplkey: the template lookup table entry of a max-autotune
 * template winner (docs/apply.md, "Template winners"). Inductor keys its
 * template lookup table (torch/_inductor/lookup_table/choices.py) by the
 * op's inputs as it holds them while lowering: the dtype, hinted shape and
 * stride of each input, the op's scalars, and the op ("((torch.float16,
 * [2048, 2048], [2048, 1]), ...)+mm"). A kernel file cannot give that
 * (addmm's bias, the inputs' order, the scalars), so capture records the
 * key of every templated op as a template_lookup event (python/tko/
 * inductor_hooks.py) and this module finds the one event a template kernel
 * was generated for: the kernel's M, N, K and A/B strides and dtypes (its
 * body and signature) against each event's layouts.
 *
 * Only the plain Triton templates are matched: triton::mm (mm, addmm)
 * and triton::bmm (a body with stride_aq); a TMA template's body has no
 * strides to compare, and is left alone.
 */
#ifndef TKO_APPLY_TMPLKEY_H
#define TKO_APPLY_TMPLKEY_H

#include <stddef.h>
#include <jansson.h>

#include "util/buf.h"

/* One template_lookup event. */
struct tmplkey_event {
	char *op, *key;
	json_t *template_ids;	/* list of strings */
	json_t *layouts;	/* [[dtype, shape, stride], ...] */
};

struct tmplkey_events {
	struct tmplkey_event *v;
	size_t nr, alloc;
	int loaded;		/* the events file was read (or found missing) */
	/*
	 * Whether a capture process hooked InductorChoices.get_template_configs
	 * (its session_start's hooks): 1 one did, 0 none did, -1 no
	 * session_start says. None did when the torch has no template lookup
	 * table (before 2.10), or a tko capture older than the hook ran.
	 */
	int hooked;
	char *torch;		/* the first session_start's torch version, or NULL */
};
#define TMPLKEY_EVENTS_INIT { NULL, 0, 0, 0, -1, NULL }
#define TMPLKEY_HOOK "InductorChoices.get_template_configs"

/* 1 when torch version `v` ("2.9.0+cu128") predates the template lookup table (2.10). */
int tmplkey_torch_lacks_table(const char *v);

/*
 * The template_lookup events of RUN/capture/events.jsonl at `path`; a
 * missing file is no events (a capture before the hook). Lines that are
 * no event are skipped: capture_events' readers say so. 0, or -1 + err
 * when the file is there but cannot be read.
 */
int tmplkey_load(struct tmplkey_events *ev, const char *path, struct buf *err);
void tmplkey_release(struct tmplkey_events *ev);

/*
 * The plan entry's "template" of kernel `name`, whose module is
 * text[0..len), for the winner's `config` (tko tune's: body, num_warps,
 * num_stages, options): a new {"lookup_key", "template_id", "params"},
 * params being the kernel's inductor_meta config_args without ALLOW_TF32
 * (which the table must not hold), with the winner's body, num_warps,
 * num_stages and non-null options, and EVEN_K recomputed. NULL when no
 * event fits, or events of different keys do.
 */
json_t *tmplkey_template(const struct tmplkey_events *ev, const char *text, size_t len,
			 const char *name, const json_t *config);

#endif
