/*
 * fx_graph: where the nodes of TorchInductor's post-grad FX graphs came
 * from in the user's code, read from a TORCH_LOGS=+inductor log. Each
 * graph is logged before it is compiled, every line under the same glog
 * prefix and the tag [__post_grad_graphs]:
 *
 *	... compile_fx.py:1346] [0/0] [__post_grad_graphs] TRACED GRAPH
 *	...         # File: /work/main/tests/gpu/model.py:37 in scatter, code: out.index_add_(0, index, src)
 *	...         index_put: "f32[5000, 256][256, 1]cuda:0" = torch.ops.aten.index_put_.default(...)
 *
 * and followed, once compiled, by "Output code written to: <wrapper>.py"
 * with the same compile id (examples/h200-run/log/model.log). So the
 * k-th graph is the one whose wrapper module the next such line names,
 * and a kernel's FX nodes (from its wrapper's "Source node to ATen node
 * mapping" comments, meta.h) lead to the user's file, line and code.
 *
 * Entry point: fx_graphs_scan() over a log's text; fx_graphs_find() by
 * wrapper path; fx_graph_origin() by node name.
 */
#ifndef TKO_PARSE_FX_GRAPH_H
#define TKO_PARSE_FX_GRAPH_H

#include <stddef.h>

#include "util/strmap.h"

struct fx_origin {
	char *file;		/* the user's file */
	long line;		/* its line */
	char *function;		/* "forward", or NULL */
	char *code;		/* the code the log quotes, or NULL */
};

struct fx_graph {
	char *compile_id;	/* "0/0", or NULL */
	char *wrapper;		/* the output code module it was compiled to, or NULL */
	struct fx_origin *origins;	/* distinct "# File:" comments, in order */
	size_t norigins, origins_alloc;
	struct strmap nodes;	/* node name -> 1 + index into origins (0: no stack trace) */
};

struct fx_graphs {
	struct fx_graph *v;
	size_t nr, alloc;
};
#define FX_GRAPHS_INIT { NULL, 0, 0 }

/* Appends the graphs logged in s[0..n) to g; returns how many were found. */
size_t fx_graphs_scan(struct fx_graphs *g, const char *s, size_t n);

/* The graph whose wrapper has the same last two path parts as `wrapper`, or NULL. */
const struct fx_graph *fx_graphs_find(const struct fx_graphs *g, const char *wrapper);

/* Where node `name` came from, or NULL. */
const struct fx_origin *fx_graph_origin(const struct fx_graph *gr, const char *name);

void fx_graphs_release(struct fx_graphs *g);

#endif
