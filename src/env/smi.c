/* hy-smi and nvidia-smi readers (see smi.h). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "env/fields.h"
#include "env/smi.h"
#include "target/target.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

enum column { C_TEMP, C_POWER, C_CAP, C_VRAM, C_UTIL, C_PERF, C_MODE };

/* hy-smi table headers (both layouts) and the field each column fills. */
static const struct {
	const char *head;
	enum column col;
} columns[] = {
	{ "Temp", C_TEMP }, { "AvgPwr", C_POWER }, { "PwrCap", C_CAP },
	{ "VRAM%", C_VRAM }, { "HCU%", C_UTIL }, { "DCU%", C_UTIL },
	{ "Perf", C_PERF }, { "Mode", C_MODE },
};

#define MAX_COLUMNS 16

static struct smi_device *new_device(struct smi *s, long index)
{
	struct smi_device *d;
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (s->dev[i].index == index)
			return &s->dev[i];
	ALLOC_GROW(s->dev, s->nr + 1, s->alloc);
	d = &s->dev[s->nr++];
	*d = (struct smi_device){ index, NULL, NULL, NULL, NULL, NULL,
				  NAN, NAN, NAN, NAN, NAN, -1 };
	return d;
}

/* A size in MiB as bytes; -1 when it is not a number or does not fit. */
static long long mib_bytes(const char *v, size_t n)
{
	long mib = field_leading_long(v, n, -1);

	return mib >= 0 && mib <= LLONG_MAX / 1048576LL ? (long long)mib * 1048576LL : -1;
}

static void set_str(char **dst, const char *v, size_t n)
{
	if (!*dst)
		*dst = xstrndup(v, n);
}

static void set_cell(struct smi_device *d, int col, const char *w, size_t wn)
{
	double v;
	int ok = field_leading_double(w, wn, &v);

	switch ((enum column)col) {
	case C_TEMP: if (ok) d->temp_c = v; break;
	case C_POWER: if (ok) d->power_w = v; break;
	case C_CAP: if (ok) d->power_cap_w = v; break;
	case C_VRAM: if (ok) d->vram_pct = v; break;
	case C_UTIL: if (ok) d->util_pct = v; break;
	case C_PERF: set_str(&d->perf, w, wn); break;
	case C_MODE: set_str(&d->mode, w, wn); break;
	}
}

