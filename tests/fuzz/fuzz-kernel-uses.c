/*
 * Fuzzes the bytes of a launch counted with its kernel's source, as tko run,
 * tko tune and tko investigate count them: the input is a captured kernel
 * directory's kernel.py. parse/kernel_uses.c reads it (triton_meta, tl_addr)
 * and model/traffic.c charges the arguments by those uses. The capture.json
 * beside it is made here from the first kernel's parameters, so that every
 * name the source uses is an argument: tensors of a few shapes, some of them
 * views of one storage and one written by Inductor's mutated_arg_names, and
 * the *numel sizes a gather's bound is taken from.
 */
#include <string.h>

#include "fuzz.h"
#include "model/capture.h"
#include "model/traffic.h"
#include "parse/kernel_uses.h"
#include "parse/triton_meta.h"
#include "banned.h"

static int is_numel(const char *name)
{
	size_t n = strlen(name);

	return n >= 5 && !strcmp(name + n - 5, "numel");
}

/* Argument i named `name`: a size when the name says so, else a tensor. */
static json_t *arg_of(const char *name, size_t i)
{
	if (is_numel(name))
		return json_pack("{s:s, s:s, s:I}", "name", name, "kind", "int", "value",
				 (json_int_t)(64 + i));
	/* row-major, broadcast (stride 0) and offset views; storages 0..2 shared */
	return json_pack("{s:s, s:s, s:[I, I], s:[I, I], s:I, s:I, s:I}", "name", name,
			 "kind", "tensor", "shape", (json_int_t)8, (json_int_t)(16 + i),
			 "stride", (json_int_t)(i % 3 == 1 ? 0 : 16 + i), (json_int_t)1,
			 "storage_offset", (json_int_t)(i % 2 ? 16 : 0),
			 "element_size", (json_int_t)(i % 2 ? 2 : 4), "storage", (json_int_t)(i % 3));
}

/* capture.json for kernel mk: its parameters as arguments, the last one mutated. */
static json_t *capture_of(const struct meta_kernel *mk)
{
	json_t *args = json_array(), *mutated = json_array();
	size_t i;

	for (i = 0; i < mk->nparams; i++)
		if (mk->args[i].name)
			json_array_append_new(args, arg_of(mk->args[i].name, i));
	if (mk->nparams && mk->args[mk->nparams - 1].name)
		json_array_append_new(mutated, json_string(mk->args[mk->nparams - 1].name));
	return json_pack("{s:s, s:o, s:o, s:f}", "kernel", mk->name, "args", args,
			 "mutated_arg_names", mutated, "inductor_num_bytes", 4096.0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct meta_kernel_list l = META_KERNEL_LIST_INIT;
	struct buf err = BUF_INIT;
	const char *py = fuzz_write_input("kernel.py", data, size);

	if (triton_meta_scan(&l, py, (const char *)data, size, 0, &err) > 0) {
		json_t *cap = capture_of(l.v[0]);
		struct capture_doc doc;
		struct traffic t;
		char *doubt;

		/* NULL: a name that is not UTF-8, which no capture.json can hold */
		capture_init(&doc);
		if (cap && capture_read(&doc, cap, "capture.json", &err) == 0) {
			traffic_of_capture(&t, &doc, py, kernel_uses_read);
			doubt = traffic_rate_doubt(&t, traffic_gbps(t.bytes, 0.01), 1000.0);
			free(doubt);
			traffic_release(&t);
		}
		capture_release(&doc);
		json_decref(cap);
	}
	meta_kernel_list_release(&l);
	buf_release(&err);
	return 0;
}
