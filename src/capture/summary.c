/* What a capture left in a RUN (summary.h). */
#include <stdlib.h>

#include "capture/summary.h"
#include "model/capture_events.h"
#include "rundir/layout.h"
#include "util/walk.h"
#include "banned.h"

static void count_line(const struct capture_line *l, void *data)
{
	struct manifest_capture *c = data;

	if (l->status < 0) {
		c->unreadable_lines++;
	} else if (l->status > 0) {
		c->events++;
		manifest_count_event(c, l->ev->type);
	}
}

static void count_events(const char *run, struct manifest_capture *c)
{
	char *events = rd_path_in(run, RD_EVENTS);
	struct buf err = BUF_INIT;

	capture_events_each_file(events, count_line, c, &err);	/* none: nothing to count */
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
