/*
 * AMD profiler tables (ROCm and Hygon DTK):
 *   rocprofv3 --kernel-trace: *_kernel_trace.csv, one row per dispatch:
 *       Kernel_Name, Start_Timestamp, End_Timestamp (ns), Agent_Id ("Agent 2"
 *       or a number), Queue_Id, Stream_Id, Correlation_Id, Workgroup_Size_X/Y/Z,
 *       Grid_Size_X/Y/Z (work-items, not blocks); rocpd2csv adds "Guid", and
 *       rocprofv2's file plugin v2 writes Correlation_ID: columns are found by name;
 *   rocprofv3 --stats: *_kernel_stats.csv, one row per kernel name: Name,
 *       Calls, TotalDurationNs (rocprof v1's and hipprof's stats tables have
 *       the same three columns);
 *   rocprof v1 / DTK rocprof --timestamp on (and hipprof's rocprof-style
 *       CSV): results.csv, Index, KernelName, gpu-id, queue-id, grd, wgr,
 *       BeginNs, EndNs (ns).
 * No hipprof trace file was found in public sources (docs/dcu.md section 9,
 * tests/data/profile/README.md): its documented JSON/HTML/Perfetto outputs
 * are not read; its rocprof-style CSV is, as the rocprof v1 layout its DTK
 * scripts were checked against.
 */
#ifndef TKO_PROFILE_ROCPROF_H
#define TKO_PROFILE_ROCPROF_H

#include "profile/input.h"
#include "profile/prof.h"

int rocprof_read_trace(struct prof *p, struct prof_input *in, struct buf *err);
int rocprof_read_stats(struct prof *p, struct prof_input *in, struct buf *err);
int rocprof_read_v1(struct prof *p, struct prof_input *in, struct buf *err);

#endif
