/*
 * Fuzzes the Chrome trace reader (profile/chrome.c, jscan.c, input.c) and
 * what follows it in `tko profile`: detection, attribution (attrib.c),
 * the JSON document (tojson.c) and the table (report/profile_text.c).
 *
 * The bytes are read three times: as `tko profile` reads the file, by
 * chrome_read() through the default 1 MiB window, and by chrome_read()
 * through a window of 1 to 64 bytes (sized by the input's length), which
 * puts a window boundary inside nearly every event, key, string and
 * number. The two chrome_read() runs must come to the same thing, error
 * text included: where the window ends must never change what is read.
 */
#include "fuzz.h"
#include "profile/chrome.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write_input("trace.json", data, size);
	struct fuzz_prof whole, big, small;

	fuzz_profile_path(path, &whole);
	fuzz_profile_reader(path, chrome_read, PROF_FMT_KINETO, 0, &big);
	fuzz_profile_reader(path, chrome_read, PROF_FMT_KINETO, 1 + size % 64, &small);
	fuzz_prof_same(&big, &small);
	fuzz_prof_release(&whole);
	fuzz_prof_release(&big);
	fuzz_prof_release(&small);
	return 0;
}
