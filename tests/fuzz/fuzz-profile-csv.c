/*
 * Fuzzes the CSV profile readers (profile/csv.c, rocprof.c, nsys.c and
 * input.c's lines) and what follows them in `tko profile`.
 *
 * The bytes are read as `tko profile` reads the file (the format told
 * from the header), then by each of the five table readers in turn
 * whatever the header says (rocprofv3 kernel trace and stats, rocprof v1,
 * nsys cuda_gpu_trace and cuda_gpu_kern_sum), each through the default
 * window and through a window of 1 to 32 bytes; the two must agree.
 */
#include "fuzz.h"
#include "profile/nsys.h"
#include "profile/rocprof.h"
#include "banned.h"

static const struct {
	fuzz_prof_reader *fn;
	enum prof_format format;
} readers[] = {
	{ rocprof_read_trace, PROF_FMT_ROCPROFV3_TRACE },
	{ rocprof_read_stats, PROF_FMT_ROCPROFV3_STATS },
	{ rocprof_read_v1, PROF_FMT_ROCPROF_V1 },
	{ nsys_read_trace, PROF_FMT_NSYS_TRACE },
	{ nsys_read_sum, PROF_FMT_NSYS_SUM },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write_input("profile.csv", data, size);
	struct fuzz_prof whole, big, small;
	size_t i;

	fuzz_profile_path(path, &whole);
	fuzz_prof_release(&whole);
	for (i = 0; i < sizeof(readers) / sizeof(readers[0]); i++) {
		fuzz_profile_reader(path, readers[i].fn, readers[i].format, 0, &big);
		fuzz_profile_reader(path, readers[i].fn, readers[i].format, 1 + (size + i) % 32,
				    &small);
		fuzz_prof_same(&big, &small);
		fuzz_prof_release(&big);
		fuzz_prof_release(&small);
	}
	return 0;
}
