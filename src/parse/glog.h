/*
 * Splitting the glog-style prefix that PyTorch's TORCH_LOGS handler puts
 * on every line:
 *
 *	V1202 15:29:31.668000 475 torch/_inductor/runtime/triton_heuristics.py:373] [0/0] CachingAutotuner gets ...
 *	^level/date ^time      ^pid/thread ^source location              ^compile id ^message
 *
 * (corpus/h200-run1/log_profile.txt). The compile id ("[0/0]", "[1/0_1]",
 * "[!0/0]" for compiled autograd) is present only for lines logged while
 * Dynamo compiles a frame; runtime lines (benchmarks) have none. Each line
 * of a multi-line message carries the same prefix.
 */
#ifndef TKO_PARSE_GLOG_H
#define TKO_PARSE_GLOG_H

#include <stddef.h>

struct glog_line {
	char level;		/* 'V' 'D' 'I' 'W' 'E' 'F', or 0 when the line has no prefix */
	const char *where;	/* "torch/_inductor/graph.py:2522" (empty without prefix) */
	size_t where_len;
	const char *compile_id;	/* "0/0" without brackets, or empty */
	size_t compile_id_len;
	const char *msg;	/* the message: the whole line when there is no prefix */
	size_t msg_len;
};

/* Splits s[0..n); returns 1 when a glog prefix was found, else 0. */
int glog_split(const char *s, size_t n, struct glog_line *out);

#endif
