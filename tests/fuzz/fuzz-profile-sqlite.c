/*
 * Fuzzes the nsys SQLite export reader (profile/nsys.c over libsqlite3)
 * as `tko profile FILE.sqlite` reads it: the bytes are a database file
 * (the seed is a small export in nsys's tables and columns), opened
 * read-only, its CUPTI activity tables read, attributed and rendered.
 * Mutations reach the page contents, so kernel rows with text, NULL,
 * huge or negative values where nsys writes integers, names missing from
 * StringIds, and damaged pages that SQLite itself refuses.
 */
#include "fuzz.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_prof r;

	fuzz_profile_path(fuzz_write_input("profile.sqlite", data, size), &r);
	fuzz_prof_release(&r);
	return 0;
}
