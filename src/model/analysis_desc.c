/*
 * The analysis model's field tables (analysis_desc.h) and its lifecycle helpers.
 * A new member of a struct in analysis.h is one row here; docs/json.md lists
 * the same keys in the same order.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "model/analysis_desc.h"
#include "model/names.h"
#include "util/mem.h"
#include "version.h"
#include "banned.h"

/* RF_ENUM members are ints: the enums must be too. */
_Static_assert(sizeof(enum kernel_kind) == sizeof(int), "enum size");
_Static_assert(sizeof(enum decision) == sizeof(int), "enum size");
_Static_assert(sizeof(enum at_method) == sizeof(int), "enum size");

#define T struct an_config
static const struct rf_field config_fields[] = {
	RF_F(T, "text", RF_STR, text),
	RF_F(T, "label", RF_STR, label),
	RF_E(T, "method", method, at_method_names, 0),
	RF_F(T, "time_ms", RF_NUM, time_ms),
	RF_F(T, "replay_ms", RF_NUM, replay_ms),
	RF_F(T, "failed", RF_BOOL, failed),
	RF_F(T, "chosen", RF_BOOL, chosen),
	RF_F(T, "n_regs", RF_LONG, n_regs),
	RF_F(T, "n_spills", RF_LONG, n_spills),
	RF_F(T, "shared_bytes", RF_LONG, shared_bytes),
	RF_FEND,
};
const struct rf_struct an_config_desc = { "config", sizeof(T), config_fields };
#undef T

#define T struct an_arg
static const struct rf_field arg_fields[] = {
	RF_F(T, "name", RF_STR, name),
	RF_F(T, "type", RF_STR, type),
	RF_F(T, "dtype", RF_STR, dtype),
	RF_F(T, "shape", RF_STR, shape),
	RF_F(T, "stride", RF_STR, stride),
	RF_F(T, "value", RF_STR, value),
	RF_F(T, "hints", RF_STR, hints),
	RF_F(T, "storage_offset", RF_LONG, storage_offset),
	RF_F(T, "pointer", RF_BOOL, pointer),
	RF_FEND,
};
static const struct rf_struct arg_desc = { "argument", sizeof(T), arg_fields };
#undef T

#define T struct an_origin
static const struct rf_field origin_fields[] = {
	RF_F(T, "file", RF_STR, file),
	RF_F(T, "line", RF_LONG, line),
	RF_F(T, "function", RF_STR, function),
	RF_F(T, "code", RF_STR, code),
	RF_FEND,
};
static const struct rf_struct origin_desc = { "origin", sizeof(T), origin_fields };
#undef T

#define T struct an_width
static const struct rf_field width_fields[] = {
	RF_F(T, "bits", RF_LONG, bits),
	RF_F(T, "count", RF_LONG, count),
	RF_FEND,
};
static const struct rf_struct width_desc = { "width", sizeof(T), width_fields };
#undef T

#define T struct an_family
static const struct rf_field family_fields[] = {
	RF_FX(T, "name", RF_STR, name, RF_NEED),
	RF_F(T, "group", RF_STR, group),
	RF_F(T, "count", RF_LONG, count),
	RF_F(T, "returning", RF_LONG, returning),
	RF_A(T, "widths", widths, nwidths, &width_desc),
	RF_FEND,
};
static const struct rf_struct family_desc = { "family", sizeof(T), family_fields };
#undef T

#define T struct an_srcline
static const struct rf_field srcline_fields[] = {
	RF_F(T, "file", RF_STR, file),
	RF_F(T, "line", RF_LONG, line),
	RF_F(T, "code", RF_STR, code),
	RF_F(T, "ops", RF_STR, ops),
	RF_F(T, "count", RF_LONG, count),
	RF_F(T, "narrow", RF_BOOL, narrow),
	RF_F(T, "atomic", RF_BOOL, atomic),
	RF_FEND,
};
static const struct rf_struct srcline_desc = { "source line", sizeof(T), srcline_fields };
#undef T

