/* Nsight Systems stats CSV and SQLite exports (nsys.h). */
#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "profile/csv.h"
#include "profile/nsys.h"
#include "util/mem.h"
#include "banned.h"

/* The scale to microseconds of a header such as "Start (ns)"; 0 for an unknown unit. */
static double unit_scale(const char *h)
{
	static const struct { const char *unit; double scale; } units[] = {
		{ "(ns)", 1e-3 }, { "(us)", 1.0 }, { "(ms)", 1e3 }, { "(s)", 1e6 },
	};
	const char *u = strrchr(h, '(');
	size_t i;

	for (i = 0; u && i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(u, units[i].unit))
			return units[i].scale;
	return 0;
}

static enum prof_act_kind kind_of(const char *name)
{
	if (!strncmp(name, "[CUDA memcpy", 12))
		return PROF_ACT_MEMCPY;
	if (!strncmp(name, "[CUDA memset", 12))
		return PROF_ACT_MEMSET;
	return PROF_ACT_KERNEL;
}

/* Column indices and units of a cuda_gpu_trace table, found once. */
struct trace_cols {
	const struct csv_row *hdr;
	int start, dur, corr, device, stream, name, grid[3], block[3];
	double start_scale, dur_scale;
};

static void find_cols(struct trace_cols *c, const struct csv_row *hdr)
{
	static const char *const g[] = { "GrdX", "GrdY", "GrdZ" }, *const b[] = { "BlkX", "BlkY", "BlkZ" };
	int i;

	c->hdr = hdr;
	c->start = csv_col_prefix(hdr, "Start (");
	c->dur = csv_col_prefix(hdr, "Duration (");
	c->start_scale = unit_scale(csv_field(hdr, c->start));
	c->dur_scale = unit_scale(csv_field(hdr, c->dur));
	c->corr = csv_col(hdr, "CorrId");
	c->device = csv_col(hdr, "Device");
	c->stream = csv_col(hdr, "Strm");
	c->name = csv_col(hdr, "Name");
	for (i = 0; i < 3; i++) {
		c->grid[i] = csv_col(hdr, g[i]);
		c->block[i] = csv_col(hdr, b[i]);
	}
}

struct trace_ctx {
	struct prof *p;
	struct trace_cols c;
	int bad_unit;		/* the header's time unit is not one tko knows */
};

static int trace_row(void *ctx, const struct csv_row *hdr, const struct csv_row *r)
{
	struct trace_ctx *t = ctx;
	struct prof *p = t->p;
	struct prof_act *a;
	double start, dur, v;
	long dev;
	int i;

	if (t->c.hdr != hdr)
		find_cols(&t->c, hdr);
	if (!t->c.start_scale || !t->c.dur_scale) {
		t->bad_unit = 1;
		return -1;
	}
	if (csv_num(r, t->c.start, &start) < 0 ||
	    csv_num(r, t->c.dur, &dur) < 0 ||
	    !prof_times_ok(start * t->c.start_scale, dur * t->c.dur_scale))
		return -1;
	a = prof_add_act(p);
	a->name = prof_intern(p, csv_field(r, t->c.name), strlen(csv_field(r, t->c.name)));
	a->kind = (uint8_t)kind_of(csv_field(r, t->c.name));
	a->start = start * t->c.start_scale;
	a->dur = dur * t->c.dur_scale;
	if (csv_num(r, t->c.corr, &v) == 0)
		a->correlation = prof_int(v, 0, INT64_MAX, -1);
	if (csv_trailing_int(r, t->c.device, &dev) == 0 && dev <= INT32_MAX)
		a->device = (int32_t)dev;
	if (csv_num(r, t->c.stream, &v) == 0)
		a->stream = (int32_t)prof_int(v, 0, INT32_MAX, -1);
	for (i = 0; i < 3; i++) {
		a->grid[i] = csv_num(r, t->c.grid[i], &v) == 0 ? (int32_t)prof_int(v, 0, INT32_MAX, 0) : 0;
		a->block[i] = csv_num(r, t->c.block[i], &v) == 0 ? (int32_t)prof_int(v, 0, INT32_MAX, 0) : 0;
	}
	if (!p->device && *csv_field(r, t->c.device) && strchr(csv_field(r, t->c.device), '(')) {
		const char *d = csv_field(r, t->c.device);

		p->device = xstrndup(d, (size_t)(strrchr(d, '(') - d));
		while (*p->device && p->device[strlen(p->device) - 1] == ' ')
			p->device[strlen(p->device) - 1] = '\0';
	}
	return 0;
}

