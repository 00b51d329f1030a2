/* Gathering the "tko env" document (see probe.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "env/gpu.h"
#include "env/hcu.h"
#include "env/probe.h"
#include "env/toolver.h"
#include "json/jsonio.h"
#include "py/pyenv.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/opts.h"
#include "util/spawn.h"
#include "version.h"
#include "banned.h"

extern char **environ;

/* The GPU tools tko reports, how each prints its version, and the word before it. */
static const struct tool_spec {
	const char *name;
	const char *arg;	/* the argument that prints a version, or NULL */
	const char *hint;	/* what precedes the version on its line, or NULL */
	const char *alt;	/* another argument to try when `arg` gives no version, or NULL */
} tool_specs[] = {
	{ "hipcc", "--version", "HIP version", NULL },
	{ "hipprof", "--version", NULL, "-h" },
	{ "dccobjdump", "--version", NULL, NULL },
	{ "rocminfo", NULL, NULL, NULL },
	{ "hy-smi", "--showdriverversion", "Driver Version", NULL },
	{ "rocm-smi", "--showdriverversion", "Driver version", NULL },
	/* DTK's compiler, its AI compiler and profilers, as the brief's check_env probes them */
	{ "dcc", "--version", "dcc version", NULL },
	{ "aicc", "--version", NULL, NULL },
	{ "xprof", "--help", NULL, NULL },
	{ "xcompute", "--help", NULL, NULL },
	{ "nvcc", "--version", "release", NULL },
	{ "ncu", "--version", "Version", NULL },
	{ "cuobjdump", "--version", "release", NULL },
	{ "nvdisasm", "--version", "release", NULL },
	{ "nvidia-smi", "--version", "DRIVER version", NULL },
};

/* Environment variables that change what Triton and Inductor generate or where they run. */
static const char *const flag_prefixes[] = {
	"TRITON_", "TORCHINDUCTOR_", "TORCH_LOGS", "TORCH_COMPILE_", "AMDGCN_", "HIP_",
	"HSA_", "ROCR_", "ROCM_PATH", "DTK_", "CUDA_VISIBLE_DEVICES", "CUDA_LAUNCH_BLOCKING",
	"CUDA_HOME", "CUDA_PATH", "PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_HIP_ALLOC_CONF",
	"OPTIMIZE_EPILOGUE", "PMD_PATH", "NVIDIA_TF32_OVERRIDE", "MLIR_ENABLE_DUMP",
	"LLVM_IR_ENABLE_DUMP", "ENABLE_MMA_V3", "DISABLE_LLVM_OPT", NULL,
};

/* Folders searched after PATH (hy-smi lives in /opt/hyhal/bin, off PATH). */
static void tool_dirs(struct strlist *out, struct buf *store)
{
	const char *env[] = { "ROCM_PATH", "DTK_PATH", "CUDA_HOME", "CUDA_PATH", NULL };
	const char *fixed[] = { "/opt/dtk/bin", "/opt/hyhal/bin", "/opt/rocm/bin",
				"/usr/local/cuda/bin", NULL };
	size_t i;

	buf_reset(store);
	for (i = 0; env[i]; i++) {
		const char *v = getenv(env[i]);

		if (v && *v)
			buf_addf(store, "%s/bin%c", v, '\0');
	}
	for (i = 0; i < store->len; i += strlen(store->buf + i) + 1)
		strlist_push(out, store->buf + i);
	for (i = 0; fixed[i]; i++)
		strlist_push(out, fixed[i]);
}

char *env_find_tool(const char *name)
{
	struct strlist dirs = STRLIST_INIT;
	struct buf store = BUF_INIT;
	char *found = find_in_path(name);
	size_t i;

	if (!found) {
		tool_dirs(&dirs, &store);
		for (i = 0; i < dirs.nr && !found; i++) {
			char *p = path_join(dirs.v[i], name);

			if (is_file(p) && access(p, X_OK) == 0)
				found = p;
			else
				free(p);
		}
	}
	strlist_release(&dirs);
	buf_release(&store);
	return found;
}

