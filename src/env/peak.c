/* One resolver for the peak copy bandwidth (see peak.h). */
#include <math.h>
#include <stdlib.h>

#include "env/peak.h"
#include "json/jsonio.h"
#include "util/buf.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

const enum peak_source peak_order_analyse[] = { PEAK_OPTION, PEAK_ENV_JSON, PEAK_REPLAY_DOC, PEAK_NONE };
const enum peak_source peak_order_replay[] = { PEAK_OPTION, PEAK_ENV_JSON, PEAK_NONE };
const enum peak_source peak_order_tune[] = { PEAK_OPTION, PEAK_MEASURED, PEAK_NONE };

static int counts(const struct peak_inputs *in, double gbps)
{
	return isfinite(gbps) && (gbps > 0 || (in->zero_counts && gbps == 0));
}

/* env.json's bandwidth.copy_gbps: the loaded document's, else the file's; NAN none. */
static double env_gbps(const struct peak_inputs *in)
{
	struct env_doc doc;
	json_t *j = NULL;
	struct buf ignored = BUF_INIT;
	double gbps;

	if (in->env)
		return in->env->bandwidth.copy_gbps;
	env_doc_init(&doc);
	if (in->env_path && is_file(in->env_path) && (j = json_load_path(in->env_path, &ignored)))
		env_doc_read_bandwidth(&doc, j);
	gbps = doc.bandwidth.copy_gbps;
	env_doc_release(&doc);
	json_decref(j);
	buf_release(&ignored);
	return gbps;
}

/* One source's rate, or NAN. */
static double rate_of(const struct peak_inputs *in, enum peak_source s)
{
	switch (s) {
	case PEAK_OPTION:
		return in->option > 0 ? in->option : NAN;
	case PEAK_ENV_JSON:
		return env_gbps(in);
	case PEAK_REPLAY_DOC:
		return in->replay_gbps;
	case PEAK_MEASURED:
		return in->measure ? in->measure(in->measure_data) : NAN;
	case PEAK_NONE:
		break;
	}
	return NAN;
}

static char *where_of(const struct peak_inputs *in, enum peak_source s)
{
	switch (s) {
	case PEAK_OPTION:
		return xstrdup("--peak-gbps");
	case PEAK_ENV_JSON:
		return xstrdup(in->env_path ? in->env_path : "env.json");
	case PEAK_REPLAY_DOC:
		return xstrdup("replay document");
	case PEAK_MEASURED:
		return xstrdup("tune worker");
	case PEAK_NONE:
		break;
	}
	return NULL;
}

int peak_resolve(const struct peak_inputs *in, struct peak *out)
{
	const enum peak_source *s;

	*out = (struct peak)PEAK_INIT;
	for (s = in->order; s && *s != PEAK_NONE; s++) {
		double gbps = rate_of(in, *s);

		if (!counts(in, gbps))
			continue;
		out->gbps = gbps;
		out->source = *s;
		out->where = where_of(in, *s);
		return 1;
	}
	return 0;
}

char *peak_source_text(const struct peak *p)
{
	switch (p->source) {
	case PEAK_OPTION:
		return xstrdup("--peak-gbps");
	case PEAK_ENV_JSON:
		return xstrfmt("%s: a device-to-device copy, read + written bytes", p->where);
	case PEAK_REPLAY_DOC:
		return xstrdup("the replay document's peak (tko run)");
	case PEAK_MEASURED:
		return xstrdup("a device-to-device copy timed by the tune worker");
	case PEAK_NONE:
		break;
	}
	return NULL;
}

void peak_release(struct peak *p)
{
	free(p->where);
	*p = (struct peak)PEAK_INIT;
}
