/*
 * One tuning told by two inputs. A benchmark of a kernel's configs is
 * printed by TorchInductor's log (TORCH_LOGS=+inductor: times to six
 * decimals with nreg/nspill/#shared-mem), recorded by tko capture's
 * events.jsonl and logged again by the seed skill's autotune.log (times
 * to four decimals, elapsed time, no registers). Read together they
 * would count every config twice and the final choice would be the
 * last input's, with none of the others' facts. This pass merges them.
 *
 * Two tunings of one kernel are twins when they come from different
 * inputs, have the same method and the same configs (block sizes,
 * num_warps, num_stages, and num_ctas / maxnreg where both say) with the
 * same times, to the four decimals the seed log prints. The earlier one is kept; every fact it lacks
 * comes from the other (registers, spills, shared memory, cache hash,
 * the choice, the elapsed time, the .best_config paths); the seed log's
 * rounded times give way to a more precise input's. The kept tuning
 * remembers the other's opening line in twin_src.
 */
#ifndef TKO_PARSE_AUTOTUNE_TWINS_H
#define TKO_PARSE_AUTOTUNE_TWINS_H

#include "parse/autotune.h"

/* Merges every pair of twin tunings in the set; returns how many were merged. */
size_t autotune_set_merge_twins(struct autotune_set *s);

#endif