int env_run_tool(const char *const *argv, double timeout_s, struct buf *out)
{
	struct child c = CHILD_INIT;
	struct buf err = BUF_INIT;
	int ok;

	c.argv = argv;
	c.capture_out = c.capture_err = 1;
	c.null_in = 1;
	c.timeout_s = timeout_s;
	ok = child_run(&c, &err) == 0 && !c.not_found && !c.timed_out && !c.overflowed &&
	     c.exit_status == 0;
	buf_add(out, c.out.buf, c.out.len);
	if (!c.out.len)
		buf_add(out, c.err.buf, c.err.len);
	child_release(&c);
	buf_release(&err);
	return ok ? 0 : -1;
}

static void tool_entry(struct env_tool *o, const struct tool_spec *t, double timeout_s)
{
	char *path = env_find_tool(t->name);
	struct tool_version v;

	o->name = xstrdup(t->name);
	o->path = env_utf8_dup(path);
	if (path && t->arg) {
		const char *argv[] = { path, t->arg, NULL };
		struct buf out = BUF_INIT;
		int found;

		env_run_tool(argv, timeout_s, &out);
		found = !tool_version_parse(out.buf, out.len, t->hint, &v);
		if (!found && t->alt) {
			argv[1] = t->alt;
			buf_reset(&out);
			env_run_tool(argv, timeout_s, &out);
			found = !tool_version_parse(out.buf, out.len, t->hint, &v);
		}
		if (found)
			o->version = env_utf8_dup(v.version);
		if (v.line[0]) {
			char *line = env_utf8_dup(v.line);

			o->version_line = line ? json_string(line) : json_null();
			free(line);
		}
		buf_release(&out);
	}
	free(path);
}

static void tools_section(struct env_doc *doc, double timeout_s)
{
	size_t i;

	for (i = 0; i < sizeof(tool_specs) / sizeof(tool_specs[0]); i++)
		tool_entry(env_doc_add_tool(doc), &tool_specs[i], timeout_s);
}

static int is_flag(const char *entry)
{
	size_t i;

	for (i = 0; flag_prefixes[i]; i++)
		if (!strncmp(entry, flag_prefixes[i], strlen(flag_prefixes[i])))
			return 1;
	return 0;
}

void env_flags(struct env_doc *doc)
{
	struct strlist names = STRLIST_INIT;
	char **e;
	size_t i;

	for (e = environ; *e; e++)
		if (is_flag(*e) && strchr(*e, '='))
			strlist_push(&names, *e);
	strlist_sort(&names);
	for (i = 0; i < names.nr; i++) {
		const char *eq = strchr(names.v[i], '=');
		char *key = xstrndup(names.v[i], (size_t)(eq - names.v[i]));
		size_t off;

		if (utf8_check(key, strlen(key), &off)) {	/* no JSON key can hold it */
			free(key);
			continue;
		}
		doc->env = rf_grow(doc->env, doc->nenv, sizeof(*doc->env));
		doc->env[doc->nenv].key = key;
		doc->env[doc->nenv++].value = env_utf8_dup(eq + 1);
	}
	strlist_release(&names);
}

/* The first line of `dir/file`, or NULL. */
static char *first_line(const char *dir, const char *file)
{
	char *path = xstrfmt("%s/%s", dir, file);
	struct buf b = BUF_INIT, err = BUF_INIT;
	char *nl, *out = NULL;

	if (is_file(path) && !file_read(path, 4096, &b, &err)) {
		nl = memchr(b.buf, '\n', b.len);
		if (nl)
			buf_setlen(&b, (size_t)(nl - b.buf));
		buf_rtrim(&b);
		if (b.len)
			out = buf_detach(&b, NULL);
	}
	buf_release(&b);
	buf_release(&err);
	free(path);
	return out;
}

