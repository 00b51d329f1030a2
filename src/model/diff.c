/* The `tko diff` document as a typed model (diff.h). */
#include <stdlib.h>
#include <string.h>

#include "model/diff.h"
#include "util/mem.h"
#include "banned.h"

#define T struct rf_change
static const struct rf_field change_fields[] = {
	RF_FX(T, "field", RF_STR, path, RF_NEED),
	RF_FX(T, "a", RF_STR, a, RF_NEED),
	RF_FX(T, "b", RF_STR, b, RF_NEED),
	RF_FEND,
};
#undef T
static const struct rf_struct change_desc = { "change", sizeof(struct rf_change), change_fields };

const char *const diff_status_names[DIFF_NSTATUS + 1] = {
	[DIFF_CHANGED] = "changed",
	[DIFF_SAME] = "same",
	[DIFF_ONLY_A] = "only_a",
	[DIFF_ONLY_B] = "only_b",
	[DIFF_NSTATUS] = NULL,
};

#define T struct kdiff
static const struct rf_field kdiff_fields[] = {
	RF_FX(T, "id", RF_STR, id, RF_NEED),
	RF_E(T, "status", status, diff_status_names, RF_NEED),
	RF_A(T, "changes", changes.v, changes.nr, &change_desc),
	RF_FEND,
};
#undef T
static const struct rf_struct kdiff_desc = { "kernel", sizeof(struct kdiff), kdiff_fields };

#define T struct diff_summary
static const struct rf_field summary_fields[] = {
	RF_FX(T, "changed", RF_I64, changed, RF_COUNT | RF_NEED),
	RF_FX(T, "same", RF_I64, same, RF_COUNT | RF_NEED),
	RF_FX(T, "only_a", RF_I64, only_a, RF_COUNT | RF_NEED),
	RF_FX(T, "only_b", RF_I64, only_b, RF_COUNT | RF_NEED),
	RF_FEND,
};
#undef T
static const struct rf_struct summary_desc = {
	"summary", sizeof(struct diff_summary), summary_fields
};

#define T struct an_diff
static const struct rf_field diff_fields[] = {
	RF_FX(T, "a", RF_STR, a, RF_NEED),
	RF_FX(T, "b", RF_STR, b, RF_NEED),
	RF_S(T, "summary", summary, &summary_desc, 0),
	RF_A(T, "run", run.v, run.nr, &change_desc),
	RF_A(T, "kernels", v, nr, &kdiff_desc),
	RF_FEND,
};
#undef T
const struct rf_struct diff_doc_desc = { "tko diff", sizeof(struct an_diff), diff_fields };

struct kdiff *diff_doc_add(struct an_diff *d, const char *id, enum diff_status status)
{
	struct kdiff *k;

	d->v = rf_grow(d->v, d->nr, sizeof(*d->v));
	k = &d->v[d->nr++];
	k->id = xstrdup(id);
	k->status = status;
	k->changes = (struct rf_changes)RF_CHANGES_INIT;
	return k;
}

void diff_doc_status(struct kdiff *k, enum diff_status status)
{
	k->status = status;
}

int diff_doc_is(const struct kdiff *k, enum diff_status status)
{
	return k->status == status;
}

void an_diff_release(struct an_diff *d)
{
	rf_release(&diff_doc_desc, d);
	*d = (struct an_diff)AN_DIFF_INIT;
}

int diff_doc_save(const struct an_diff *d, const char *path, struct buf *err)
{
	return rf_save_doc(path, &diff_doc_desc, d, DIFF_SCHEMA_VERSION, "tko diff", err);
}

int diff_doc_read(struct an_diff *d, const json_t *j, const char *what, struct buf *err)
{
	return rf_read(&diff_doc_desc, d, j, what, err);
}
