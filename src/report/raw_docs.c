/* analysis/{summarize,meta,isa}.json (raw_docs.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json/jsonw.h"
#include "report/isa_json.h"
#include "report/meta_json.h"
#include "report/raw_docs.h"
#include "report/summarize_json.h"
#include "util/mem.h"
#include "banned.h"

static int write_summarize(FILE *fp, const struct an_raw *raw)
{
	return autotune_set_write_json(fp, &raw->at, NULL);
}

static int write_meta(FILE *fp, const struct an_raw *raw)
{
	return meta_write_json(fp, &raw->meta, NULL, 0);
}

static int write_isa(FILE *fp, const struct an_raw *raw)
{
	json_t *j = isa_result_to_json(&raw->isa);
	int ret = jsonw_write_doc(fp, j, 17);

	json_decref(j);
	return ret;
}

static const struct {
	const char *name;
	int (*fn)(FILE *fp, const struct an_raw *raw);
} docs[] = {
	{ "summarize.json", write_summarize },
	{ "meta.json", write_meta },
	{ "isa.json", write_isa },
};

int raw_docs_write(const struct an_raw *raw, struct atomic_set *set, const char *dir,
		   struct buf *err)
{
	size_t i;

	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		char *p = path_join(dir, docs[i].name);
		FILE *fp = atomic_set_open(set, p, err);
		int ret = 0;

		if (!fp) {
			ret = -1;
		} else if (docs[i].fn(fp, raw) < 0) {
			buf_addf(err, "cannot write '%s': %s", p, strerror(errno));
			ret = -1;
		}
		free(p);
		if (ret < 0)
			return -1;
	}
	return 0;
}
