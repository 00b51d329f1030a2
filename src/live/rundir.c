/* What a capture left in a RUN (rundir.h). */
#include <stdlib.h>
#include <string.h>

#include "live/rundir.h"
#include "util/file.h"
#include "util/jsonio.h"
#include "util/lines.h"
#include "util/mem.h"
#include "util/walk.h"
#include "banned.h"

static long count_dirs(const char *run)
{
	struct strlist dirs = STRLIST_INIT;
	long n = (long)rd_kernel_dirs(run, &dirs);

	walk_release(&dirs);
	return n;
}

json_t *rundir_capture_summary(const char *run)
{
	char *events = rd_path_in(run, RD_EVENTS);
	json_t *sum = json_object(), *by = json_object();
	struct mapped_file m;
	struct buf err = BUF_INIT;
	long total = 0, bad = 0;

	if (!file_map(events, 0, &m, &err)) {
		struct lines it = LINES_INIT(m.data, m.len);
		const char *s;
		size_t n;

		while (lines_next(&it, &s, &n)) {
			json_t *e = n ? json_loadb(s, n, 0, NULL) : NULL;
			const char *type = json_str(e, "event");

			if (!type) {
				bad += n > 0;
			} else {
				total++;
				json_set_int(by, type, json_int(by, type, 0) + 1);
			}
			json_decref(e);
		}
		file_unmap(&m);
	}
	json_set_int(sum, "events", total);
	json_set_int(sum, "errors", json_int(by, "error", 0));
	json_set_int(sum, "kernel_dirs", count_dirs(run));
	json_set_int(sum, "unreadable_lines", bad);
	json_set_new(sum, "by_type", by);
	buf_release(&err);
	free(events);
	return sum;
}
