/*
 * Compile failures tko knows by their text, so that tko tune and tko
 * investigate explain them instead of showing the raw message: the
 * signatures the brief records for its validated torch 2.9.0 / triton
 * 3.3.0 / gfx938 stack ("LLVM Translation failed",
 * "builtin.unrealized_conversion_cast", both with AMDGCN_USE_BUFFER_OPS=1
 * and with some tl.assume forms, docs/seed-scripts.md section 1) and
 * upstream Triton's failure on a Hygon arch ("PassManager::run failed").
 * The ids are the values of tune.json's error_signature (model/tune.h):
 * tune fills that field, analyse and report explain it, so the table
 * sits below them all.
 *
 * Entry point: errsig_find().
 */
#ifndef TKO_MODEL_ERRSIG_H
#define TKO_MODEL_ERRSIG_H

struct errsig {
	const char *id;		/* stable name for JSON: "llvm_translation_failed" */
	const char *needle;	/* the text that identifies it */
	const char *why;	/* what it means and what to do, one sentence */
};

/* The first known signature in `error` or `traceback` (either may be NULL), or NULL. */
const struct errsig *errsig_find(const char *error, const char *traceback);

#endif
