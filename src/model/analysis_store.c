/* Saving and loading the analysis model (analysis_store.h). */
#include "json/jsonio.h"
#include "json/jsonw.h"
#include "model/analysis_desc.h"
#include "model/analysis_store.h"
#include "util/file.h"
#include "banned.h"

/*
 * schema_version and the tool first, then the run's fields in table order
 * (its own "tool" is the one given): the document an_run_to_json() builds,
 * streamed, with reals to 17 digits so that they read back exactly.
 */
int an_store_write(FILE *fp, const struct an_run *r, const char *tool)
{
	struct jsonw w;

	jsonw_init_prec(&w, fp, 17);
	jsonw_object(&w);
	jsonw_key(&w, "schema_version");
	jsonw_int(&w, AN_SCHEMA_VERSION);
	jsonw_key(&w, "tool");
	jsonw_str(&w, tool);
	rf_write_members(&w, &an_run_desc, r, "tool");
	jsonw_end(&w);
	return jsonw_finish(&w);
}

int an_store_save(const struct an_run *r, struct atomic_set *set, const char *path,
		  struct buf *err)
{
	FILE *fp = atomic_set_open(set, path, err);

	if (!fp)
		return -1;
	if (an_store_write(fp, r, "tko investigate") < 0) {
		buf_addf(err, "cannot write '%s'", path);
		return -1;
	}
	return 0;
}

int an_store_load(struct an_run *r, const char *path, struct buf *err)
{
	struct mapped_file m = MAPPED_FILE_INIT;
	json_t *doc;
	int ret;

	if (file_map(path, 0, &m, err) < 0)
		return -1;
	if (text_input_check(path, m.data, m.len, err) < 0) {
		file_unmap(&m);
		return -1;
	}
	doc = json_load_span(path, m.data, m.len, err);
	file_unmap(&m);
	if (!doc)
		return -1;
	ret = an_run_from_json(r, doc, path, err);
	json_decref(doc);
	return ret;
}
