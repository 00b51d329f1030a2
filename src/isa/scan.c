/*
 * Scanning paths: the public entry points of isa.h. A path is a file or
 * a directory walked recursively (util/walk.h); each file is identified
 * by content (detect.c), disassembled when it is a GPU binary (tools.c),
 * read by its ISA's scanner, completed from Triton's <name>.json beside
 * it (and, for PTX, cuobjdump -res-usage of the <name>.cubin beside it),
 * and finished (resources derived, findings computed).
 *
 * Errors: a file named directly that cannot be scanned is an error
 * (ISA_ERR_INPUT, or ISA_ERR_TOOL when a tool is missing); inside a
 * directory the same file becomes an isa_skip, so one odd file does not
 * stop the scan of a Triton cache.
 */
#include <stdlib.h>
#include <string.h>

#include "isa/amdgcn.h"
#include "isa/detect.h"
#include "isa/ptx.h"
#include "isa/result.h"
#include "isa/sass.h"
#include "isa/scan.h"
#include "isa/tools.h"
#include "json/jsonio.h"
#include "target/target.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/walk.h"
#include "banned.h"

const struct isa_scanner *const isa_scanners[] = {
	&isa_amdgcn,
	&isa_ptx,
	&isa_sass,
	NULL,
};

const struct isa_scanner *isa_scanner_for(enum isa_kind kind)
{
	const struct isa_scanner *const *sc;

	for (sc = isa_scanners; *sc; sc++)
		if ((*sc)->kind == kind)
			return *sc;
	return NULL;
}

int isa_scan_raw(const char *p, size_t n, enum isa_kind kind,
		 struct isa_file_result *out, struct buf *err)
{
	const struct isa_scanner *sc = isa_scanner_for(kind);

	if (!sc) {
		buf_addf(err, "'%s': no scanner for this ISA", out->path);
		return ISA_ERR_INPUT;
	}
	return sc->scan(p, n, out, err) < 0 ? ISA_ERR_INPUT : 0;
}

int isa_scan_text(const char *label, const char *p, size_t n,
		  enum isa_kind kind, struct isa_file_result *out,
		  struct buf *err)
{
	struct isa_sniff sn;
	int ret;

	if (kind == ISA_NONE) {
		isa_sniff(p, n, &sn);
		if (sn.input != ISA_IN_TEXT) {
			buf_addf(err, "'%s' is not AMDGCN, PTX or SASS text", label);
			return ISA_ERR_INPUT;
		}
		kind = sn.kind;
	}
	ret = isa_scan_raw(p, n, kind, out, err);
	if (!ret)
		isa_file_finish(out);
	return ret;
}

/* `path` with its last extension replaced by `ext` (".json"). */
static char *sibling(const char *path, const char *ext)
{
	const char *base = path_base(path), *dot = strrchr(base, '.');
	size_t n = dot && dot != base ? (size_t)(dot - path) : strlen(path);

	return xstrfmt("%.*s%s", (int)n, path, ext);
}

static void apply_triton_json(struct isa_file_result *f, struct isa_kernel *k,
			      const json_t *j)
{
	const json_t *target = json_object_get(j, "target");
	enum isa_res shared = f->isa == ISA_AMDGCN ? ISA_RES_LDS_BYTES :
			      ISA_RES_SHARED_BYTES;

	if (json_has(j, "num_warps"))
		isa_res_set(k, ISA_RES_NUM_WARPS, json_int(j, "num_warps", 0),
			    ISA_SRC_TRITON_JSON);
	if (json_has(j, "num_stages"))
		isa_res_set(k, ISA_RES_NUM_STAGES, json_int(j, "num_stages", 0),
			    ISA_SRC_TRITON_JSON);
	if (json_has(j, "shared"))
		isa_res_set(k, shared, json_int(j, "shared", 0), ISA_SRC_TRITON_JSON);
	if (!k->arch && target) {
		const json_t *arch = json_object_get(target, "arch");
		struct buf name = BUF_INIT;

		if (json_is_string(arch))
			k->arch = xstrdup(json_string_value(arch));
		else if (json_is_integer(arch))
			target_cuda_arch((long long)json_integer_value(arch), &name);
		if (name.len)
			k->arch = buf_detach(&name, NULL);
		buf_release(&name);
	}
}

/* Triton writes <name>.json (num_warps, shared, target) beside the asm. */
static void triton_json(struct isa_file_result *f, const char *path)
{
	char *jpath = sibling(path, ".json");
	struct buf err = BUF_INIT;
	json_t *j;
	const char *name;
	size_t i;
	int used = 0;

	if (!strcmp(jpath, path) || !is_file(jpath) ||
	    !(j = json_load_path(jpath, &err))) {
		free(jpath);
		buf_release(&err);
		return;
	}
	name = json_str(j, "name");
	for (i = 0; name && i < f->kernels_nr; i++)
		if (!strcmp(f->kernels[i]->name, name)) {
			apply_triton_json(f, f->kernels[i], j);
			used = 1;
		}
	if (used)
		isa_note(f, "Triton metadata (num_warps, shared) from '%s'", jpath);
	json_decref(j);
	free(jpath);
	buf_release(&err);
}