#define T struct an_res
static const struct rf_field res_fields[] = {
	RF_F(T, "vgprs", RF_LONG, vgprs),
	RF_F(T, "agprs", RF_LONG, agprs),
	RF_F(T, "sgprs", RF_LONG, sgprs),
	RF_F(T, "spills", RF_LONG, spills),
	RF_F(T, "scratch_bytes", RF_LONG, scratch_bytes),
	RF_F(T, "lds_bytes", RF_LONG, lds_bytes),
	RF_F(T, "occupancy", RF_LONG, occupancy),
	RF_F(T, "registers", RF_LONG, registers),
	RF_F(T, "local_bytes", RF_LONG, local_bytes),
	RF_F(T, "num_warps", RF_LONG, num_warps),
	RF_F(T, "num_stages", RF_LONG, num_stages),
	RF_F(T, "workgroup", RF_LONG, workgroup),
	RF_FEND,
};
const struct rf_struct an_res_desc = { "resources", sizeof(T), res_fields };
#undef T

#define T struct an_isa
static const struct rf_field isa_fields[] = {
	RF_FX(T, "file", RF_STR, file, RF_NODIFF),
	RF_F(T, "isa", RF_STR, isa),
	RF_F(T, "arch", RF_STR, arch),
	RF_FX(T, "cache_dir", RF_STR, cache_dir, RF_NODIFF),
	RF_FX(T, "match", RF_STR, match, RF_NODIFF),
	RF_FX(T, "candidates", RF_LONG, candidates, RF_NODIFF),
	RF_F(T, "instructions", RF_LONG, instructions),
	RF_F(T, "mem_ops", RF_LONG, mem_ops),
	RF_F(T, "mem_wide", RF_LONG, mem_wide),
	RF_F(T, "mem_narrow", RF_LONG, mem_narrow),
	RF_F(T, "vector_share", RF_NUM, vector_share),
	RF_F(T, "global_ops", RF_LONG, global_ops),
	RF_F(T, "buffer_ops", RF_LONG, buffer_ops),
	RF_F(T, "flat_ops", RF_LONG, flat_ops),
	RF_F(T, "atomics", RF_LONG, atomics),
	RF_F(T, "atomics_returning", RF_LONG, atomics_returning),
	RF_F(T, "lds_ops", RF_LONG, lds_ops),
	RF_F(T, "matrix_ops", RF_LONG, matrix_ops),
	RF_S(T, "resources", res, &an_res_desc, 0),
	RF_A(T, "families", families, nfamilies, &family_desc),
	RF_A(T, "source_lines", lines, nlines, &srcline_desc),
	RF_V(T, "findings", findings, nfindings),
	RF_FEND,
};
const struct rf_struct an_isa_desc = { "isa", sizeof(T), isa_fields };
#undef T

#define T struct an_addr
static const struct rf_field addr_fields[] = {
	RF_F(T, "loads", RF_LONG, loads),
	RF_F(T, "stores", RF_LONG, stores),
	RF_F(T, "divmod", RF_LONG, divmod),
	RF_F(T, "divmod_line", RF_LONG, divmod_line),
	RF_F(T, "gathers", RF_LONG, gathers),
	RF_F(T, "gather_elems", RF_LONG, gather_elems),
	RF_F(T, "gather_line", RF_LONG, gather_line),
	RF_F(T, "scatters", RF_LONG, scatters),
	RF_F(T, "scatter_line", RF_LONG, scatter_line),
	RF_F(T, "strided", RF_LONG, strided),
	RF_F(T, "strided_line", RF_LONG, strided_line),
	RF_F(T, "strided_stride", RF_LONG, strided_stride),
	RF_F(T, "zero_stores", RF_LONG, zero_stores),
	RF_F(T, "zero_param", RF_STR, zero_param),
	RF_F(T, "zero_consumer", RF_STR, zero_consumer),
	RF_FEND,
};
static const struct rf_struct addr_desc = { "addr", sizeof(T), addr_fields };
#undef T

