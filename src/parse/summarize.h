/*
 * The entry point of `tko summarize` as a library: read RUN directories
 * and loose files into one struct autotune_set (autotune.h), detecting each
 * file's format from its content. `tko investigate` calls it in-process.
 *
 * A RUN directory (DESIGN.md) contributes, in this order:
 *   capture/events.jsonl                tko capture's events
 *   log/NAME.log, log/NAME.txt          logs
 *   NAME.log, NAME.txt at the top       logs too (the corpus keeps log_profile.txt there)
 *   capture/autotune.log                only when there is no events.jsonl (it repeats them)
 *   NAME.best_config under cache/inductor   Inductor's autotune cache records
 * and is where logged paths (/tmp/.../cache/inductor/xx/file) are looked
 * up (rundir/layout.h). A loose file is read as events, a .best_config record or
 * a text log, whichever its content is; its RUN directory is guessed from
 * where it lies. All event files are read first, then logs, then cache
 * records, so a record can be matched to the log line that saved it.
 *
 * Errors: a missing, unreadable, empty, binary or non-UTF-8 file named on
 * the command line, a directory that is not a RUN, or a file with no
 * autotune record in it stops the read with one line in err. Inside a RUN,
 * an empty or unreadable file is skipped and noted in its struct at_input
 * (a crashed model leaves such files; the rest of the RUN is still read).
 */
#ifndef TKO_PARSE_SUMMARIZE_H
#define TKO_PARSE_SUMMARIZE_H

#include <stddef.h>

#include "parse/autotune.h"
#include "util/buf.h"

/*
 * Reads paths[0..n) into `out`, which the caller has initialised with
 * autotune_set_init() and releases afterwards in every case. Returns 0, or
 * -1 with one line in err (the set then holds what was read before).
 * Reading nothing usable at all is an error too.
 */
int summarize_paths(const char *const *paths, size_t n,
		    struct autotune_set *out, struct buf *err);

#endif