/* DTK (Hygon's toolkit: <dtk>/.dtk_version) and ROCm (<rocm>/.info/version). */
static void installs_section(struct env_doc *doc)
{
	const char *rocm_env = getenv("ROCM_PATH");
	const char *dtk_dirs[] = { rocm_env, getenv("DTK_PATH"), "/opt/dtk", NULL };
	const char *rocm_dirs[] = { rocm_env, "/opt/rocm", NULL };
	json_t *dtk = NULL, *rocm = NULL;
	size_t i;

	for (i = 0; i < 3 && !dtk; i++) {
		char *v = dtk_dirs[i] && *dtk_dirs[i] ? first_line(dtk_dirs[i], ".dtk_version") : NULL;

		if (v) {
			dtk = json_pack("{s:s, s:s}", "path", dtk_dirs[i], "version", v);
			free(v);
		}
	}
	for (i = 0; i < 2 && !rocm; i++) {
		char *v = rocm_dirs[i] && *rocm_dirs[i] ? first_line(rocm_dirs[i], ".info/version") : NULL;

		if (v) {
			rocm = json_pack("{s:s, s:s}", "path", rocm_dirs[i], "version", v);
			free(v);
		}
	}
	doc->dtk = dtk;
	doc->rocm = rocm;
}

static void note(struct env_doc *doc, const char *fmt, const char *arg)
{
	char *s = xstrfmt(fmt, arg);

	env_doc_note(doc, s);
	free(s);
}

/* The last non-empty line of a text, for one-line explanations. */
static char *last_line(const struct buf *b)
{
	size_t end = b->len, start;

	while (end && (b->buf[end - 1] == '\n' || b->buf[end - 1] == ' '))
		end--;
	start = end;
	while (start && b->buf[start - 1] != '\n')
		start--;
	return xstrndup(b->buf + start, end - start > 200 ? 200 : end - start);
}

/* Runs `python -m tko.probe`; returns its JSON, or NULL with a note. */
static json_t *python_probe(struct env_doc *doc, const struct env_opts *o)
{
	const char *python = pyenv_python();
	const char *args[] = { o->measure ? "--measure" : NULL, NULL };
	struct buf err = BUF_INIT, ignored = BUF_INIT;
	struct child c = CHILD_INIT;
	json_t *probe = NULL;

	if (pyenv_module_child(&c, "tko.probe", args, NULL, &err) < 0) {
		note(doc, "%s", err.buf);
		buf_release(&err);
		return NULL;
	}
	c.capture_out = c.capture_err = 1;
	c.null_in = 1;
	c.timeout_s = o->probe_timeout_s;
	if (child_run(&c, &err) < 0 || c.not_found) {
		note(doc, "no python: cannot run '%s' (set TKO_PYTHON)", python);
	} else if (c.timed_out) {
		note(doc, "the Python probe ('%s -m tko.probe') ran out of time", python);
	} else if (c.overflowed) {
		note(doc, "the Python probe ('%s -m tko.probe') printed more than 256 MiB and was stopped",
		     python);
	} else if (c.exit_status != 0 || !(probe = json_load_span("probe", c.out.buf, c.out.len, &ignored))) {
		char *why = last_line(&c.err);

		note(doc, "the Python probe failed: %s", *why ? why : "no output");
		free(why);
	}
	child_release(&c);
	buf_release(&err);
	buf_release(&ignored);
	return probe;
}

/* python, torch, triton from the probe; notes for what is missing. */
static void versions_section(struct env_doc *doc, json_t *probe)
{
	json_t *torch = probe ? json_object_get(probe, "torch") : NULL;
	json_t *triton = probe ? json_object_get(probe, "triton") : NULL;
	size_t i;
	json_t *err;

	doc->python = probe ? json_incref(json_object_get(probe, "python")) : NULL;
	doc->torch = torch && json_str(torch, "version") ? json_incref(torch) : NULL;
	doc->triton = triton && json_str(triton, "version") ? json_incref(triton) : NULL;
	if (torch && !json_str(torch, "version"))
		note(doc, "no torch: %s", json_str(torch, "error") ? json_str(torch, "error") : "not importable");
	if (triton && !json_str(triton, "version"))
		note(doc, "no triton: %s", json_str(triton, "error") ? json_str(triton, "error") : "not importable");
	json_array_foreach(probe ? json_object_get(probe, "errors") : NULL, i, err)
		if (json_is_string(err))
			note(doc, "probe: %s", json_string_value(err));
}