/* A PTX file's registers come from the cubin ptxas made of it. */
static void ptx_registers(struct isa_file_result *f, const char *path,
			  const struct isa_options *opts)
{
	static const enum isa_res rs[] = {
		ISA_RES_REGISTERS, ISA_RES_STACK_BYTES, ISA_RES_LOCAL_BYTES,
		ISA_RES_SHARED_BYTES,
	};
	char *cubin = sibling(path, ".cubin");
	struct isa_file_result r;
	struct buf err = BUF_INIT;
	size_t i, j, x;

	if (!is_file(cubin) || opts->no_tools) {
		free(cubin);
		return;
	}
	isa_file_init(&r, cubin);
	if (isa_res_usage(cubin, opts, &r, &err) < 0) {
		isa_note(f, "registers unknown: %s", err.buf);
	} else {
		for (i = 0; i < f->kernels_nr; i++)
			for (j = 0; j < r.kernels_nr; j++) {
				if (strcmp(f->kernels[i]->name, r.kernels[j]->name))
					continue;
				for (x = 0; x < sizeof(rs) / sizeof(rs[0]); x++)
					if (isa_res_known(r.kernels[j], rs[x]))
						isa_res_set(f->kernels[i], rs[x],
							    r.kernels[j]->res[rs[x]].value,
							    ISA_SRC_RES_USAGE);
			}
		isa_note(f, "registers from cuobjdump -res-usage of '%s'", cubin);
	}
	isa_file_release(&r);
	buf_release(&err);
	free(cubin);
}

static void push_file(struct isa_result *res, struct isa_file_result *f)
{
	ALLOC_GROW(res->files, res->files_nr + 1, res->files_alloc);
	res->files[res->files_nr++] = f;
}

static void push_skip(struct isa_result *res, const char *path,
		      const char *kind, const char *reason)
{
	struct isa_skip *s;

	ALLOC_GROW(res->skipped, res->skipped_nr + 1, res->skipped_alloc);
	s = &res->skipped[res->skipped_nr++];
	s->path = xstrdup(path);
	s->kind = kind;
	s->reason = xstrdup(reason);
}

/* A failure: an error for a named file, a skip inside a directory. */
static int fail(struct isa_result *res, const char *path, const char *kind,
		struct buf *why, int ret, int in_dir, struct buf *err)
{
	if (in_dir) {
		push_skip(res, path, kind, why->buf);
		return 0;
	}
	buf_add(err, why->buf, why->len);
	return ret;
}

/* Text an ISA scanner reads: check it, scan it, add what lies beside it. */
static int scan_text_file(const char *path, const struct mapped_file *m,
			  const struct isa_sniff *sn, const struct isa_options *opts,
			  struct isa_result *res, int in_dir, struct buf *err)
{
	struct buf why = BUF_INIT;
	struct isa_file_result *f;
	int ret;

	if (text_input_check(path, m->data, m->len, &why) < 0) {
		ret = fail(res, path, "error", &why, ISA_ERR_INPUT, in_dir, err);
		buf_release(&why);
		return ret;
	}
	f = xmalloc(sizeof(*f));
	isa_file_init(f, path);
	ret = isa_scan_raw(m->data, m->len, sn->kind, f, &why);
	if (ret < 0) {
		isa_file_release(f);
		free(f);
		ret = fail(res, path, "error", &why, ret, in_dir, err);
		buf_release(&why);
		return ret;
	}
	if (!opts->no_siblings) {
		triton_json(f, path);
		if (f->isa == ISA_PTX)
			ptx_registers(f, path, opts);
	}
	isa_file_finish(f);
	push_file(res, f);
	buf_release(&why);
	return 0;
}

static int scan_binary_file(const char *path, const struct isa_sniff *sn,
			    const struct isa_options *opts,
			    struct isa_result *res, int in_dir, struct buf *err)
{
	struct buf why = BUF_INIT;
	struct isa_file_result *f;
	char *text = sibling(path, ".amdgcn");
	int ret = 0;

