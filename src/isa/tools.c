/*
 * Disassembling .cubin and .hsaco files with external tools (see
 * tools.h). Each tool's stdout is collected into one text, which the
 * SASS or AMDGCN scanner then reads as if it were a file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isa/result.h"
#include "isa/scan.h"
#include "isa/tools.h"
#include "target/target.h"
#include "util/cleanup.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/spawn.h"
#include "util/walk.h"
#include "banned.h"

/*
 * Runs argv; returns its exit status with stdout in `out`, or -1 + err
 * when it could not start, ran past the time limit or printed past the
 * cap on a child's output (util/spawn.h): each said in err, so a hanging
 * disassembler is not reported as one that cannot read the file.
 */
static int run_tool(const char *const *argv, const char *dir,
		    const struct isa_options *opts, struct buf *out,
		    struct buf *errtext, struct buf *err)
{
	struct child c = CHILD_INIT;
	int status;

	c.argv = argv;
	c.dir = dir;
	c.capture_out = 1;
	c.capture_err = 1;
	c.null_in = 1;
	c.timeout_s = opts->tool_timeout_s;
	if (child_run(&c, err) < 0) {
		child_release(&c);
		return -1;
	}
	if (c.timed_out || c.overflowed) {
		if (c.timed_out)
			buf_addf(err, "'%s' ran past %.0f seconds and was stopped", argv[0],
				 opts->tool_timeout_s);
		else
			buf_addf(err, "'%s' printed more than %zu MiB and was stopped", argv[0],
				 CHILD_OUT_MAX >> 20);
		child_release(&c);
		return -1;
	}
	status = c.not_found ? 127 : c.exit_status;
	buf_add(out, c.out.buf, c.out.len);
	if (errtext)
		buf_add(errtext, c.err.buf, c.err.len);
	child_release(&c);
	return status;
}

/* The first line of a tool's stderr, for messages. */
static void first_line(struct buf *dst, const struct buf *src)
{
	const char *nl = memchr(src->buf, '\n', src->len);
	size_t n = nl ? (size_t)(nl - src->buf) : src->len;

	if (n > 200)
		n = 200;
	buf_add(dst, src->buf, n);
}

/* PATH first, then the variable Triton uses for its bundled copy. */
static char *nv_tool(const char *name, const char *env)
{
	char *p = find_in_path(name);
	const char *v;

	if (p)
		return p;
	v = getenv(env);
	return v && *v && access(v, X_OK) == 0 ? xstrdup(v) : NULL;
}

static int cubin_text(const char *path, const struct isa_sniff *sn,
		      const struct isa_options *opts, struct buf *text,
		      struct isa_file_result *out, struct buf *err)
{
	char *nvd = sn->fatbin ? NULL : nv_tool("nvdisasm", "TRITON_NVDISASM_PATH");
	char *cuo = nv_tool("cuobjdump", "TRITON_CUOBJDUMP_PATH");
	struct buf etext = BUF_INIT, why = BUF_INIT;
	int ret = 0, done = 0;

	if (!nvd && !cuo) {
		buf_addf(err, "cannot disassemble '%s': neither nvdisasm nor cuobjdump "
			 "is on PATH (install the CUDA toolkit, or set "
			 "TRITON_CUOBJDUMP_PATH as Triton does)", path);
		return ISA_ERR_TOOL;
	}
	if (nvd) {
		const char *argv[] = { nvd, "-g", "-c", path, NULL };

		ret = run_tool(argv, NULL, opts, text, &etext, &why);
		done = ret == 0;
		if (done)
			out->via = xstrdup("nvdisasm -g -c");
	}
	if (!done && cuo && ret >= 0) {
		const char *argv[] = { cuo, "-sass", path, NULL };

		buf_reset(text);
		buf_reset(&etext);
		ret = run_tool(argv, NULL, opts, text, &etext, &why);
		done = ret == 0;
		if (done) {
			out->via = xstrdup("cuobjdump -sass");
			isa_note(out, "no source lines: cuobjdump -sass has no line "
				 "info (nvdisasm -g has)");
		}
	}
	if (!done && ret >= 0) {
		buf_addf(err, "cannot disassemble '%s': %s exited with %d: ", path,
			 nvd ? "nvdisasm" : "cuobjdump", ret);
		first_line(err, &etext);
	} else if (!done) {
		buf_addf(err, "cannot disassemble '%s': %s", path, why.buf);
	}
	if (done && cuo) {
		const char *argv[] = { cuo, "-res-usage", path, NULL };

		buf_addch(text, '\n');
		if (run_tool(argv, NULL, opts, text, NULL, err) != 0)
			buf_reset(err);
	} else if (done) {
		isa_note(out, "registers unknown: no cuobjdump for -res-usage");
	}
	free(nvd);
	free(cuo);
	buf_release(&etext);
	buf_release(&why);
	return done ? 0 : ISA_ERR_INPUT;
}