static json_t *host_section(void)
{
	struct utsname u;
	json_t *o = json_object();

	if (uname(&u) == 0) {
		json_set_str(o, "os", u.sysname);
		json_set_str(o, "release", u.release);
		json_set_str(o, "machine", u.machine);
	}
	json_set_int(o, "cpus", sysconf(_SC_NPROCESSORS_ONLN));
	return o;
}

/* The first line of s, at most 200 bytes (not cutting a UTF-8 character): a table cell's reason. */
static char *first_of(const char *s)
{
	size_t n = strcspn(s, "\r\n");

	if (n > 200)
		for (n = 200; n && ((unsigned char)s[n] & 0xC0) == 0x80; n--)
			;
	return xstrndup(s, n);
}

/* The first line after `what` of the probe's first error starting with `what`, or NULL. */
static char *probe_error(const json_t *probe, const char *what)
{
	const json_t *e;
	size_t i, n = strlen(what);

	json_array_foreach(json_object_get(probe, "errors"), i, e)
		if (json_is_string(e) && !strncmp(json_string_value(e), what, n))
			return first_of(json_string_value(e) + n);
	return NULL;
}

/* Why the probe measured no bandwidth, from what it said (a new string). */
static char *bandwidth_why(const json_t *probe)
{
	const json_t *torch = json_object_get(probe, "torch");
	char *why;

	if (!probe)
		return xstrdup("the Python probe gave no answer (see the notes)");
	if (!json_is_object(torch) || !json_str(torch, "version"))
		return xstrdup("no torch");
	if ((why = probe_error(probe, "bandwidth: ")))
		return why;
	if (json_array_size(json_object_get(probe, "devices")))
		return xstrdup("the probe measured nothing");
	if ((why = probe_error(probe, "devices: "))) {
		char *s = xstrfmt("no GPU: %s", why);

		free(why);
		return s;
	}
	return xstrdup("no GPU (torch sees none)");
}

/*
 * The probe's measurement; a malformed one counts as none. With
 * --measure and none, bandwidth_error and a note say why.
 */
static void bandwidth_section(struct env_doc *doc, const json_t *probe, int measure)
{
	const json_t *bw = json_object_get(probe, "bandwidth");
	struct buf err = BUF_INIT;
	char *why = NULL;

	if (json_is_object(bw) && env_bandwidth_read(&doc->bandwidth, bw, "bandwidth", &err) < 0) {
		char *line = first_of(err.buf);

		env_bandwidth_clear(&doc->bandwidth);
		why = xstrfmt("the probe's measurement is malformed: %s", line);
		free(line);
	}
	if (measure && !env_doc_has_bandwidth(doc)) {
		if (!why)
			why = bandwidth_why(probe);
		doc->bandwidth_error = env_utf8_dup(why);
		note(doc, "copy bandwidth not measured: %s", why);
	}
	free(why);
	buf_release(&err);
}

void env_probe_doc(const struct env_opts *o, struct env_doc *doc)
{
	json_t *probe;

	env_doc_init(doc);
	doc->tko_version = xstrdup(TKO_VERSION);
	doc->host = host_section();
	probe = python_probe(doc, o);
	versions_section(doc, probe);
	tools_section(doc, o->tool_timeout_s);
	env_gpus(doc, probe, o->tool_timeout_s);
	installs_section(doc);
	env_flags(doc);
	env_hcu(doc);
	bandwidth_section(doc, probe, o->measure);
	json_decref(probe);
}