#define T struct an_tune
static const struct rf_field tune_fields[] = {
	RF_FX(T, "file", RF_STR, file, RF_NODIFF),
	RF_E(T, "mode", mode, tune_mode_names, 0),
	RF_F(T, "target", RF_STR, target),
	RF_F(T, "winner", RF_STR, winner),
	RF_F(T, "time_ms", RF_NUM, time_ms),
	RF_F(T, "speedup", RF_NUM, speedup),
	RF_F(T, "variants", RF_LONG, variants),
	RF_F(T, "correct", RF_LONG, correct),
	RF_F(T, "split_size", RF_LONG, split_size),
	RF_F(T, "online_softmax_off", RF_BOOL, online_softmax_off),
	RF_F(T, "failure", RF_STR, failure),
	RF_F(T, "buffer_ops_failed", RF_BOOL, buffer_ops_failed),
	RF_F(T, "twopass_speedup", RF_NUM, twopass_speedup),
	RF_F(T, "hints_variants", RF_LONG, hints_variants),
	RF_F(T, "hints_same_isa", RF_LONG, hints_same_isa),
	RF_F(T, "winner_is_base", RF_BOOL, winner_is_base),
	RF_F(T, "wall_s", RF_NUM, wall_s),
	RF_FEND,
};
static const struct rf_struct tune_desc = { "tune", sizeof(T), tune_fields };
#undef T

#define T struct an_evidence
static const struct rf_field evidence_fields[] = {
	RF_F(T, "key", RF_STR, key),
	RF_F(T, "value", RF_NUM, value),
	RF_FEND,
};
static const struct rf_struct evidence_desc = { "evidence", sizeof(T), evidence_fields };
#undef T

#define T struct an_fired
static const struct rf_field fired_fields[] = {
	RF_F(T, "rule", RF_STR, rule),
	RF_E(T, "decision", decision, decision_names, 0),
	RF_F(T, "why", RF_STR, why),
	RF_F(T, "knobs", RF_STR, knobs),
	RF_A(T, "evidence", ev, nev, &evidence_desc),
	RF_FEND,
};
static const struct rf_struct fired_desc = { "rule", sizeof(T), fired_fields };
#undef T

#define T struct an_gap
static const struct rf_field gap_fields[] = {
	RF_F(T, "what", RF_STR, what),
	RF_F(T, "command", RF_STR, command),
	RF_FEND,
};
static const struct rf_struct gap_desc = { "gap", sizeof(T), gap_fields };
#undef T