	if (in_dir && sn->input == ISA_IN_AMDGPU && is_file(text)) {
		buf_addf(&why, "'%s' beside it is scanned instead", path_base(text));
		push_skip(res, path, "duplicate", why.buf);
		goto out;
	}
	f = xmalloc(sizeof(*f));
	isa_file_init(f, path);
	ret = isa_disassemble(path, sn, opts, f, &why);
	if (ret < 0) {
		isa_file_release(f);
		free(f);
		ret = fail(res, path, ret == ISA_ERR_TOOL ? "tool" : "error", &why,
			   ret, in_dir, err);
		goto out;
	}
	if (!opts->no_siblings)
		triton_json(f, path);
	isa_file_finish(f);
	push_file(res, f);
out:
	free(text);
	buf_release(&why);
	return ret;
}

static int scan_file(const char *path, const struct isa_options *opts,
		     struct isa_result *res, int in_dir, struct buf *err)
{
	struct mapped_file m;
	struct isa_sniff sn;
	struct buf why = BUF_INIT;
	int ret = 0;

	if (file_map(path, 0, &m, &why) < 0) {
		ret = fail(res, path, "error", &why, ISA_ERR_INPUT, in_dir, err);
		buf_release(&why);
		return ret;
	}
	isa_sniff(m.data, m.len, &sn);
	if (!m.len) {
		buf_addf(&why, "'%s' is empty", path);
		ret = fail(res, path, "error", &why, ISA_ERR_INPUT, in_dir, err);
	} else if (sn.input == ISA_IN_TEXT) {
		ret = scan_text_file(path, &m, &sn, opts, res, in_dir, err);
	} else if (sn.input == ISA_IN_CUBIN || sn.input == ISA_IN_AMDGPU) {
		ret = scan_binary_file(path, &sn, opts, res, in_dir, err);
	} else if (sn.input == ISA_IN_SKIP) {
		buf_addf(&why, "'%s': %s, not assembly", path, sn.what);
		push_skip(res, path, sn.skip_kind, why.buf);
	} else {
		if (sn.input == ISA_IN_BINARY)
			buf_addf(&why, "'%s' is binary, not AMDGCN, PTX or SASS text "
				 "(NUL byte at offset %zu)", path, sn.nul_at);
		else if (sn.input == ISA_IN_ELF)
			buf_addf(&why, "'%s' is an ELF file for a CPU (machine %u), not "
				 "a GPU code object", path, sn.machine);
		else
			buf_addf(&why, "'%s' is not AMDGCN, PTX or SASS text (no "
				 "directive or instruction of theirs in its first %d KiB)",
				 path, ISA_PROBE_BYTES / 1024);
		ret = fail(res, path, sn.input == ISA_IN_UNKNOWN ? "unknown" : "binary",
			   &why, ISA_ERR_INPUT, in_dir, err);
	}
	file_unmap(&m);
	buf_release(&why);
	return ret;
}

int isa_scan_path(const char *path, const struct isa_options *opts,
		  struct isa_result *res, struct buf *err)
{
	struct strlist files = STRLIST_INIT;
	size_t i;
	int ret = 0;

	if (!is_dir(path))
		return scan_file(path, opts, res, 0, err);
	if (walk_files(path, &files, err) < 0) {
		walk_release(&files);
		return ISA_ERR_INPUT;
	}
	for (i = 0; i < files.nr && !ret; i++)
		ret = scan_file(files.v[i], opts, res, 1, err);
	walk_release(&files);
	return ret;
}

static int kernel_matches(const struct isa_kernel *k, const char *name,
			  const char *arch)
{
	return !strcmp(k->name, name) &&
	       (!arch || (k->arch && !strcmp(k->arch, arch)));
}

size_t isa_result_count(const struct isa_result *res, const char *name,
			const char *arch)
{
	size_t i, j, n = 0;

	for (i = 0; i < res->files_nr; i++)
		for (j = 0; j < res->files[i]->kernels_nr; j++)
			n += kernel_matches(res->files[i]->kernels[j], name, arch);
	return n;
}

void isa_result_keep(struct isa_result *res, const char *name, const char *arch)
{
	size_t i, j, kept_files = 0;

	for (i = 0; i < res->files_nr; i++) {
		struct isa_file_result *f = res->files[i];
		size_t kept = 0;

		for (j = 0; j < f->kernels_nr; j++) {
			if (kernel_matches(f->kernels[j], name, arch))
				f->kernels[kept++] = f->kernels[j];
			else
				isa_kernel_free(f->kernels[j]);
		}
		f->kernels_nr = kept;
		if (kept) {
			res->files[kept_files++] = f;
		} else {
			isa_file_release(f);
			free(f);
		}
	}
	res->files_nr = kept_files;
}

void isa_result_release(struct isa_result *res)
{
	size_t i;

	for (i = 0; i < res->files_nr; i++) {
		isa_file_release(res->files[i]);
		free(res->files[i]);
	}
	free(res->files);
	for (i = 0; i < res->skipped_nr; i++) {
		free(res->skipped[i].path);
		free(res->skipped[i].reason);
	}
	free(res->skipped);
	memset(res, 0, sizeof(*res));
}
