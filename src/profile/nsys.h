/*
 * Nsight Systems outputs:
 *   nsys stats -r cuda_gpu_trace --format csv: one row per kernel, copy
 *       and fill: "Start (ns)", "Duration (ns)", CorrId, GrdX/Y/Z, BlkX/Y/Z,
 *       Device ("NVIDIA H200 (0)"), Strm, Name ("[CUDA memcpy ...]" for
 *       copies); --timeunit changes "(ns)" to "(us)", "(ms)" or "(s)", and
 *       the unit is read from the header;
 *   nsys stats -r cuda_gpu_kern_sum --format csv: one row per kernel name:
 *       "Total Time (ns)", Instances, Name;
 *   nsys export --type sqlite: CUPTI_ACTIVITY_KIND_KERNEL (start, end in
 *       ns, deviceId, streamId, correlationId, gridX.., blockX..,
 *       demangledName / shortName / name -> StringIds.value), plus
 *       CUPTI_ACTIVITY_KIND_MEMCPY and _MEMSET when present, and the GPU's
 *       name from TARGET_INFO_GPU; read with libsqlite3, read-only.
 */
#ifndef TKO_PROFILE_NSYS_H
#define TKO_PROFILE_NSYS_H

#include "profile/input.h"
#include "profile/prof.h"

int nsys_read_trace(struct prof *p, struct prof_input *in, struct buf *err);
int nsys_read_sum(struct prof *p, struct prof_input *in, struct buf *err);
int nsys_read_sqlite(struct prof *p, const char *path, struct buf *err);

#endif