#define T struct an_kernel
static const struct rf_field kernel_fields[] = {
	RF_FX(T, "id", RF_STR, id, RF_NEED),
	RF_FX(T, "name", RF_STR, name, RF_NEED),
	RF_E(T, "kind", kind, kind_names, 0),
	RF_FX(T, "module", RF_STR, module, RF_NODIFF),
	RF_FX(T, "module_key", RF_STR, module_key, RF_NODIFF),
	RF_FX(T, "source_hash", RF_STR, source_hash, RF_NODIFF),
	RF_FX(T, "kernel_dir", RF_STR, kernel_dir, RF_NODIFF),
	RF_FX(T, "autotune_id", RF_STR, autotune_id, RF_NODIFF),
	RF_FX(T, "graph", RF_STR, graph, RF_NODIFF),
	RF_FX(T, "wrapper", RF_STR, wrapper, RF_NODIFF),
	RF_F(T, "arch", RF_STR, arch),
	RF_V(T, "aten", aten, naten),
	RF_V(T, "nodes", nodes, nnodes),
	RF_A(T, "origins", origins, norigins, &origin_desc),
	RF_E(T, "chosen_by", chosen_by, at_method_names, 0),
	RF_F(T, "best", RF_STR, best),
	RF_F(T, "configs_timed", RF_LONG, configs_timed),
	RF_A(T, "configs", configs, nconfigs, &an_config_desc),
	RF_F(T, "launches", RF_LONG, launches),
	RF_F(T, "signatures", RF_LONG, signatures),
	RF_E(T, "launch_basis", launch_basis, launch_basis_names, RF_NODIFF),
	RF_F(T, "time_ms", RF_NUM, time_ms),
	RF_E(T, "time_basis", time_basis, time_basis_names, RF_NODIFF),
	RF_FX(T, "time_note", RF_STR, time_note, RF_NODIFF),
	RF_F(T, "total_ms", RF_NUM, total_ms),
	RF_F(T, "share", RF_NUM, share),
	RF_F(T, "rank", RF_LONG, rank),
	RF_F(T, "bytes", RF_NUM, bytes),
	RF_E(T, "bytes_basis", bytes_basis, bytes_basis_names, RF_NODIFF),
	RF_F(T, "bytes_estimate", RF_BOOL, bytes_estimate),
	RF_FX(T, "bytes_note", RF_STR, bytes_note, RF_NODIFF),
	RF_FX(T, "traffic_bytes", RF_NUM, traffic_bytes, RF_NODIFF),
	RF_FX(T, "traffic_gathered", RF_LONG, traffic_gathered, RF_NODIFF),
	RF_F(T, "inductor_bytes", RF_NUM, inductor_bytes),
	RF_F(T, "footprint_bytes", RF_NUM, footprint_bytes),
	RF_F(T, "seed_bytes", RF_NUM, seed_bytes),
	RF_F(T, "gbps", RF_NUM, gbps),
	RF_F(T, "peak_fraction", RF_NUM, peak_fraction),
	RF_F(T, "rate_doubt", RF_STR, rate_doubt),
	RF_A(T, "args", args, nargs, &arg_desc),
	RF_F(T, "hints_known", RF_BOOL, hints_known),
	RF_F(T, "pointer_args", RF_LONG, pointer_args),
	RF_V(T, "no_divisibility", no_divisibility, nno_divisibility),
	RF_V(T, "no_pointer_range", no_pointer_range, nno_pointer_range),
	RF_F(T, "src_loads", RF_LONG, src_loads),
	RF_F(T, "src_stores", RF_LONG, src_stores),
	RF_F(T, "src_atomics", RF_LONG, src_atomics),
	RF_F(T, "src_assume", RF_LONG, src_assume),
	RF_F(T, "src_multiple_of", RF_LONG, src_multiple_of),
	RF_F(T, "src_max_contiguous", RF_LONG, src_max_contiguous),
	RF_F(T, "src_dot", RF_LONG, src_dot),
	RF_S(T, "addr", addr, &addr_desc, 0),
	RF_S(T, "isa", isa, &an_isa_desc, RF_OPTIONAL),
	RF_S(T, "tune", tune, &tune_desc, RF_OPTIONAL),
	RF_E(T, "decision", decision, decision_names, 0),
	RF_FX(T, "action", RF_STR, action, RF_NODIFF),
	RF_A(T, "rules", fired, nfired, &fired_desc),
	RF_A(T, "gaps", gaps, ngaps, &gap_desc),
	RF_FEND,
};
const struct rf_struct an_kernel_desc = { "kernel", sizeof(T), kernel_fields };
#undef T

#define T struct an_candidate
static const struct rf_field candidate_fields[] = {
	RF_F(T, "name", RF_STR, name),
	RF_F(T, "why", RF_STR, why),
	RF_F(T, "count", RF_LONG, count),
	RF_F(T, "timed", RF_LONG, timed),
	RF_F(T, "best_ms", RF_NUM, best_ms),
	RF_FEND,
};
static const struct rf_struct candidate_desc = { "candidate", sizeof(T), candidate_fields };
#undef T

#define T struct an_libcall
static const struct rf_field libcall_fields[] = {
	RF_F(T, "op", RF_STR, op),
	RF_F(T, "wrapper", RF_STR, wrapper),
	RF_F(T, "graph", RF_STR, graph),
	RF_F(T, "line", RF_LONG, line),
	RF_F(T, "calls", RF_LONG, calls),
	RF_FEND,
};
static const struct rf_struct libcall_desc = { "library call", sizeof(T), libcall_fields };
#undef T

