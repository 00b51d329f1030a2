/*
 * torch.profiler's Chrome trace (Kineto's output of export_chrome_trace
 * and tensorboard_trace_handler, .json or .json.gz): {"traceEvents": [...],
 * "deviceProperties": [...], ...}, or a bare array of events.
 *
 * Kept per event (the fields torch.profiler writes, checked against
 * the real traces in tests/data/profile/):
 *   cat "kernel", "gpu_memcpy", "gpu_memset"   GPU activities: name, ts, dur
 *       (us), args.device (else pid), args.stream (else tid),
 *       args.correlation, args["External id"], args.grid, args.block;
 *   cat "cuda_runtime", "cuda_driver"          launches (HIP too):
 *       args.correlation -> args["External id"] and ts;
 *   cat "cpu_op"                               ops: name, ts, dur, tid,
 *       args["External id"], args["Input type"][0], and for Inductor's
 *       Triton launch (CachingAutotuner.run under the profiler) its
 *       kernel_hash, kernel_file, kernel_kwargs, num_warps, num_stages;
 *   cat "user_annotation"                      ranges: ProfilerStep#N, ...
 * Everything else is skipped without being parsed.
 *
 * Entry point: chrome_read(). A file cut inside traceEvents keeps the
 * events before the cut and sets p->partial.
 */
#ifndef TKO_PROFILE_CHROME_H
#define TKO_PROFILE_CHROME_H

#include "profile/input.h"
#include "profile/prof.h"

/* Reads the trace from `in` (positioned at its start). 0, or -1 with a line in err. */
int chrome_read(struct prof *p, struct prof_input *in, struct buf *err);

#endif
