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

#include "isa/isa.h"

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

#endif