#define T struct an_step_group
static const struct rf_field step_group_fields[] = {
	RF_F(T, "rank", RF_LONG, rank),
	RF_E(T, "class", cls, prof_class_names, 0),
	RF_F(T, "op", RF_STR, op),
	RF_F(T, "kernel", RF_STR, kernel),
	RF_F(T, "dtype", RF_STR, dtype),
	RF_F(T, "kernel_id", RF_STR, kernel_id),
	RF_F(T, "calls", RF_LONG, calls),
	RF_F(T, "kernels", RF_LONG, kernels),
	RF_F(T, "total_ms", RF_NUM, total_ms),
	RF_F(T, "busy_ms", RF_NUM, busy_ms),
	RF_F(T, "share", RF_NUM, share),
	RF_E(T, "decision", decision, decision_names, 0),
	RF_FX(T, "action", RF_STR, action, RF_NODIFF),
	RF_A(T, "rules", fired, nfired, &fired_desc),
	RF_FEND,
};
static const struct rf_struct step_group_desc = { "step group", sizeof(T), step_group_fields };
#undef T

#define T struct an_profile
static const struct rf_field profile_fields[] = {
	RF_FX(T, "file", RF_STR, file, RF_NODIFF),
	RF_F(T, "format", RF_STR, format),
	RF_F(T, "device", RF_STR, device),
	RF_F(T, "partial", RF_BOOL, partial),
	RF_F(T, "timeline", RF_BOOL, timeline),
	RF_F(T, "activities", RF_LONG, activities),
	RF_F(T, "steps", RF_LONG, steps),
	RF_F(T, "busy_ms", RF_NUM, busy_ms),
	RF_F(T, "span_ms", RF_NUM, span_ms),
	RF_F(T, "idle_ms", RF_NUM, idle_ms),
	RF_F(T, "kernel_ms", RF_NUM, kernel_ms),
	RF_F(T, "step_ms", RF_NUM, step_ms),
	RF_A(T, "class_shares", classes, nclasses, &evidence_desc),
	RF_V(T, "notes", notes, nnotes),
	RF_FEND,
};
static const struct rf_struct profile_desc = { "profile", sizeof(T), profile_fields };
#undef T

#define T struct an_run
static const struct rf_field run_fields[] = {
	RF_FX(T, "tool", RF_STR, tool, RF_NODIFF),
	RF_FX(T, "tko_version", RF_STR, tko_version, RF_NODIFF),
	RF_FX(T, "run", RF_STR, run, RF_NODIFF),
	RF_FX(T, "command", RF_STR, command, RF_NODIFF),
	RF_F(T, "device", RF_STR, device),
	RF_F(T, "arch", RF_STR, arch),
	RF_F(T, "backend", RF_STR, backend),
	RF_F(T, "peak_gbps", RF_NUM, peak_gbps),
	RF_FX(T, "peak_source", RF_STR, peak_source, RF_NODIFF),
	RF_FX(T, "share_method", RF_STR, share_method, RF_NODIFF),
	RF_F(T, "measured_ms", RF_NUM, measured_ms),
	RF_F(T, "timed", RF_LONG, timed),
	RF_F(T, "untimed", RF_LONG, untimed),
	RF_FX(T, "logs", RF_LONG, logs, RF_NODIFF),
	RF_FX(T, "modules", RF_LONG, modules, RF_NODIFF),
	RF_FX(T, "wrappers", RF_LONG, wrappers, RF_NODIFF),
	RF_FX(T, "isa_files", RF_LONG, isa_files, RF_NODIFF),
	RF_FX(T, "capture_dirs", RF_LONG, capture_dirs, RF_NODIFF),
	RF_FX(T, "replays", RF_LONG, replays, RF_NODIFF),
	RF_FX(T, "tunes", RF_LONG, tunes, RF_NODIFF),
	RF_A(T, "kernels", kernels, nkernels, &an_kernel_desc),
	RF_A(T, "candidates", candidates, ncandidates, &candidate_desc),
	RF_A(T, "library_calls", libcalls, nlibcalls, &libcall_desc),
	RF_S(T, "profile", profile, &profile_desc, RF_OPTIONAL),
	RF_A(T, "step_groups", step_groups, nstep_groups, &step_group_desc),
	RF_A(T, "step_rules", step_rules, nstep_rules, &fired_desc),
	RF_A(T, "gaps", gaps, ngaps, &gap_desc),
	RF_V(T, "notes", notes, nnotes),
	RF_FEND,
};
const struct rf_struct an_run_desc = { "run", sizeof(T), run_fields };
#undef T

