/*
 * The "tko isa" JSON document (docs/json.md, section "tko isa") built
 * from an isa_result with jansson: isa_result_to_json() and, for callers
 * that embed one kernel in their own documents, isa_kernel_to_json().
 */
#include <string.h>

#include "isa/isa.h"
#include "json/jsonio.h"
#include "report/isa_json.h"
#include "banned.h"

static json_t *family_json(unsigned fam, const struct isa_family_count *c)
{
	json_t *o = json_object(), *by = json_object();
	int counters = fam == ISA_FAM_WAITCNT;
	unsigned s;

	json_set_str(o, "group", isa_group_name(isa_families[fam].group));
	json_set_int(o, "count", (long long)c->count);
	if (isa_families[fam].group == ISA_GROUP_ATOMIC)
		json_set_int(o, "returning", (long long)c->returning);
	for (s = 0; s < ISA_SLOT_NR; s++)
		if (c->slot[s] && isa_slots[s].counter == counters)
			json_set_int(by, isa_slots[s].name, (long long)c->slot[s]);
	json_set_new(o, counters ? "by_counter" : "by_width", by);
	return o;
}

static json_t *families_json(const struct isa_kernel *k)
{
	json_t *o = json_object();
	unsigned fam;

	for (fam = 0; fam < ISA_FAM_NR; fam++)
		if (k->fam[fam].count)
			json_set_new(o, isa_families[fam].name, family_json(fam, &k->fam[fam]));
	return o;
}

static json_t *ops_json(const struct isa_file_result *f, const struct isa_kernel *k)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < k->ops_alloc && i < f->ops_nr; i++)
		if (k->ops[i])
			json_set_int(o, f->ops[i].name, (long long)k->ops[i]);
	return o;
}

static void resources_json(json_t *kj, const struct isa_kernel *k)
{
	json_t *r = json_object(), *src = json_object();
	size_t i;

	for (i = 0; i < ISA_RES_NR; i++) {
		const struct isa_value *v = &k->res[i];

		if (v->src == ISA_SRC_NONE) {
			json_set_new(r, isa_res_info[i].name, NULL);
			continue;
		}
		json_set_int(r, isa_res_info[i].name, v->value);
		json_set_str(src, isa_res_info[i].name, isa_src_name(v->src));
	}
	json_set_new(kj, "resources", r);
	json_set_new(kj, "resource_sources", src);
}

static json_t *lines_json(const struct isa_file_result *f, const struct isa_kernel *k)
{
	json_t *a = json_array(), *cur = NULL, *ops = NULL;
	size_t i;
	long long total = 0;

	for (i = 0; i < k->lines_nr; i++) {
		const struct isa_srcline *l = &k->lines[i];

		if (!cur || l->file != k->lines[i - 1].file ||
		    l->line != k->lines[i - 1].line) {
			if (cur)
				json_set_int(cur, "count", total);
			cur = json_object();
			ops = json_object();
			total = 0;
			if (isa_srcfile(f, l->file))
				json_set_str(cur, "file", isa_srcfile(f, l->file));
			else
				json_set_new(cur, "file", NULL);
			json_set_int(cur, "line", l->line);
			json_set_new(cur, "ops", ops);
			json_array_append_new(a, cur);
		}
		json_set_int(ops, f->ops[l->op].name, (long long)l->count);
		total += (long long)l->count;
	}
	if (cur)
		json_set_int(cur, "count", total);
	return a;
}

static json_t *findings_json(const struct isa_kernel *k)
{
	json_t *a = json_array();
	size_t i, j;

	for (i = 0; i < k->findings_nr; i++) {
		const struct isa_finding *fd = &k->findings[i];
		json_t *o = json_object(), *ev = json_object(), *src = json_object();

		json_set_str(o, "id", fd->id);
		json_set_new(o, "severity", fd->severity ? json_string(fd->severity) : NULL);
		json_set_str(o, "message", fd->message);
		for (j = 0; j < fd->ev_nr; j++) {
			json_set_int(ev, fd->ev[j].key, fd->ev[j].value);
			if (fd->ev[j].src != ISA_SRC_NONE)
				json_set_str(src, fd->ev[j].key, isa_src_name(fd->ev[j].src));
		}
		json_set_new(o, "evidence", ev);
		json_set_new(o, "evidence_sources", src);
		json_array_append_new(a, o);
	}
	return a;
}

