/*
 * Fuzzes the Python lexer's string and name boundaries (parse/pylex.c) at
 * every offset of the input, as pysrc.c and pylit.c call them.
 */
#include "fuzz.h"
#include "parse/pylex.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	size_t pos = 0, line, col;

	while (pos < size) {
		struct pylex_str st;
		size_t next = pos + 1;

		if (pylex_string_at(s, size, pos, &st)) {
			pylex_string_close(s, size, &st);
			if (st.end > pos && st.end <= size)
				next = st.end;
		} else if (pylex_ident_start((unsigned char)s[pos])) {
			next = pylex_ident_end(s, size, pos);
			if (next <= pos)
				next = pos + 1;
		}
		pos = next;
	}
	pylex_count_lines(s, 0, size);
	pylex_where(s, size, &line, &col);
	return 0;
}