int isa_res_usage(const char *cubin, const struct isa_options *opts,
		  struct isa_file_result *out, struct buf *err)
{
	char *cuo = nv_tool("cuobjdump", "TRITON_CUOBJDUMP_PATH");
	const char *argv[] = { cuo, "-res-usage", cubin, NULL };
	struct buf text = BUF_INIT;
	int ret;

	if (!cuo) {
		buf_addf(err, "no cuobjdump on PATH to read '%s'", cubin);
		return ISA_ERR_TOOL;
	}
	ret = run_tool(argv, NULL, opts, &text, NULL, err);
	if (ret == 0)
		ret = isa_scan_raw(text.buf, text.len, ISA_SASS, out, err);
	else if (ret > 0)
		buf_addf(err, "cuobjdump -res-usage failed on '%s'", cubin);
	free(cuo);
	buf_release(&text);
	return ret == 0 ? 0 : ISA_ERR_INPUT;
}

/* llvm-objdump candidates, newest first; TKO_LLVM_OBJDUMP wins. */
static void objdump_candidates(struct strlist *out)
{
	static const char *const dirs[] = { "/opt/rocm/llvm/bin", "/opt/dtk/llvm/bin" };
	const char *env = getenv("TKO_LLVM_OBJDUMP"), *rocm = getenv("ROCM_PATH");
	char name[32];
	size_t i;
	int v;

	if (env && *env && access(env, X_OK) == 0)
		strlist_push(out, xstrdup(env));
	if (rocm && *rocm) {
		char *p = xstrfmt("%s/llvm/bin/llvm-objdump", rocm);

		if (access(p, X_OK) == 0)
			strlist_push(out, p);
		else
			free(p);
	}
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char *p = xstrfmt("%s/llvm-objdump", dirs[i]);

		if (access(p, X_OK) == 0)
			strlist_push(out, p);
		else
			free(p);
	}
	for (v = 22; v >= 13; v--) {
		char *p;

		snprintf(name, sizeof(name), "llvm-objdump-%d", v);
		if ((p = find_in_path(name)))
			strlist_push(out, p);
		if (v == 15 && (p = find_in_path("llvm-objdump")))
			strlist_push(out, p);
	}
}

/* "LLVM version 14.0.6" from `tool --version`, or "" */
static void tool_version(const char *tool, const struct isa_options *opts,
			 struct buf *v)
{
	const char *argv[] = { tool, "--version", NULL };
	struct buf out = BUF_INIT, err = BUF_INIT;
	const char *p, *e;

	if (run_tool(argv, NULL, opts, &out, NULL, &err) == 0 &&
	    (p = strstr(out.buf, "LLVM version "))) {
		p += strlen("LLVM version ");
		for (e = p; *e && *e != '\n' && *e != ' '; e++)
			;
		buf_add(v, p, (size_t)(e - p));
	}
	buf_release(&out);
	buf_release(&err);
}

/* llvm-readelf beside an llvm-objdump ("llvm-objdump-14" -> "llvm-readelf-14"). */
static char *readelf_for(const char *objdump)
{
	const char *base = path_base(objdump), *hit = strstr(base, "objdump");
	char *p;

	if (!hit)
		return NULL;
	p = xstrfmt("%.*sreadelf%s", (int)(hit - objdump), objdump, hit + 7);
	if (access(p, X_OK) == 0)
		return p;
	free(p);
	return NULL;
}

/*
 * 0 when `tool` disassembled the file; -1 when it could not (another
 * may); -2 with err when it hung or flooded, which the next would too.
 */
static int try_objdump(const char *tool, const char *path,
		       const struct isa_options *opts, struct buf *text, struct buf *failure)
{
	const char *argv[] = { tool, "-d", path, NULL };
	struct buf etext = BUF_INIT, err = BUF_INIT;
	int ret = run_tool(argv, NULL, opts, text, &etext, &err);
	char *readelf;

	if (ret < 0 && err.len) {
		buf_addf(failure, "cannot disassemble '%s': %s", path, err.buf);
		buf_reset(text);
		buf_release(&etext);
		buf_release(&err);
		return -2;
	}
	if (ret == 0 && strstr(text->buf, "Disassembly of section") &&
	    !strstr(etext.buf, "not a recognized processor")) {
		buf_release(&etext);
		buf_release(&err);
		if ((readelf = readelf_for(tool))) {
			const char *rargv[] = { readelf, "--notes", path, NULL };

			buf_addch(text, '\n');
			run_tool(rargv, NULL, opts, text, NULL, &err);
			free(readelf);
		}
		buf_release(&err);
		return 0;
	}
	buf_reset(text);
	buf_release(&etext);
	buf_release(&err);
	return -1;
}

static int objdump_text(const char *path, const struct isa_sniff *sn,
			const struct isa_options *opts, struct buf *text,
			struct isa_file_result *out, struct buf *err)
{
	struct strlist tools = STRLIST_INIT;
	struct buf ver = BUF_INIT;
	const char *arch = sn->arch[0] ? sn->arch : "its processor";
	size_t i;
	int ret = ISA_ERR_TOOL;

