/*
 * Which profiler wrote a file, told from its first bytes (after gzip
 * decompression), never from its name:
 *   "SQLite format 3\0"                      nsys export --type sqlite
 *   '{' or '[' first                         a Chrome trace (torch.profiler)
 *   a line naming the columns (within the first CSV_HEADER_SEARCH lines,
 *   so nsys's "Processing [...]" preamble is passed over):
 *     Kernel_Name + Start_Timestamp           rocprofv3 kernel_trace.csv
 *     KernelName + BeginNs                    rocprof v1 / DTK results.csv
 *     Name + Calls + TotalDurationNs          rocprof(v3)/hipprof kernel stats
 *     "Start (..)" + "Duration (..)" + Name   nsys cuda_gpu_trace
 *     "Total Time (..)" + Instances + Name    nsys cuda_gpu_kern_sum
 * A rocprof v1 table with counters but no BeginNs is named as such, so
 * the error can say to add --timestamp on.
 */
#ifndef TKO_PROFILE_DETECT_H
#define TKO_PROFILE_DETECT_H

#include <stddef.h>

#include "profile/prof.h"

/* The format of a file starting with head[0..n); PROF_FMT_NONE if none. *why says what it looked like. */
enum prof_format prof_detect(const char *head, size_t n, const char **why);

#endif
