/* collect.json as a typed document (collect.h). */
#include <stdlib.h>
#include <string.h>

#include "model/collect.h"
#include "util/mem.h"
#include "banned.h"

#define T struct collect_file
static const struct rf_field file_fields[] = {
	RF_F(T, "path", RF_STR, path),
	RF_F(T, "from", RF_STR, from),
	RF_FX(T, "bytes", RF_I64, bytes, RF_COUNT),
	RF_F(T, "role", RF_STR, role),
	RF_FEND,
};
#undef T
static const struct rf_struct file_desc = { "file", sizeof(struct collect_file), file_fields };

#define T struct collect_skip
static const struct rf_field skip_fields[] = {
	RF_F(T, "from", RF_STR, from),
	RF_F(T, "why", RF_STR, why),
	RF_FEND,
};
#undef T
static const struct rf_struct skip_desc = { "skipped", sizeof(struct collect_skip), skip_fields };

#define T struct collect_doc
static const struct rf_field doc_fields[] = {
	RF_A(T, "files", files, nfiles, &file_desc),
	RF_A(T, "skipped", skipped, nskipped, &skip_desc),
	RF_FX(T, "bytes", RF_I64, bytes, RF_COUNT),
	RF_F(T, "kernel", RF_STR, kernel),
	RF_F(T, "kernel_id", RF_STR, kernel_id),
	RF_F(T, "source_hash", RF_STR, source_hash),
	RF_F(T, "inductor_module", RF_STR, inductor_module),
	RF_F(T, "capture_dir", RF_STR, capture_dir),
	RF_V(T, "triton_cache_entries", entries, nentries),
	RF_FEND,
};
#undef T
const struct rf_struct collect_doc_desc = { "collect", sizeof(struct collect_doc), doc_fields };

void collect_doc_init(struct collect_doc *d)
{
	rf_init(&collect_doc_desc, d);
	d->bytes = 0;
}

void collect_doc_release(struct collect_doc *d)
{
	rf_release(&collect_doc_desc, d);
}

void collect_doc_add_file(struct collect_doc *d, const char *path, const char *from,
			  long long bytes, const char *role)
{
	struct collect_file *f;

	d->files = rf_grow(d->files, d->nfiles, sizeof(*d->files));
	f = &d->files[d->nfiles++];
	f->path = xstrdup(path);
	f->from = xstrdup(from);
	f->bytes = bytes;
	f->role = xstrdup(role);
	d->bytes += bytes;
}

void collect_doc_add_skip(struct collect_doc *d, const char *from, const char *why)
{
	struct collect_skip *s;

	d->skipped = rf_grow(d->skipped, d->nskipped, sizeof(*d->skipped));
	s = &d->skipped[d->nskipped++];
	s->from = xstrdup(from);
	s->why = xstrdup(why);
}

int collect_doc_write(FILE *fp, const struct collect_doc *d)
{
	return rf_write_doc(fp, &collect_doc_desc, d, COLLECT_SCHEMA_VERSION, "tko collect");
}

int collect_doc_save(const struct collect_doc *d, const char *path, struct buf *err)
{
	return rf_save_doc(path, &collect_doc_desc, d, COLLECT_SCHEMA_VERSION, "tko collect", err);
}

int collect_doc_read(struct collect_doc *d, const json_t *j, const char *what, struct buf *err)
{
	return rf_read(&collect_doc_desc, d, j, what, err);
}
