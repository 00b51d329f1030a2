/*
 * share: time per launch, total time, share and rank of every kernel,
 * and its rate against the measured copy rate.
 *
 * Time per launch, first that applies:
 *   replay        tko run's median for the config the model ran
 *                 (RUN/analysis/replay.json): inputs restored and L2
 *                 flushed before each repetition;
 *   autotune      the autotuner's time for the chosen config (Inductor's
 *                 benchmark or coordinate descent, @triton.autotune);
 *   max_autotune  a template's row in the max-autotune table it came from.
 * Launches: capture's launch count (whole process), else the wrapper's
 * call sites (per call of the compiled graph), else 1, assumed.
 * total = launches x time; share = total / the sum of totals of the timed
 * kernels; rank 1 is the largest. A profiler trace gives measured totals
 * directly: stepprof.h replaces these shares with the profile's when the
 * RUN has one (profile/) or --profile names one.
 *
 * Bytes: tko's count of every byte the captured launch reads and writes
 * (model/traffic.h, the same figure `tko run` prints), else Inductor's
 * kernel_num_gb, else the arguments' span, else the seed log's count; all
 * but a count with no bound or assumption in it are marked estimates.
 * The rate bytes / time and its fraction of the measured copy bandwidth
 * are what the rules read; a rate over 105% of the copy rate gets
 * rate_doubt (its cause) and no fraction.
 *
 * Entry point: share_compute(run, peak_gbps_option, env, replay).
 */
#ifndef TKO_ANALYSE_SHARE_H
#define TKO_ANALYSE_SHARE_H

#include "model/analysis.h"
#include "model/env.h"
#include "model/replay.h"

/*
 * Sets the run's peak (the option when > 0, else env.json's bandwidth,
 * else the replay document's peak), then every kernel's time, bytes,
 * rate, share and rank, the run's totals and share_method, and sorts the
 * kernels: ranked first, then untimed by name.
 */
void share_compute(struct an_run *r, double peak_opt, const char *env_path,
		   const struct env_doc *env, const struct replay_doc *replay);

/* Sorts the kernels by total_ms (untimed last, by id) and numbers their ranks. */
void share_rank(struct an_run *r);

#endif