int nsys_read_trace(struct prof *p, struct prof_input *in, struct buf *err)
{
	static const char *const req[] = { "CorrId", "Strm", "Name", NULL };
	struct trace_ctx t;

	memset(&t, 0, sizeof(t));
	t.p = p;
	if (csv_read_table(in, req, trace_row, &t, &p->skipped, err) < 0)
		return -1;
	if (t.bad_unit) {
		buf_addf(err, "'%s': a time unit tko does not know in the header (it reads ns, us, ms"
			 " and s)", in->path);
		return -1;
	}
	return 0;
}

static int sum_row(void *ctx, const struct csv_row *hdr, const struct csv_row *r)
{
	struct prof *p = ctx;
	struct prof_act *a;
	int total = csv_col_prefix(hdr, "Total Time (");
	double scale = unit_scale(csv_field(hdr, total)), t, n;
	const char *name = csv_field(r, csv_col(hdr, "Name"));

	if (!scale || csv_num(r, total, &t) < 0 || csv_num(r, csv_col(hdr, "Instances"), &n) < 0 ||
	    !prof_times_ok(NAN, t * scale) || prof_int(n, 1, UINT32_MAX, 0) == 0)
		return -1;
	a = prof_add_act(p);
	a->name = prof_intern(p, name, strlen(name));
	a->kind = (uint8_t)kind_of(name);
	a->dur = t * scale;
	a->calls = (uint32_t)prof_int(n, 1, UINT32_MAX, 0);
	return 0;
}

int nsys_read_sum(struct prof *p, struct prof_input *in, struct buf *err)
{
	static const char *const req[] = { "Instances", "Name", NULL };

	return csv_read_table(in, req, sum_row, p, &p->skipped, err) < 0 ? -1 : 0;
}

/* Whether table t has column col (PRAGMA table_info). */
static int has_column(sqlite3 *db, const char *t, const char *col)
{
	sqlite3_stmt *st;
	char *q = sqlite3_mprintf("PRAGMA table_info(%Q)", t);
	int found = 0;

	if (sqlite3_prepare_v2(db, q, -1, &st, NULL) == SQLITE_OK) {
		while (!found && sqlite3_step(st) == SQLITE_ROW)
			found = !strcmp((const char *)sqlite3_column_text(st, 1), col);
		sqlite3_finalize(st);
	}
	sqlite3_free(q);
	return found;
}

static const char *name_column(sqlite3 *db, const char *t)
{
	static const char *const cols[] = { "demangledName", "shortName", "name", NULL };
	size_t i;

	for (i = 0; cols[i]; i++)
		if (has_column(db, t, cols[i]))
			return cols[i];
	return NULL;
}

static int32_t col_int(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 : sqlite3_column_int(st, i);
}

static const char *const default_names[] = {
	[PROF_ACT_KERNEL] = "?", [PROF_ACT_MEMCPY] = "[CUDA memcpy]", [PROF_ACT_MEMSET] = "[CUDA memset]",
};