	objdump_candidates(&tools);
	for (i = 0; i < tools.nr; i++) {
		int r = try_objdump(tools.v[i], path, opts, text, err);

		if (r == 0) {
			out->via = xstrfmt("%s -d", path_base(tools.v[i]));
			ret = 0;
			break;
		}
		if (r == -2) {
			ret = ISA_ERR_INPUT;
			break;
		}
	}
	if (!tools.nr) {
		buf_addf(err, "cannot disassemble '%s': no llvm-objdump on PATH (install "
			 "llvm, or ROCm's /opt/rocm/llvm/bin; or set TKO_LLVM_OBJDUMP)", path);
	} else if (ret == ISA_ERR_TOOL) {
		tool_version(tools.v[0], opts, &ver);
		buf_addf(err, "cannot disassemble '%s' (%s): %s%s%s cannot disassemble "
			 "%s; use llvm-objdump from LLVM 17 or newer or from ROCm "
			 "(TKO_LLVM_OBJDUMP=...), or scan the .amdgcn Triton wrote "
			 "beside it", path, sn->arch[0] ? sn->arch : "arch unknown",
			 path_base(tools.v[0]), ver.len ? " " : "", ver.buf, arch);
	}
	walk_release(&tools);
	buf_release(&ver);
	return ret;
}

/* Removes the files a tool wrote into a private temporary directory. */
static void remove_tree(const char *dir)
{
	struct strlist files = STRLIST_INIT;
	struct buf err = BUF_INIT;
	size_t i;

	if (walk_files(dir, &files, &err) == 0)
		for (i = 0; i < files.nr; i++)
			unlink(files.v[i]);
	walk_release(&files);
	buf_release(&err);
	rmdir(dir);
}

/*
 * dccobjdump writes its ISA into side files ("*.ISA") in the working
 * directory, so it runs in a fresh temporary directory and everything it
 * printed or wrote there becomes the text. -1 when it could not (llvm-objdump
 * may), -2 with a line in `failure` when it hung or flooded.
 */
static int dcc_text(const char *tool, const char *path,
		    const struct isa_options *opts, struct buf *text,
		    struct isa_file_result *out, struct buf *failure)
{
	const char *tmpdir = getenv("TMPDIR");
	char *dir = xstrfmt("%s/tko-dcc.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	char *abs = realpath(path, NULL);
	char *in = NULL, *outdir = NULL;
	struct strlist files = STRLIST_INIT;
	struct buf err = BUF_INIT;
	size_t i;
	int ret = -1;

	if (abs && cleanup_mkdtemp(dir)) {
		const char *argv[] = { tool, NULL, "--show-sass", "--show-resource-usage",
				       NULL, NULL };

		argv[1] = in = xstrfmt("--inputs=%s", abs);
		argv[4] = outdir = xstrfmt("--output=%s", dir);
		ret = run_tool(argv, dir, opts, text, NULL, &err);
		if (ret < 0 && err.len) {
			buf_addf(failure, "cannot disassemble '%s': %s", path, err.buf);
			ret = -2;
		}
		if (ret == 0 && walk_files(dir, &files, &err) == 0)
			for (i = 0; i < files.nr; i++) {
				buf_addch(text, '\n');
				if (file_read(files.v[i], 0, text, &err) < 0)
					buf_reset(&err);
			}
		walk_release(&files);
		remove_tree(dir);
		cleanup_drop_path(dir);
		if (ret == 0)
			out->via = xstrdup("dccobjdump --show-sass --show-resource-usage");
	}
	free(dir);
	free(abs);
	free(in);
	free(outdir);
	buf_release(&err);
	if (ret == 0 && text->len)
		return 0;
	buf_reset(text);
	return ret == -2 ? -2 : -1;
}

int isa_disassemble(const char *path, const struct isa_sniff *sn,
		    const struct isa_options *opts, struct isa_file_result *out,
		    struct buf *err)
{
	struct buf text = BUF_INIT;
	int ret;

	if (opts->no_tools) {
		buf_addf(err, "'%s' is a %s and disassemblers are off", path, sn->what);
		return ISA_ERR_TOOL;
	}
	if (sn->input == ISA_IN_CUBIN) {
		ret = cubin_text(path, sn, opts, &text, out, err);
		if (!ret)
			ret = isa_scan_raw(text.buf, text.len, ISA_SASS, out, err);
	} else {
		char *dcc = (!sn->arch[0] || target_is_dcu(sn->arch)) ?
			    find_in_path("dccobjdump") : NULL;
		int d = dcc ? dcc_text(dcc, path, opts, &text, out, err) : -1;

		ret = d == 0 ? 0 : d == -2 ? ISA_ERR_INPUT :
		      objdump_text(path, sn, opts, &text, out, err);
		free(dcc);
		if (!ret)
			ret = isa_scan_raw(text.buf, text.len, ISA_AMDGCN, out, err);
	}
	buf_release(&text);
	return ret;
}
