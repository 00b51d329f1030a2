/*
 * kernel_uses: how a kernel of kernel.py uses its arguments, in the plain
 * struct model/traffic.h counts a launch's bytes from (struct
 * traffic_source): per argument, the loads, stores and atomics whose
 * pointer starts from it (triton_meta.h) and those of them that go
 * through a loaded index (tl_addr.h). model/ ranks below parse/ and
 * cannot read Python; its callers pass kernel_uses_read() in.
 *
 *	if (traffic_of_files(&t, cap_json, kernel_py, kernel_uses_read, &err) == 0) ...
 */
#ifndef TKO_PARSE_KERNEL_USES_H
#define TKO_PARSE_KERNEL_USES_H

#include "model/traffic.h"

struct meta_kernel;

/* Adds the uses of mk's arguments to *s. */
void kernel_uses_of(struct traffic_source *s, const struct meta_kernel *mk);

/*
 * Reads kernel_py and fills *s with the uses of kernel `kernel` (the first
 * kernel when NULL): 1, or 0 when the file is missing, unreadable or holds
 * no such kernel. A traffic_reader (model/traffic.h).
 */
int kernel_uses_read(struct traffic_source *s, const char *kernel_py, const char *kernel);

#endif