static void take_row(struct prof *p, sqlite3_stmt *st, enum prof_act_kind kind)
{
	const char *nm = (const char *)sqlite3_column_text(st, 5);
	double s = (double)sqlite3_column_int64(st, 0), e = (double)sqlite3_column_int64(st, 1);
	struct prof_act *a;
	int i;

	if (e < s || !prof_times_ok(s / 1e3, (e - s) / 1e3)) {
		p->skipped++;
		return;
	}
	if (!nm)
		nm = default_names[kind];
	a = prof_add_act(p);
	a->kind = (uint8_t)kind;
	a->start = s / 1e3;
	a->dur = (e - s) / 1e3;
	a->device = col_int(st, 2);
	a->stream = col_int(st, 3);
	a->correlation = sqlite3_column_int64(st, 4);
	a->name = prof_intern(p, nm, strlen(nm));
	for (i = 0; i < 3; i++) {
		a->grid[i] = sqlite3_column_int(st, 6 + i);
		a->block[i] = sqlite3_column_int(st, 9 + i);
	}
}

/* One CUPTI activity table into activities; -1 with a line in err. */
static int read_table(struct prof *p, sqlite3 *db, const char *t, enum prof_act_kind kind,
		      struct buf *err)
{
	const char *name = kind == PROF_ACT_KERNEL ? name_column(db, t) : NULL;
	int dims = kind == PROF_ACT_KERNEL && has_column(db, t, "gridX");
	char *q = sqlite3_mprintf(
		"SELECT t.start, t.end, t.deviceId, t.streamId, t.correlationId, %s, %s FROM %s AS t%s%s%s",
		name ? "s.value" : "NULL",
		dims ? "t.gridX, t.gridY, t.gridZ, t.blockX, t.blockY, t.blockZ" : "0,0,0,0,0,0", t,
		name ? " LEFT JOIN StringIds AS s ON s.id = t.\"" : "", name ? name : "", name ? "\"" : "");
	sqlite3_stmt *st;
	int r;

	if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK) {
		buf_addf(err, "'%s': cannot read %s: %s", p->path, t, sqlite3_errmsg(db));
		sqlite3_free(q);
		return -1;
	}
	while ((r = sqlite3_step(st)) == SQLITE_ROW)
		take_row(p, st, kind);
	sqlite3_finalize(st);
	sqlite3_free(q);
	if (r != SQLITE_DONE) {
		buf_addf(err, "'%s': reading %s failed: %s", p->path, t, sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

static int has_table(sqlite3 *db, const char *t)
{
	sqlite3_stmt *st;
	int found = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, t, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

static void read_device(struct prof *p, sqlite3 *db)
{
	sqlite3_stmt *st;

	if (!has_table(db, "TARGET_INFO_GPU") || !has_column(db, "TARGET_INFO_GPU", "name") ||
	    sqlite3_prepare_v2(db, "SELECT name FROM TARGET_INFO_GPU LIMIT 1", -1, &st, NULL) != SQLITE_OK)
		return;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		p->device = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

int nsys_read_sqlite(struct prof *p, const char *path, struct buf *err)
{
	static const struct { const char *table; enum prof_act_kind kind; } tables[] = {
		{ "CUPTI_ACTIVITY_KIND_KERNEL", PROF_ACT_KERNEL },
		{ "CUPTI_ACTIVITY_KIND_MEMCPY", PROF_ACT_MEMCPY },
		{ "CUPTI_ACTIVITY_KIND_MEMSET", PROF_ACT_MEMSET },
	};
	sqlite3 *db = NULL;
	size_t i;
	int ret = 0;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		buf_addf(err, "cannot open '%s' as SQLite: %s", path, db ? sqlite3_errmsg(db) : "no memory");
		sqlite3_close(db);
		return -1;
	}
	if (!has_table(db, tables[0].table)) {
		buf_addf(err, "'%s': an SQLite file without CUPTI_ACTIVITY_KIND_KERNEL; not an nsys export"
			 " (or the run had no kernels)", path);
		sqlite3_close(db);
		return -1;
	}
	for (i = 0; ret == 0 && i < sizeof(tables) / sizeof(tables[0]); i++)
		if (has_table(db, tables[i].table))
			ret = read_table(p, db, tables[i].table, tables[i].kind, err);
	read_device(p, db);
	sqlite3_close(db);
	return ret;
}