/* The rules that fired on the kernel alone, as kernels.json writes a kernel's rules. */
static json_t *rules_json(const struct isa_kernel *k)
{
	json_t *a = json_array();
	size_t i, j;

	for (i = 0; i < k->rules_nr; i++) {
		const struct isa_rule *r = &k->rules[i];
		json_t *o = json_object(), *ev = json_array();

		json_set_str(o, "rule", r->rule);
		json_set_str(o, "decision", r->decision);
		json_set_str(o, "why", r->why);
		json_set_new(o, "knobs", r->knobs ? json_string(r->knobs) : NULL);
		for (j = 0; j < r->ev_nr; j++)
			json_array_append_new(ev, json_pack("{s:s, s:f}", "key", r->ev[j].key,
							    "value", r->ev[j].value));
		json_set_new(o, "evidence", ev);
		json_array_append_new(a, o);
	}
	return a;
}

json_t *isa_kernel_to_json(const struct isa_file_result *f,
			   const struct isa_kernel *k)
{
	json_t *o = json_object(), *sp = json_object();

	json_set_str(o, "name", k->name);
	json_set_str(o, "kind", k->is_kernel ? "kernel" : "function");
	json_set_str(o, "file", f->path);
	json_set_str(o, "isa", isa_kind_name(f->isa));
	if (k->arch)
		json_set_str(o, "arch", k->arch);
	else
		json_set_new(o, "arch", NULL);
	json_set_int(o, "line", (long long)k->label_line);
	json_set_int(o, "instructions", (long long)k->instructions);
	json_set_int(o, "macro_instructions", (long long)k->macro_instructions);
	json_set_new(o, "families", families_json(k));
	json_set_new(o, "ops", ops_json(f, k));
	resources_json(o, k);
	json_set_new(o, "source_lines", lines_json(f, k));
	json_set_int(o, "unattributed", (long long)k->unattributed);
	json_set_int(sp, "spills", (long long)k->spill_stores);
	json_set_int(sp, "reloads", (long long)k->spill_reloads);
	json_set_new(o, "spill_comments", sp);
	json_set_new(o, "findings", findings_json(k));
	json_set_new(o, "rules", rules_json(k));
	return o;
}

static json_t *strings_json(char **v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *file_json(const struct isa_file_result *f)
{
	json_t *o = json_object();

	json_set_str(o, "path", f->path);
	json_set_str(o, "isa", isa_kind_name(f->isa));
	json_set_str(o, "format", f->format);
	if (f->via)
		json_set_str(o, "via", f->via);
	else
		json_set_new(o, "via", NULL);
	json_set_int(o, "kernels", (long long)f->kernels_nr);
	json_set_new(o, "source_files", strings_json(f->srcfiles, f->srcfiles_nr));
	json_set_new(o, "notes", strings_json(f->notes, f->notes_nr));
	json_set_new(o, "warnings", strings_json(f->warnings, f->warnings_nr));
	return o;
}

json_t *isa_result_to_json(const struct isa_result *res)
{
	json_t *doc = json_object(), *files = json_array(), *skipped = json_array();
	json_t *kernels = json_array();
	size_t i, j;

	json_set_int(doc, "schema_version", ISA_JSON_SCHEMA_VERSION);
	json_set_str(doc, "tool", "tko isa");
	for (i = 0; i < res->files_nr; i++) {
		const struct isa_file_result *f = res->files[i];

		json_array_append_new(files, file_json(f));
		for (j = 0; j < f->kernels_nr; j++)
			json_array_append_new(kernels, isa_kernel_to_json(f, f->kernels[j]));
	}
	for (i = 0; i < res->skipped_nr; i++) {
		json_t *s = json_object();

		json_set_str(s, "path", res->skipped[i].path);
		json_set_str(s, "kind", res->skipped[i].kind);
		json_set_str(s, "reason", res->skipped[i].reason);
		json_array_append_new(skipped, s);
	}
	json_set_new(doc, "files", files);
	json_set_new(doc, "skipped", skipped);
	json_set_new(doc, "kernels", kernels);
	return doc;
}
