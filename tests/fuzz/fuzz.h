/*
 * The contract of every tests/fuzz/fuzz-<parser>.c: one libFuzzer entry
 * point that hands the bytes to one parser of outside text and frees
 * everything it built, so the sanitizers can report crashes, undefined
 * behaviour and leaks. The same file links against libFuzzer (make fuzz)
 * or against driver.c (make check replays the seeds and saved crashers).
 *
 * A target must not keep state between calls beyond caches that are
 * freed at exit, must not write files outside a private temporary
 * directory, and must not print: libFuzzer runs it millions of times.
 */
#ifndef TKO_FUZZ_H
#define TKO_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "isa/isa.h"
#include "profile/input.h"
#include "profile/prof.h"
#include "util/buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct autotune_set;
struct log_reader;

/*
 * /dev/null through a text stream (util/textout.h), opened once: writers
 * run to it so their code, and the escaping, are fuzzed too.
 */
FILE *fuzz_sink(void);

/*
 * One input through log readers rs[0..nr) of summarize, then through the
 * JSON and text writers, all freed (support.c).
 */
void fuzz_log(const struct log_reader *const *rs, size_t nr, const uint8_t *data, size_t size);

/*
 * One input through the ISA scanner for `kind` (ISA_NONE: detected), then
 * the findings, the JSON document and both renderings, all freed.
 */
void fuzz_isa(enum isa_kind kind, const uint8_t *data, size_t size);

/* Renders a filled set as `tko summarize` would, then releases it. */
void fuzz_autotune_done(struct autotune_set *set);

/*
 * A private directory for targets that must read files (sibling JSON,
 * cache lookups), made once per process under $TMPDIR and removed at exit.
 */
const char *fuzz_tmpdir(void);

/*
 * The profile targets (support-profile.c). fuzz_write_input() writes the
 * bytes to NAME in the private directory and returns its path (valid
 * until the next call). A read is noted in struct fuzz_prof so that two
 * reads of the same bytes can be compared (fuzz_prof_same aborts when
 * they differ); both read functions abort when the accounting breaks a
 * promise of profile/attrib.h.
 */
#define FUZZ_CHECK(cond) do { if (!(cond)) abort(); } while (0)

struct fuzz_prof {
	int ret;
	struct buf err;
	int format, partial;
	size_t nacts, nops, nlaunches, ngroups, nsteps;
	long skipped;
	double busy;
};
typedef int fuzz_prof_reader(struct prof *p, struct prof_input *in, struct buf *err);

const char *fuzz_write_input(const char *name, const uint8_t *data, size_t size);
/* As `tko profile PATH` reads it: detected, read, checked, attributed, rendered. */
void fuzz_profile_path(const char *path, struct fuzz_prof *out);
/* One format's reader, through a window of `window` bytes (0: the default). */
void fuzz_profile_reader(const char *path, fuzz_prof_reader *reader, enum prof_format format,
			 size_t window, struct fuzz_prof *out);
void fuzz_prof_same(const struct fuzz_prof *a, const struct fuzz_prof *b);
void fuzz_prof_release(struct fuzz_prof *r);

#endif
