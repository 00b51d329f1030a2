/* A kernel's argument uses for model/traffic (kernel_uses.h). */
#include <stdlib.h>
#include <string.h>

#include "parse/kernel_uses.h"
#include "parse/triton_meta.h"
#include "util/file.h"
#include "banned.h"

void kernel_uses_of(struct traffic_source *s, const struct meta_kernel *mk)
{
	size_t i;

	/* the first of a name wins, as meta_kernel_arg() and tl_addr_indirect_of() find it */
	for (i = 0; i < mk->nargs; i++) {
		const struct meta_arg *m = &mk->args[i];
		struct traffic_use *u;

		if (traffic_source_get(s, m->name))
			continue;
		u = traffic_source_add(s, m->name);
		u->loads = m->loads;
		u->stores = m->stores;
		u->atomics = m->atomics;
	}
	for (i = 0; i < mk->addr.nindirect; i++) {
		const struct tl_addr_indirect *ind = &mk->addr.indirect[i];
		struct traffic_use *u = traffic_source_add(s, ind->param);

		if (u->indirect)
			continue;
		u->indirect = 1;
		u->gathers = ind->gathers;
		u->scatters = ind->scatters;
		u->atomic_scatters = ind->atomics;
	}
}

int kernel_uses_read(struct traffic_source *s, const char *kernel_py, const char *kernel)
{
	struct meta_kernel_list l = META_KERNEL_LIST_INIT;
	struct buf src = BUF_INIT, err = BUF_INIT;
	const struct meta_kernel *k = NULL;
	size_t i;

	if (is_file(kernel_py) && file_read(kernel_py, 64 << 20, &src, &err) == 0 &&
	    triton_meta_scan(&l, kernel_py, src.buf, src.len, 0, &err) > 0)
		for (i = 0; i < l.nr && !k; i++)
			if (!kernel || !strcmp(l.v[i]->name, kernel))
				k = l.v[i];
	if (k)
		kernel_uses_of(s, k);
	meta_kernel_list_release(&l);
	buf_release(&src);
	buf_release(&err);
	return k != NULL;
}
