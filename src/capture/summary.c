/* What a capture left in a RUN (summary.h). */
#include <stdlib.h>

#include "capture/summary.h"
#include "json/jsonio.h"
#include "rundir/layout.h"
#include "util/file.h"
#include "util/lines.h"
#include "util/walk.h"
#include "banned.h"

static void count_lines_of(const struct mapped_file *m, struct manifest_capture *c)
{
	struct lines it = LINES_INIT(m->data, m->len);
	const char *s;
	size_t n;

	while (lines_next(&it, &s, &n)) {
		json_t *e = n ? json_loadb(s, n, 0, NULL) : NULL;
		const char *type = json_str(e, "event");

		if (!type) {
			c->unreadable_lines += n > 0;
		} else {
			c->events++;
			manifest_count_event(c, type);
		}
		json_decref(e);
	}
}

static void count_events(const char *run, struct manifest_capture *c)
{
	char *events = rd_path_in(run, RD_EVENTS);
	struct mapped_file m;
	struct buf err = BUF_INIT;

	if (!file_map(events, 0, &m, &err)) {
		count_lines_of(&m, c);
		file_unmap(&m);
	}
	buf_release(&err);
	free(events);
}

void capture_summary_read(const char *run, struct manifest_capture *c)
{
	struct strlist dirs = STRLIST_INIT;

	count_events(run, c);
	c->errors = manifest_event_count(c, "error");
	c->kernel_dirs = (long long)rd_kernel_dirs(run, &dirs);
	walk_release(&dirs);
}