/* The header row: "HCU  Temp  AvgPwr ..." (or "DCU ..."); fills col[]. */
static int table_header(const char *s, size_t n, int *col, size_t *ncols)
{
	size_t pos = 0, i;
	const char *w;
	size_t wn;

	if (!field_next_word(s, n, &pos, &w, &wn) || wn != 3 ||
	    (memcmp(w, "HCU", 3) && memcmp(w, "DCU", 3)))
		return 0;
	*ncols = 0;
	while (field_next_word(s, n, &pos, &w, &wn) && *ncols < MAX_COLUMNS) {
		col[*ncols] = -1;
		for (i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
			if (strlen(columns[i].head) == wn && !memcmp(columns[i].head, w, wn))
				col[*ncols] = (int)columns[i].col;
		(*ncols)++;
	}
	return *ncols > 0;
}

static void table_row(struct smi *s, const char *p, size_t n, const int *col, size_t ncols)
{
	size_t pos = 0, i;
	const char *w;
	size_t wn;
	long index;
	struct smi_device *d;

	if (!field_next_word(p, n, &pos, &w, &wn))
		return;
	for (i = 0; i < wn; i++)
		if (w[i] < '0' || w[i] > '9')
			return;
	if ((index = field_leading_long(w, wn, -1)) < 0)
		return;
	d = new_device(s, index);
	for (i = 0; i < ncols && field_next_word(p, n, &pos, &w, &wn); i++)
		if (col[i] >= 0)
			set_cell(d, col[i], w, wn);
}

/* "HCU[0]   : key: value", "Driver Version: x". */
static void kv_line(struct smi *s, const char *p, size_t n)
{
	const char *key, *val, *lb = memchr(p, '[', n);
	size_t kn, vn;
	struct smi_device *d = NULL;

	span_trim(&p, &n);
	if (lb && lb - p == 3 && (!memcmp(p, "HCU", 3) || !memcmp(p, "DCU", 3) ||
				  !memcmp(p, "GPU", 3))) {
		const char *colon = memchr(p, ':', n);
		long index = field_leading_long(lb + 1, n - 4, -1);

		if (!colon || index < 0)
			return;
		d = new_device(s, index);
		n -= (size_t)(colon + 1 - p);
		p = colon + 1;
	}
	if (field_split(p, n, &key, &kn, &val, &vn) < 0 || !vn)
		return;
	if (field_eq_nocase(key, kn, "driver version"))
		set_str(d ? &d->driver : &s->driver, val, vn);
	else if (d && field_eq_nocase(key, kn, "card series"))
		set_str(&d->name, val, vn);
	else if (d && field_find_nocase(key, kn, "Total Memory (MiB)") && d->memory_bytes < 0)
		d->memory_bytes = mib_bytes(val, vn);
}

int hysmi_parse(const char *p, size_t n, struct smi *s, struct buf *err)
{
	struct lines it = LINES_INIT(p, n);
	int col[MAX_COLUMNS];
	size_t ncols = 0;
	int in_table = 0;
	const char *line;
	size_t len;

	while (lines_next(&it, &line, &len)) {
		const char *t = line;
		size_t tn = len;

		span_trim(&t, &tn);
		if (tn && t[0] == '=') {
			in_table = 0;
		} else if (table_header(line, len, col, &ncols)) {
			in_table = 1;
		} else if (in_table) {
			table_row(s, line, len, col, ncols);
		} else {
			kv_line(s, line, len);
		}
	}
	if (!s->nr && !s->driver) {
		buf_addf(err, "no HCU/DCU card in hy-smi output");
		return -1;
	}
	return 0;
}

/* One CSV field of s[*pos..n), trimmed. */
static int csv_field(const char *s, size_t n, size_t *pos, const char **f, size_t *fn)
{
	const char *comma;

	if (*pos > n)
		return 0;
	*f = s + *pos;
	comma = memchr(*f, ',', n - *pos);
	*fn = comma ? (size_t)(comma - *f) : n - *pos;
	*pos += *fn + 1;
	span_trim(f, fn);
	return 1;
}

static void nv_row(struct smi *s, const char *p, size_t n)
{
	const char *f[5];
	size_t fn[5], pos = 0, i;
	struct smi_device *d;
	long index;

	for (i = 0; i < 5; i++)
		if (!csv_field(p, n, &pos, &f[i], &fn[i]))
			return;
	if ((index = field_leading_long(f[0], fn[0], -1)) < 0 || fn[1] == 0)
		return;
	d = new_device(s, index);
	set_str(&d->name, f[1], fn[1]);
	/* compute_cap "9.0" is sm_90 */
	if (fn[2] && memchr(f[2], '.', fn[2]) && fn[2] < 16) {
		char cap[16];
		struct buf arch = BUF_INIT;

		memcpy(cap, f[2], fn[2]);
		cap[fn[2]] = '\0';
		if (!target_norm(cap, &arch))
			set_str(&d->arch, arch.buf, arch.len);
		buf_release(&arch);
	}
	if (fn[3] && field_leading_long(f[3], fn[3], -1) >= 0)
		set_str(&d->driver, f[3], fn[3]);
	if (mib_bytes(f[4], fn[4]) >= 0)
		d->memory_bytes = mib_bytes(f[4], fn[4]);
}

int nvsmi_parse_csv(const char *p, size_t n, struct smi *s, struct buf *err)
{
	struct lines it = LINES_INIT(p, n);
	const char *line;
	size_t len;

	while (lines_next(&it, &line, &len))
		nv_row(s, line, len);
	if (!s->nr) {
		buf_addf(err, "no GPU line in nvidia-smi --query-gpu output");
		return -1;
	}
	return 0;
}

void smi_release(struct smi *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		free(s->dev[i].name);
		free(s->dev[i].arch);
		free(s->dev[i].driver);
		free(s->dev[i].perf);
		free(s->dev[i].mode);
	}
	free(s->dev);
	free(s->driver);
	*s = (struct smi)SMI_INIT;
}
