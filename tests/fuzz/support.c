/*
 * Helpers the fuzz targets share (fuzz.h): a sink for writers, the common
 * tail of every summarize target, and a private scratch directory.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "isa/isa.h"
#include "parse/autotune.h"
#include "parse/logscan.h"
#include "report/autotune_text.h"
#include "report/isa_json.h"
#include "report/isa_text.h"
#include "report/summarize_json.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/opts.h"
#include "util/textout.h"
#include "util/walk.h"
#include "banned.h"

static FILE *sink;

static void close_sink(void)
{
	fclose(sink);
}

FILE *fuzz_sink(void)
{
	int fd;

	/* A text stream, as tko's own stdout and outputs are: the escaping is fuzzed too. */
	if (!sink) {
		if ((fd = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0 || !(sink = text_fdopen(fd)))
			abort();
		atexit(close_sink);	/* its buffer is ours: LeakSanitizer would say so */
	}
	return sink;
}

/*
 * Opened, and written to once, before the first input: glibc allocates the
 * FILE with its own malloc, which LeakSanitizer does not see, so the
 * stream's state looks unreachable to libFuzzer's leak check after an
 * input that allocated for it. Its scratch buffer is allocated by the first
 * write; left to an input, that one allocation more than it freed made
 * libFuzzer report the stream as a leak (script/test, 2026-12-04).
 */
__attribute__((constructor)) static void open_sink(void)
{
	fputc('\n', fuzz_sink());
	fflush(fuzz_sink());
}

void fuzz_autotune_done(struct autotune_set *set)
{
	json_t *j = autotune_set_to_json(set, NULL);

	json_decref(j);
	autotune_set_write_json(fuzz_sink(), set, NULL);
	autotune_text_print(fuzz_sink(), set, NULL, 0);
	if (set->nr)
		autotune_text_print(fuzz_sink(), set, set->kernels[0], 1);
	autotune_set_release(set);
}

void fuzz_log(const struct log_reader *const *rs, size_t nr, const uint8_t *data, size_t size)
{
	struct autotune_set set;
	struct log_ctx ctx = { NULL, 0, NULL, NULL };

	autotune_set_init(&set);
	ctx.set = &set;
	ctx.file = at_input_add(&set, "fuzz.log");
	logscan_run_with(&ctx, (const char *)data, size, rs, nr);
	fuzz_autotune_done(&set);
}

static char *tmpdir;

/* Removes what the targets wrote: files, then the folders they were in. */
static void remove_tmpdir(void)
{
	struct strlist files = STRLIST_INIT;
	struct buf err = BUF_INIT;
	size_t i, top = strlen(tmpdir);

	if (!walk_files(tmpdir, &files, &err))
		for (i = 0; i < files.nr; i++) {
			char *dir = xstrdup(files.v[i]), *slash;

			unlink(dir);
			while ((slash = strrchr(dir, '/')) && (size_t)(slash - dir) > top) {
				*slash = '\0';
				rmdir(dir);
			}
			free(dir);
		}
	rmdir(tmpdir);
	walk_release(&files);
	buf_release(&err);
	free(tmpdir);
}

const char *fuzz_tmpdir(void)
{
	if (!tmpdir) {
		const char *t = getenv("TMPDIR");

		tmpdir = xstrfmt("%s/tko-fuzz.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(tmpdir))
			abort();
		atexit(remove_tmpdir);
	}
	return tmpdir;
}

void fuzz_isa(enum isa_kind kind, const uint8_t *data, size_t size)
{
	struct isa_result res = ISA_RESULT_INIT;
	struct isa_file_result *f = xcalloc(1, sizeof(*f));
	struct buf err = BUF_INIT;

	isa_file_init(f, "fuzz.s");
	if (isa_scan_text("fuzz.s", (const char *)data, size, kind, f, &err) < 0) {
		isa_file_release(f);
		free(f);
	} else {
		json_t *j;

		ALLOC_GROW(res.files, res.files_nr + 1, res.files_alloc);
		res.files[res.files_nr++] = f;
		j = isa_result_to_json(&res);
		json_decref(j);
		isa_render_text(fuzz_sink(), &res, 1);
		isa_render_md(fuzz_sink(), &res);
	}
	isa_result_release(&res);
	buf_release(&err);
}
