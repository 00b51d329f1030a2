/*
 * Reader for Inductor's autotune cache records, "<hash>.best_config" files
 * beside the kernel modules in TORCHINDUCTOR_CACHE_DIR
 * (torch/_inductor/runtime/autotune_cache.py), e.g.
 *
 *	{"XBLOCK": 1024, "num_warps": 4, "num_stages": 1, "configs_hash": "3ca5...",
 *	 "found_by_coordesc": false, "time_taken_ms": 33, "triton_cache_hash": "CFGB..."}
 *
 * (corpus/h200-run1/cache/inductor/sd/2a48....best_config). time_taken_ms
 * is how long the tuning took, not the kernel's time. The file does not
 * name its kernel; it is found, in this order, from
 *  1. a log line "Save ... tuning result to <this file>" read earlier,
 *  2. the Triton cache directory named by triton_cache_hash, whose
 *     "<kernel>.json" gives the name (null after coordinate descent),
 *  3. the kernel modules in the same directory, when exactly one
 *     @triton.jit function is defined there.
 * A record whose kernel stays unknown is reported in its input's note.
 */
#ifndef TKO_PARSE_BEST_CONFIG_H
#define TKO_PARSE_BEST_CONFIG_H

#include <stddef.h>

#include "parse/autotune.h"
#include "util/buf.h"

/* 1 when data is a JSON object with the keys of a .best_config record. */
int best_config_sniff(const char *data, size_t len);

/*
 * Reads one record (the text of set->inputs[file].path) into the set.
 * `triton_dir` is the Triton cache to look kernel names up in, or NULL.
 * 0, or -1 with a line in err when the text is not such a record.
 */
int best_config_read(struct autotune_set *set, unsigned file,
		     const char *data, size_t len, const char *triton_dir,
		     struct buf *err);

#endif
