/* tko capture's closing summary (capture_text.h). */
#include "report/capture_text.h"
#include "util/plural.h"
#include "util/table.h"
#include "banned.h"

void capture_print_summary(FILE *fp, const struct run_manifest *m)
{
	struct table t = TABLE_INIT;

	table_columns(&t, "run|exit status|seconds|kernels captured|events|capture errors", "lrrrrr");
	table_row(&t);
	table_cell(&t, "%s", m->run_dir);
	table_cell(&t, "%lld", m->exit_status);
	table_cell(&t, "%.1f", m->duration_s);
	table_cell(&t, "%lld", m->capture.kernel_dirs);
	table_cell(&t, "%lld", m->capture.events);
	table_cell(&t, "%lld", m->capture.errors);
	fputc('\n', fp);
	table_print(&t, fp);
	table_release(&t);
	if (m->log_lines_not_shown != RF_I64_NONE && m->log_lines_not_shown > 0)
		fprintf(fp, "%lld line%s of Inductor/Triton logging %s in %s/log/model.log only "
			"('tko -v capture' shows %s)\n", m->log_lines_not_shown,
			plural(m->log_lines_not_shown), plural_word(m->log_lines_not_shown, "is", "are"),
			m->run_dir, plural_word(m->log_lines_not_shown, "it", "them"));
}