void an_run_init(struct an_run *r)
{
	rf_init(&an_run_desc, r);
}

void an_run_release(struct an_run *r)
{
	rf_release(&an_run_desc, r);
}

void an_kernel_init(struct an_kernel *k)
{
	rf_init(&an_kernel_desc, k);
}

struct an_kernel *an_run_add_kernel(struct an_run *r)
{
	struct an_kernel *k;

	r->kernels = rf_grow(r->kernels, r->nkernels, sizeof(*r->kernels));
	k = &r->kernels[r->nkernels++];
	an_kernel_init(k);
	return k;
}

void an_add_gap(struct an_gap **v, size_t *nr, const char *what, const char *command)
{
	struct an_gap *g;

	*v = rf_grow(*v, *nr, sizeof(**v));
	g = &(*v)[(*nr)++];
	g->what = xstrdup(what);
	g->command = command ? xstrdup(command) : NULL;
}

void an_add_str(char ***v, size_t *nr, const char *s)
{
	*v = rf_grow(*v, *nr, sizeof(**v));
	(*v)[(*nr)++] = xstrdup(s);
}

void an_run_note(struct an_run *r, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	r->notes = rf_grow(r->notes, r->nnotes, sizeof(*r->notes));
	r->notes[r->nnotes++] = buf_detach(&b, NULL);
}

const struct an_config *an_kernel_chosen(const struct an_kernel *k)
{
	size_t i;

	for (i = 0; i < k->nconfigs; i++)
		if (k->configs[i].chosen)
			return &k->configs[i];
	return NULL;
}

struct an_kernel *an_run_find(const struct an_run *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->nkernels; i++)
		if (!strcmp(r->kernels[i].id, id))
			return &r->kernels[i];
	return NULL;
}

json_t *an_run_to_json(const struct an_run *r, const char *tool)
{
	json_t *body = rf_to_json(&an_run_desc, r), *doc = json_object();
	const char *key;
	json_t *v;

	json_object_set_new(doc, "schema_version", json_integer(AN_SCHEMA_VERSION));
	json_object_set_new(doc, "tool", json_string(tool));
	json_object_foreach(body, key, v)
		if (strcmp(key, "tool"))
			json_object_set(doc, key, v);
	json_decref(body);
	return doc;
}

int an_run_from_json(struct an_run *r, const json_t *doc, const char *what,
		     struct buf *err)
{
	json_int_t v = json_integer_value(json_object_get(doc, "schema_version"));

	if (!json_is_object(doc) || !json_is_integer(json_object_get(doc, "schema_version"))) {
		buf_addf(err, "'%s' is not a tko analysis document (no schema_version)", what);
		return -1;
	}
	if (v != AN_SCHEMA_VERSION) {
		buf_addf(err, "'%s' has schema_version %lld; this tko reads %d%s", what,
			 (long long)v, AN_SCHEMA_VERSION,
			 v < AN_SCHEMA_VERSION ? " (tko investigate on the RUN writes it anew)" : "");
		return -1;
	}
	if (!json_is_array(json_object_get(doc, "kernels"))) {
		buf_addf(err, "'%s' has no \"kernels\" list", what);
		return -1;
	}
	return rf_from_json(&an_run_desc, r, doc, what, err);
}
