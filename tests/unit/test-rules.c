/*
 * Unit tests for decide/rules: every rule of the table, table-driven.
 *
 * A kernel row is a kernels.json kernel (single quotes for double) read
 * over a base kernel that is timed (1 ms, 1 launch) and hot (share 0.5),
 * with everything else unknown; the run's peak is 4000 GB/s. The row
 * states every rule that fires, in order (the first decides), the
 * decision, a piece of the action and one number of the deciding rule.
 * Whole-step rows are a run (profile and step groups) the same way.
 * Expected values come from docs/rules.md and the numbers chosen in the
 * row, worked out by hand; the rows named by a limit sit on either side
 * of it (tests check that every limit has both).
 *
 * The test also checks docs/rules.md against the table: the generated
 * blocks (limits, rule index) and one heading per rule in table order.
 * `make rules-doc` rewrites the generated blocks (test-rules --write-docs).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "decide/rules.h"
#include "model/analysis_desc.h"
#include "util/buf.h"
#include "util/file.h"
#include "util/mem.h"

struct row {
	const char *what;	/* what it shows */
	const char *limit;	/* the limit it sits at, or NULL */
	const char *kernel;	/* kernels.json keys over the base kernel */
	const char *fired;	/* every rule that fires, in order */
	enum decision decision;
	const char *action;	/* a piece of the action */
	const char *ev;		/* "key=value" of the first rule's numbers, or NULL */
	const char *peer;	/* another kernel of the run, or NULL */
};

#define ISA_PTX "'file': 'k.ptx', 'isa': 'ptx'"
#define ISA_AMD "'file': 'k.amdgcn', 'isa': 'amdgcn'"
#define ORIGIN "'origins': [{'file': 'model.py', 'line': 37, 'function': 'forward'}]"
#define TUNE_FILE "'file': 'tune/sm_90/tune.json'"
/* a tune result with n correct variants whose winner is the base */
#define FOUND_NOTHING(n) TUNE_FILE ", 'winner': 'base', 'speedup': 1.0, 'variants': 12," \
	" 'correct': " #n ", 'winner_is_base': true"
#define FLAT(t2) "'configs': [{'text': 'XBLOCK=1024', 'method': 'benchmark', 'time_ms': 1.0," \
	" 'chosen': true}, {'text': 'XBLOCK=512', 'method': 'benchmark', 'time_ms': " t2 "}]"

static const struct row rows[] = {
	/* the base alone, and hotness */
	{ "a hot kernel nothing explains", NULL, "{}",
	  "hot", DECISION_TUNE, "tune it: try block sizes and num_warps first", "share=0.5", NULL },
	{ "a hot foreach kernel: tune sweeps num_warps, it has no block to try", NULL,
	  "{'kind': 'foreach'}",
	  "hot", DECISION_TUNE, "tune it: try num_warps (the block size is fixed in the kernel's body)",
	  "share=0.5", NULL },
	{ "under hot_share", "hot_share", "{'share': 0.0199}",
	  "not_hot", DECISION_LEAVE, "leave it alone: it takes 1.99% of the measured kernel time,"
	  " under the 2% that makes a kernel hot", "hot_share=0.02", NULL },
	{ "at hot_share", "hot_share", "{'share': 0.02}",
	  "hot", DECISION_TUNE, "tune it", "share=0.02", NULL },
	{ "timed but no share: nothing fires", NULL, "{'share': null}",
	  "no_finding", DECISION_LEAVE, "leave it alone: no rule found a reason to act", NULL, NULL },
	{ "cold beats the tune rules", NULL, "{'share': 0.01, 'isa': {'resources': {'spills': 3}}}",
	  "not_hot spills", DECISION_LEAVE, "leave it alone: it takes 1.00%", "share=0.01", NULL },
	{ "a cold kernel's atomics are no reason", NULL,
	  "{'share': 0.01, 'isa': {" ISA_PTX ", 'atomics': 2, 'atomics_returning': 0}}",
	  "not_hot", DECISION_LEAVE, "leave it alone", NULL, NULL },
	/* measure first */
	{ "no time", NULL, "{'time_ms': null, 'share': null}",
	  "no_time", DECISION_MEASURE, "measure it first (see the gaps), then decide",
	  "configs_timed=0", NULL },
	{ "no time, and the others still listed", NULL,
	  "{'time_ms': null, 'share': null, 'chosen_by': 'single_config', 'configs_timed': 0}",
	  "no_time no_autotune", DECISION_MEASURE, "measure it first", "configs_timed=0", NULL },
	{ "no time, atomics listed", NULL, "{'time_ms': null, 'share': null, 'isa': {" ISA_PTX
	  ", 'atomics': 2, 'atomics_returning': 0}}",
	  "no_time atomic_scatter", DECISION_MEASURE, "measure it first", NULL, NULL },
	/* leave it alone */
	{ "only stores", NULL, "{'src_loads': 0, 'src_stores': 2, 'src_atomics': 0}",
	  "init_only", DECISION_LEAVE, "leave it alone: its source stores (2 tl.store) and never"
	  " loads", "tl.store=2", NULL },
	{ "stores and an atomic: not init_only", NULL,
	  "{'src_loads': 0, 'src_stores': 2, 'src_atomics': 1}",
	  "atomic_scatter", DECISION_REWRITE, "rewrite the model code at k: fewer conflicting",
	  "tl.atomic=1",
	  NULL },
	{ "only zeros, with the consumer", NULL, "{'src_loads': 0, 'src_stores': 2, 'src_atomics': 0,"
	  " 'addr': {'stores': 2, 'zero_stores': 2, 'zero_consumer': 'triton_poi_fused_add_1"
	  " (wrapper line 215, argument buf0)'}, " ORIGIN "}",
	  "zero_init init_only", DECISION_REWRITE, "move the initialisation into its consumer,"
	  " triton_poi_fused_add_1 (wrapper line 215, argument buf0): let that kernel write",
	  "zero_stores=2", NULL },
	{ "only zeros: the model line", NULL, "{'src_loads': 0, 'src_stores': 2, 'src_atomics': 0,"
	  " 'addr': {'stores': 2, 'zero_stores': 2}, " ORIGIN "}",
	  "zero_init init_only", DECISION_REWRITE, "move the initialisation into its consumer: let"
	  " that kernel write every element itself (an out-of-place op instead of torch.zeros"
	  " followed by index_add_/scatter_add_, or a reduction that starts from 0); this launch and"
	  " a full write of the buffer go away (model code at model.py:37 in forward)", NULL, NULL },
	{ "one store of two a zero", NULL, "{'src_loads': 0, 'src_stores': 2, 'src_atomics': 0,"
	  " 'addr': {'stores': 2, 'zero_stores': 1}}",
	  "init_only", DECISION_LEAVE, "leave it alone", NULL, NULL },
	{ "a copy under small_bytes", "small_bytes", "{'aten': ['aten.clone', 'aten.view'],"
	  " 'src_loads': 1, 'src_stores': 1, 'bytes': 1048575}",
	  "small_copy", DECISION_LEAVE, "leave it alone: it only copies (aten.clone) 1024 KiB",
	  "small_bytes=1048576", NULL },
	{ "a copy of small_bytes", "small_bytes", "{'aten': ['aten.clone', 'aten.view'],"
	  " 'src_loads': 1, 'src_stores': 1, 'bytes': 1048576}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "a copy next to a computing op", NULL, "{'aten': ['aten.clone', 'aten.add'],"
	  " 'src_loads': 1, 'src_stores': 1, 'bytes': 1024}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "at near_peak", "near_peak", "{'peak_fraction': 0.80, 'gbps': 3200}",
	  "near_peak", DECISION_LEAVE, "it moves its bytes at 3200 GB/s, 80% of the measured 4000"
	  " GB/s copy rate", "peak_fraction=0.8", NULL },
	{ "under near_peak", "near_peak", "{'peak_fraction': 0.7999, 'gbps': 3199.6}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "at over_peak", "over_peak", "{'peak_fraction': 1.05, 'gbps': 4200}",
	  "near_peak", DECISION_LEAVE, "105% of the measured", "peak_gbps=4000", NULL },
	{ "over over_peak: the bytes overstate", "over_peak",
	  "{'peak_fraction': 1.0501, 'gbps': 4200.4}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	/* keep TorchInductor off */
	{ "a GEMM with tl.dot and no matrix instructions", NULL, "{'aten': ['aten.mm'],"
	  " 'src_dot': 1, 'isa': {" ISA_AMD ", 'matrix_ops': 0}, " ORIGIN "}",
	  "scalarised_gemm", DECISION_KEEP_OFF, "keep TorchInductor off this region: put the code"
	  " at model.py:37 in forward in a function decorated with torch._dynamo.disable",
	  "matrix_ops=0", NULL },
	{ "a GEMM as a reduction, no origin: the module", NULL, "{'aten': ['aten.addmm'],"
	  " 'kind': 'reduction', 'module': 'cache/ab/kab.py', 'isa': {" ISA_AMD ", 'matrix_ops': 0}}",
	  "scalarised_gemm", DECISION_KEEP_OFF, "put the code at cache/ab/kab.py in a function",
	  "tl.dot=0", NULL },
	{ "a GEMM with matrix instructions", NULL, "{'aten': ['aten.mm'], 'src_dot': 1,"
	  " 'isa': {" ISA_AMD ", 'matrix_ops': 8}}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "a pointwise epilogue naming addmm", NULL, "{'aten': ['aten.addmm'], 'kind': 'pointwise',"
	  " 'src_dot': 0, 'isa': {" ISA_AMD ", 'matrix_ops': 0}}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "configs alike far below the peak", "far_fraction",
	  "{'peak_fraction': 0.2499, 'gbps': 999.6, " FLAT("1.04") "}",
	  "flat_configs", DECISION_KEEP_OFF, "tuning will not help: A/B the whole step with"
	  " TorchInductor kept off the smallest region around k (that code", "configs_timed=2",
	  NULL },
	{ "configs alike at far_fraction", "far_fraction",
	  "{'peak_fraction': 0.25, 'gbps': 1000, " FLAT("1.04") "}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "configs within flat_spread", "flat_spread",
	  "{'peak_fraction': 0.1, 'gbps': 400, " FLAT("1.04") "}",
	  "flat_configs", DECISION_KEEP_OFF, "tuning will not help", "spread=0.04", NULL },
	{ "configs beyond flat_spread", "flat_spread",
	  "{'peak_fraction': 0.1, 'gbps': 400, " FLAT("1.06") "}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	/* rewrite the model code */
	{ "atomics in the ISA", NULL, "{'src_atomics': 1, 'isa': {" ISA_PTX ", 'atomics': 2,"
	  " 'atomics_returning': 0}}",
	  "atomic_scatter", DECISION_REWRITE, "rewrite the model code at k: fewer conflicting"
	  " atomics (sort the indices and reduce segments, or make each output row one program's)",
	  "atomics=2", NULL },
	{ "tiny launches", "tiny_ms", "{'time_ms': 0.0099, 'launches': 100}",
	  "tiny_launch", DECISION_REWRITE, "rewrite the model code at k: batch the small calls into"
	  " one, or run the step under CUDA/HIP graphs (mode=\"reduce-overhead\")", "launches=100",
	  NULL },
	{ "launches of tiny_ms", "tiny_ms", "{'time_ms': 0.010, 'launches': 100}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "tiny_launches", "tiny_launches", "{'time_ms': 0.0099, 'launches': 100}",
	  "tiny_launch", DECISION_REWRITE, "batch the small calls", "time_ms=0.0099", NULL },
	{ "under tiny_launches", "tiny_launches", "{'time_ms': 0.0099, 'launches': 99}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "two signatures", NULL, "{'signatures': 2}",
	  "shape_specialised", DECISION_REWRITE, "rewrite the model code at k: fix the shapes (pad"
	  " to a few sizes) or mark the varying dimension dynamic (torch._dynamo.mark_dynamic)",
	  "signatures=2", NULL },
	{ "one signature", NULL, "{'signatures': 1}", "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "the same code in two graphs", NULL,
	  "{'graph': '0/0', 'origins': [{'file': 'model.py', 'line': 37}]}",
	  "shape_specialised", DECISION_REWRITE, "rewrite the model code at model.py:37: fix the"
	  " shapes", "graphs=2",
	  "{'id': 'k@2', 'name': 'k', 'graph': '1/0', 'origins': [{'file': 'model.py', 'line': 37}]}" },
	{ "the same code twice in one graph", NULL,
	  "{'graph': '0/0', 'origins': [{'file': 'model.py', 'line': 37}]}",
	  "hot", DECISION_TUNE, "tune it", NULL,
	  "{'id': 'k@2', 'name': 'k', 'graph': '0/0', 'origins': [{'file': 'model.py', 'line': 37}]}" },
	{ "an element gather", NULL, "{'addr': {'gathers': 1, 'gather_elems': 1, 'gather_line': 12}}",
	  "element_gather", DECISION_REWRITE, "rewrite the model code at k: gather whole contiguous"
	  " rows rather than single elements", "line=12", NULL },
	{ "a gather of rows", NULL, "{'addr': {'gathers': 1, 'gather_elems': 0, 'gather_line': 12}}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "a scattered store", NULL, "{'addr': {'scatters': 1, 'scatter_line': 20}}",
	  "scattered_store", DECISION_REWRITE, "rewrite the model code at k: write the rows in order",
	  "line=20", NULL },
	{ "strided lanes", NULL, "{'addr': {'strided': 1, 'strided_line': 9, 'strided_stride': 512}}",
	  "strided_lanes", DECISION_REWRITE, "rewrite the model code at k: produce the layout this"
	  " kernel walks", "stride=512", NULL },
	/* tune */
	{ "a tune winner at tune_gain", "tune_gain", "{'tune': {" TUNE_FILE ", 'winner': 'v3',"
	  " 'speedup': 1.02, 'variants': 5, 'correct': 4}}",
	  "tuned", DECISION_TUNE, "tune it: try apply tko tune's winner first", "speedup=1.02", NULL },
	{ "a tune winner under tune_gain", "tune_gain", "{'tune': {" TUNE_FILE ", 'winner': 'v3',"
	  " 'speedup': 1.0199, 'variants': 5, 'correct': 4}}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "a winner with a mix-order split", NULL, "{'tune': {" TUNE_FILE ", 'winner': 'v3',"
	  " 'speedup': 1.5, 'split_size': 4096}}",
	  "tuned", DECISION_TUNE, "apply tko tune's winner, its split with"
	  " torch._inductor.config.triton.mix_order_reduction_split_size = 4096", "speedup=1.5",
	  NULL },
	{ "a two-pass softmax winner", NULL, "{'tune': {" TUNE_FILE ", 'winner': 'twopass',"
	  " 'speedup': 1.8, 'online_softmax_off': true}}",
	  "tuned", DECISION_TUNE, "apply tko tune's winner: its two-pass softmax is"
	  " torch._inductor.config.online_softmax = False", NULL, NULL },
	{ "an online softmax over a looped row", NULL,
	  "{'kind': 'reduction', 'aten': ['prims.prepare_softmax_online']}",
	  "online_softmax", DECISION_TUNE, "tune it: try tko tune (its twopass variant), or"
	  " torch._inductor.config.online_softmax = False first", NULL, NULL },
	{ "an online softmax tko tune has seen", NULL, "{'kind': 'reduction',"
	  " 'aten': ['prims.prepare_softmax_online'], 'tune': {" TUNE_FILE ", 'winner': 'base',"
	  " 'speedup': 1.0}}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	/* issue 17: rules follow what tko tune measured, and name the row length */
	{ "twopass timed at 0.87x: not recommended, and said", NULL, "{'kind': 'reduction',"
	  " 'aten': ['prims.prepare_softmax_online'], 'tune': {" TUNE_FILE ", 'winner': 'base',"
	  " 'speedup': 1.0, 'twopass_speedup': 0.87}}",
	  "twopass_slower", DECISION_LEAVE, "leave it alone: tko tune timed the two-pass softmax on"
	  " this kernel's inputs at 0.87x of the online one", "twopass_speedup=0.87", NULL },
	{ "twopass timed at 1.00x: no rule about it", NULL, "{'kind': 'reduction',"
	  " 'aten': ['prims.prepare_softmax_online'], 'tune': {" TUNE_FILE ", 'winner': 'base',"
	  " 'speedup': 1.0, 'twopass_speedup': 1.0}}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "a 50257-long row with narrow accesses: pad it", "row_multiple", "{'kind': 'reduction',"
	  " 'args': [{'name': 'r0_numel', 'value': '50257'}], 'isa': {" ISA_PTX ", 'mem_ops': 4,"
	  " 'mem_wide': 0, 'vector_share': 0}, " ORIGIN "}",
	  "row_alignment narrow_access", DECISION_REWRITE, "rewrite the model code at model.py:37"
	  " in forward: pad the reduced dimension from 50257 to 50304 (a multiple of 64), e.g. a"
	  " vocabulary of 50257 padded to 50304", "row_length=50257", NULL },
	{ "a 50272-long row (a multiple of 16): the ISA's own rule", "row_multiple",
	  "{'kind': 'reduction', 'args': [{'name': 'r0_numel', 'value': '50272'}], 'isa': {"
	  ISA_PTX ", 'mem_ops': 4, 'mem_wide': 0, 'vector_share': 0}}",
	  "narrow_access", DECISION_TUNE, "tl.multiple_of", NULL, NULL },
	{ "a 64-long row pads to itself: not fired", "row_pad", "{'kind': 'reduction',"
	  " 'args': [{'name': 'rnumel', 'value': '64'}], 'isa': {" ISA_PTX ", 'mem_ops': 4,"
	  " 'mem_wide': 0, 'vector_share': 0}}",
	  "narrow_access", DECISION_TUNE, "a larger XBLOCK", NULL, NULL },
	{ "a 65-long row pads to 128", "row_pad", "{'kind': 'persistent_reduction',"
	  " 'args': [{'name': 'rnumel', 'value': '65'}], 'isa': {" ISA_PTX ", 'mem_ops': 4,"
	  " 'mem_wide': 0, 'vector_share': 0}}",
	  "row_alignment narrow_access", DECISION_REWRITE, "from 65 to 128 (a multiple of 64)",
	  "padded=128", NULL },
	{ "hints that changed no ISA: the row, not hints", NULL, "{'kind': 'reduction',"
	  " 'args': [{'name': 'r0_numel', 'value': '50257'}], 'tune': {" TUNE_FILE ","
	  " 'winner': 'base', 'speedup': 1.0, 'hints_variants': 2, 'hints_same_isa': 2}}",
	  "row_alignment", DECISION_REWRITE, "pad the reduced dimension from 50257 to 50304",
	  "row_length=50257", NULL },
	{ "hints that changed no ISA are not advised for narrow accesses", NULL, "{'kind': 'pointwise',"
	  " 'isa': {" ISA_PTX ", 'mem_ops': 4, 'mem_wide': 0, 'vector_share': 0}, 'tune': {"
	  TUNE_FILE ", 'winner': 'base', 'speedup': 1.0, 'hints_variants': 3, 'hints_same_isa': 3}}",
	  "narrow_access", DECISION_TUNE, "tune it: try a larger XBLOCK per thread (not"
	  " tl.multiple_of / tl.max_contiguous: tko tune's hints variants compiled to the same ISA"
	  " as without them) first", NULL, NULL },
	{ "one hints variant of three changed the ISA: hints still advised", NULL,
	  "{'kind': 'pointwise', 'isa': {" ISA_PTX ", 'mem_ops': 4, 'mem_wide': 0,"
	  " 'vector_share': 0}, 'tune': {" TUNE_FILE ", 'winner': 'base', 'speedup': 1.0,"
	  " 'hints_variants': 3, 'hints_same_isa': 2}}",
	  "narrow_access", DECISION_TUNE, "tl.multiple_of / tl.max_contiguous on offsets (tko"
	  " tune's hints variant)", NULL, NULL },
	{ "// and % where hints changed no ISA", NULL, "{'addr': {'loads': 2, 'stores': 1,"
	  " 'divmod': 2, 'divmod_line': 30}, 'isa': {" ISA_AMD ", 'mem_ops': 4, 'mem_wide': 1,"
	  " 'mem_narrow': 3, 'vector_share': 0.25}, 'tune': {" TUNE_FILE ", 'winner': 'base',"
	  " 'speedup': 1.0, 'hints_variants': 1, 'hints_same_isa': 1}}",
	  "divmod_offsets narrow_access", DECISION_TUNE, "reshape in the model); not"
	  " tl.multiple_of hints", NULL, NULL },
	{ "a persistent online softmax", NULL,
	  "{'kind': 'persistent_reduction', 'aten': ['prims.prepare_softmax_online']}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "a variant failed with a known signature", NULL, "{'tune': {" TUNE_FILE ","
	  " 'failure': 'bufops: the stack cannot lower buffer ops', 'buffer_ops_failed': true}}",
	  "tune_failure", DECISION_TUNE, "keep AMDGCN_USE_BUFFER_OPS off on this stack",
	  "buffer_ops_failed=1", NULL },
	{ "spilled registers", NULL, "{'isa': {'resources': {'spills': 1}}}",
	  "spills", DECISION_TUNE, "tune it: try smaller block sizes, more num_warps, fewer"
	  " num_stages first", "spills=1", NULL },
	{ "scratch bytes", NULL, "{'isa': {'resources': {'spills': 0, 'scratch_bytes': 4}}}",
	  "spills", DECISION_TUNE, "smaller block sizes", "scratch_bytes=4", NULL },
	{ "no spills", NULL, "{'isa': {'resources': {'spills': 0, 'scratch_bytes': 0}}}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "// and % with narrow accesses", NULL, "{'addr': {'loads': 2, 'stores': 1, 'divmod': 2,"
	  " 'divmod_line': 30}, 'isa': {" ISA_AMD ", 'mem_ops': 4, 'mem_wide': 1, 'mem_narrow': 3,"
	  " 'vector_share': 0.25}}",
	  "divmod_offsets narrow_access", DECISION_TUNE, "(tko tune's hints variant); a larger"
	  " XBLOCK per thread", "divmod_accesses=2", NULL },
	{ "// and % with wide accesses", NULL, "{'addr': {'loads': 2, 'stores': 1, 'divmod': 2},"
	  " 'isa': {" ISA_AMD ", 'mem_ops': 4, 'mem_wide': 2, 'vector_share': 0.5}}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "under narrow_share", "narrow_share", "{'isa': {" ISA_AMD ", 'mem_ops': 10000,"
	  " 'mem_wide': 4999, 'vector_share': 0.4999}}",
	  "narrow_access", DECISION_TUNE, "a larger XBLOCK per thread, tl.multiple_of /"
	  " tl.max_contiguous on offsets", "mem_ops=10000", NULL },
	{ "at narrow_share", "narrow_share", "{'isa': {" ISA_AMD ", 'mem_ops': 4, 'mem_wide': 2,"
	  " 'vector_share': 0.5}}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "narrow_min_ops narrow accesses", "narrow_min_ops", "{'isa': {" ISA_AMD ", 'mem_ops': 4,"
	  " 'mem_wide': 0, 'vector_share': 0}}",
	  "narrow_access", DECISION_TUNE, "a larger XBLOCK", "vector_share=0", NULL },
	{ "under narrow_min_ops", "narrow_min_ops", "{'isa': {" ISA_AMD ", 'mem_ops': 3,"
	  " 'mem_wide': 0, 'vector_share': 0}}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "global ops, no pointer range", NULL, "{'kind': 'pointwise', 'isa': {" ISA_AMD ","
	  " 'global_ops': 4, 'buffer_ops': 0}, 'no_pointer_range': ['in_ptr0', 'out_ptr0']}",
	  "no_buffer_ops", DECISION_TUNE, "compile-probe buffer ops first",
	  "pointers_without_range=2", NULL },
	{ "global ops near the peak", NULL, "{'kind': 'pointwise', 'peak_fraction': 0.8,"
	  " 'gbps': 3200, 'isa': {" ISA_AMD ", 'global_ops': 4, 'buffer_ops': 0},"
	  " 'no_pointer_range': ['in_ptr0']}",
	  "near_peak", DECISION_LEAVE, "little is left to gain", NULL, NULL },
	{ "global ops after a failed buffer-op variant", NULL, "{'kind': 'pointwise',"
	  " 'isa': {" ISA_AMD ", 'global_ops': 4, 'buffer_ops': 0}, 'no_pointer_range': ['in_ptr0'],"
	  " 'tune': {" TUNE_FILE ", 'buffer_ops_failed': true}}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "a template's global ops", NULL, "{'kind': 'template', 'isa': {" ISA_AMD ","
	  " 'global_ops': 4, 'buffer_ops': 0}, 'no_pointer_range': ['in_ptr0']}",
	  "hot", DECISION_TUNE, "BLOCK_M/BLOCK_N/BLOCK_K, num_stages, num_warps", NULL, NULL },
	{ "at low_occupancy", "low_occupancy", "{'isa': {'resources': {'occupancy': 2,"
	  " 'vgprs': 128}}}",
	  "low_occupancy", DECISION_TUNE, "tune it: try num_warps, waves_per_eu, smaller blocks"
	  " first", "occupancy=2", NULL },
	{ "over low_occupancy", "low_occupancy", "{'isa': {'resources': {'occupancy': 3,"
	  " 'vgprs': 128}}}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "occupancy unknown", NULL, "{'isa': {'resources': {'vgprs': 128}}}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "low occupancy with matrix instructions", NULL, "{'isa': {'matrix_ops': 4,"
	  " 'resources': {'occupancy': 1}}}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "a slow pointwise kernel", "slow_fraction", "{'kind': 'pointwise', 'peak_fraction': 0.4999,"
	  " 'gbps': 1999.6}",
	  "slow_memory", DECISION_TUNE, "tune it: try XBLOCK, num_warps first", "peak_fraction=0.4999",
	  NULL },
	{ "a pointwise kernel at slow_fraction", "slow_fraction", "{'kind': 'pointwise',"
	  " 'peak_fraction': 0.5, 'gbps': 2000}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "a slow reduction", NULL, "{'kind': 'reduction', 'peak_fraction': 0.1,"
	  " 'gbps': 400}",
	  "slow_memory", DECISION_TUNE, "tune it: try R0_BLOCK, XBLOCK, num_warps first",
	  "gbps=400", NULL },
	{ "a slow kernel with tl.dot", NULL, "{'kind': 'pointwise', 'src_dot': 1,"
	  " 'peak_fraction': 0.1, 'gbps': 400}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "a config from the autotune cache", NULL, "{'chosen_by': 'cache_hit', 'configs_timed': 0}",
	  "no_autotune", DECISION_TUNE, "check Inductor's path before a sweep (its config came from"
	  " Inductor's autotune cache, so this run timed none: the sweep ran in an earlier process,"
	  " on that process's inputs): try an empty TORCHINDUCTOR_CACHE_DIR", "cache_hit=1", NULL },
	{ "a single config", NULL, "{'chosen_by': 'single_config', 'configs_timed': 0,"
	  " 'configs': [{'text': 'XBLOCK=1024', 'method': 'declared', 'chosen': true}]}",
	  "no_autotune", DECISION_TUNE, "(Inductor built it with 1 config, so nothing was timed",
	  "cache_hit=0", NULL },
	{ "a cache hit with more than few_configs timed", "few_configs",
	  "{'chosen_by': 'cache_hit', 'configs_timed': 2}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "few_configs timed", "few_configs", "{'chosen_by': 'benchmark', 'configs_timed': 1}",
	  "few_configs", DECISION_TUNE, "tune it: try block sizes and num_warps around the chosen"
	  " config (coordinate descent) first", "configs_timed=1", NULL },
	{ "more than few_configs timed", "few_configs", "{'chosen_by': 'benchmark',"
	  " 'configs_timed': 2}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "a template with few configs", NULL, "{'kind': 'template', 'chosen_by': 'max_autotune',"
	  " 'configs_timed': 1}",
	  "few_configs", DECISION_TUNE, "BLOCK_M/BLOCK_N/BLOCK_K, num_stages, num_warps", NULL, NULL },
	{ "few configs of a cold kernel", NULL, "{'share': 0.0199, 'chosen_by': 'benchmark',"
	  " 'configs_timed': 1}",
	  "not_hot", DECISION_LEAVE, "leave it alone", NULL, NULL },
	{ "a hot template", NULL, "{'kind': 'template'}",
	  "hot", DECISION_TUNE, "tune it: try BLOCK_M/BLOCK_N/BLOCK_K, num_stages, num_warps first",
	  NULL, NULL },
	{ "the knobs of every tune rule, in table order", NULL, "{'isa': {" ISA_AMD ", 'mem_ops': 8,"
	  " 'mem_wide': 0, 'vector_share': 0, 'resources': {'spills': 2, 'occupancy': 1,"
	  " 'vgprs': 256}}}",
	  "spills narrow_access low_occupancy", DECISION_TUNE, "tune it: try smaller block sizes,"
	  " more num_warps, fewer num_stages; a larger XBLOCK per thread, tl.multiple_of /"
	  " tl.max_contiguous on offsets (tko tune's hints variant); num_warps, waves_per_eu,"
	  " smaller blocks first", "spills=2", NULL },
	/* tko tune timed variants and the base stayed the winner (the H200 run of 2026-12-05) */
	{ "a template tune found nothing for: left alone", NULL, "{'kind': 'template',"
	  " 'chosen_by': 'max_autotune', 'configs_timed': 0, 'tune': {" FOUND_NOTHING(12)
	  ", 'wall_s': 30.92543562}}",
	  "tune_found_nothing", DECISION_LEAVE, "leave it alone: tko tune timed 12 variants (12"
	  " correct) in 30.9 s; none was faster than the config Inductor chose (the winner is the"
	  " base): its launch config needs no more search", "variants=12", NULL },
	{ "only the base correct: nothing compared, few_configs stays", NULL, "{'kind': 'template',"
	  " 'chosen_by': 'max_autotune', 'configs_timed': 0, 'tune': {" FOUND_NOTHING(1) "}}",
	  "few_configs", DECISION_TUNE, "BLOCK_M/BLOCK_N/BLOCK_K", NULL, NULL },
	{ "a winner that is not the base under tune_gain: still hot", NULL, "{'tune': {" TUNE_FILE
	  ", 'winner': 'v3', 'speedup': 1.01, 'variants': 5, 'correct': 5, 'winner_is_base': false}}",
	  "hot", DECISION_TUNE, "tune it", NULL, NULL },
	{ "found nothing: a hot kernel nothing else explains, no wall time", NULL,
	  "{'tune': {" FOUND_NOTHING(2) "}}",
	  "tune_found_nothing", DECISION_LEAVE, "tko tune timed 12 variants (2 correct); none was"
	  " faster", "correct=2", NULL },
	{ "found nothing: a single config, slow memory", NULL, "{'kind': 'reduction',"
	  " 'peak_fraction': 0.1, 'gbps': 400, 'chosen_by': 'single_config', 'configs_timed': 0,"
	  " 'tune': {" FOUND_NOTHING(12) "}}",
	  "tune_found_nothing", DECISION_LEAVE, "leave it alone: tko tune timed 12", NULL, NULL },
	{ "found nothing: a source change tune does not settle still decides", NULL,
	  "{'isa': {" ISA_AMD ", 'mem_ops': 8, 'mem_wide': 0, 'vector_share': 0, 'resources':"
	  " {'spills': 2, 'occupancy': 1, 'vgprs': 256}}, 'tune': {" FOUND_NOTHING(12) "}}",
	  "narrow_access tune_found_nothing", DECISION_TUNE, "tune it: try a larger XBLOCK per"
	  " thread, tl.multiple_of / tl.max_contiguous on offsets (tko tune's hints variant) first",
	  "mem_ops=8", NULL },
	{ "found nothing: a rewrite still decides", NULL, "{'src_atomics': 1, 'isa': {" ISA_PTX ","
	  " 'atomics': 2, 'atomics_returning': 0}, 'tune': {" FOUND_NOTHING(12) "}}",
	  "atomic_scatter tune_found_nothing", DECISION_REWRITE, "rewrite the model code at k",
	  "atomics=2", NULL },
	{ "found nothing on a cold kernel: not_hot decides", NULL, "{'share': 0.01,"
	  " 'tune': {" FOUND_NOTHING(12) "}}",
	  "not_hot tune_found_nothing", DECISION_LEAVE, "it takes 1.00%", NULL, NULL },
};

/* A whole-step row: a run's profile and groups; the first group's rules and the step's. */
struct step_row {
	const char *what;
	const char *limit;
	const char *run;	/* kernels.json keys of the run */
	const char *group;	/* the first group's rules, in order */
	enum decision decision;	/* its decision */
	const char *action;	/* a piece of its action, or NULL */
	const char *step;	/* the step rules that fire */
};

#define PROFILE(extra) "'profile': {'file': 'p.json', 'timeline': true, 'span_ms': 10," \
	" 'idle_ms': 0, 'busy_ms': 10" extra "}"
#define GEMM(kernel, dtype, share) "{'class': 'gemm', 'op': 'aten::mm', 'kernel': '" kernel "'," \
	" 'dtype': " dtype ", 'share': " share ", 'calls': 4}"

static const struct step_row step_rows[] = {
	{ "an fp32 GEMM at lib_share", "lib_share",
	  "{" PROFILE("") ", 'step_groups': [" GEMM("ampere_sgemm_128x64_nn", "'float'", "0.10") "]}",
	  "fp32_matmul mm_max_autotune", DECISION_REWRITE, "change the model's settings:"
	  " torch.set_float32_matmul_precision('high')", "" },
	{ "an fp32 GEMM under lib_share", "lib_share",
	  "{" PROFILE("") ", 'step_groups': [" GEMM("ampere_sgemm_128x64_nn", "'float'", "0.0999") "]}",
	  "", DECISION_NONE, NULL, "" },
	{ "an fp32 GEMM by its kernel name", NULL,
	  "{" PROFILE("") ", 'step_groups': [" GEMM("volta_sgemm_128x64_nn", "null", "0.2") "]}",
	  "fp32_matmul mm_max_autotune", DECISION_REWRITE, "change the model's settings", "" },
	{ "a TF32 GEMM is no fp32 GEMM", NULL, "{" PROFILE("") ", 'step_groups': ["
	  GEMM("sm80_xmma_gemm_tf32f32_tf32f32_f32_nn", "null", "0.2") "]}",
	  "mm_max_autotune", DECISION_TUNE, "try: torch.compile(mode='max-autotune')", "" },
	{ "a bf16 GEMM at library_bound", "library_bound", "{" PROFILE("") ", 'step_groups': ["
	  GEMM("sm90_xmma_gemm_bf16bf16_bf16f32", "'c10::BFloat16'", "0.5") "]}",
	  "mm_max_autotune", DECISION_TUNE, "try: torch.compile(mode='max-autotune') or"
	  " torch._inductor.config.max_autotune_gemm = True", "library_bound" },
	{ "a bf16 GEMM under library_bound", "library_bound", "{" PROFILE("") ", 'step_groups': ["
	  GEMM("sm90_xmma_gemm_bf16bf16_bf16f32", "'c10::BFloat16'", "0.4999") ","
	  " {'class': 'triton', 'kernel': 'triton_poi_fused_add_0', 'share': 0.5001}]}",
	  "mm_max_autotune", DECISION_TUNE, "try:", "" },
	{ "an mm template ran in the step", NULL, "{" PROFILE("") ", 'step_groups': ["
	  GEMM("sm90_xmma_gemm_bf16bf16_bf16f32", "'c10::BFloat16'", "0.6") ","
	  " {'class': 'triton', 'kernel': 'triton_tem_fused_mm_0', 'share': 0.4}]}",
	  "", DECISION_NONE, NULL, "library_bound" },
	{ "copies are not library time", NULL, "{" PROFILE("") ", 'step_groups': [{'class': 'memcpy',"
	  " 'kernel': 'Memcpy DtoD', 'share': 0.9}]}",
	  "", DECISION_NONE, NULL, "" },
	{ "fp32 attention", NULL, "{" PROFILE("") ", 'step_groups': [{'class': 'attention',"
	  " 'op': 'aten::_scaled_dot_product_efficient_attention',"
	  " 'kernel': 'fmha_cutlassF_f32_aligned_64x64_rf_sm80', 'dtype': 'float', 'share': 0.3}]}",
	  "fp32_attention attention_backend", DECISION_REWRITE, "change the model's settings:"
	  " torch.autocast(device_type='cuda', dtype=torch.bfloat16) around the attention", "" },
	{ "attention on the math backend", NULL, "{" PROFILE("") ", 'step_groups': [{'class':"
	  " 'attention', 'op': 'aten::_scaled_dot_product_attention_math', 'kernel':"
	  " 'softmax_warp_forward', 'dtype': 'c10::BFloat16', 'share': 0.3}]}",
	  "attention_backend", DECISION_TUNE, "try: with torch.nn.attention.sdpa_kernel", "" },
	{ "flash attention", NULL, "{" PROFILE("") ", 'step_groups': [{'class': 'attention',"
	  " 'op': 'aten::_flash_attention_forward', 'kernel': 'flash_fwd_kernel',"
	  " 'dtype': 'c10::BFloat16', 'share': 0.3}]}",
	  "", DECISION_NONE, NULL, "" },
	{ "idle at idle_fraction", "idle_fraction", "{'profile': {'file': 'p.json', 'timeline': true,"
	  " 'span_ms': 10, 'idle_ms': 3}}",
	  "", DECISION_NONE, NULL, "idle_gpu" },
	{ "idle under idle_fraction", "idle_fraction", "{'profile': {'file': 'p.json',"
	  " 'timeline': true, 'span_ms': 10, 'idle_ms': 2.99}}",
	  "", DECISION_NONE, NULL, "" },
	{ "idle, but no timeline", NULL, "{'profile': {'file': 'p.json', 'timeline': false,"
	  " 'span_ms': 10, 'idle_ms': 9}}",
	  "", DECISION_NONE, NULL, "" },
	{ "a profile that ends early", NULL, "{" PROFILE(", 'partial': true") "}",
	  "", DECISION_NONE, NULL, "partial_profile" },
	{ "no profile: no step rules", NULL, "{'step_groups': ["
	  GEMM("ampere_sgemm_128x64_nn", "'float'", "1.0") "]}",
	  "", DECISION_NONE, NULL, "" },
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))
#define NSTEP_ROWS (sizeof(step_rows) / sizeof(step_rows[0]))

/* The row's text as JSON: single quotes become double quotes. */
static json_t *row_json(const char *text)
{
	char *s = xstrdup(text), *p;
	json_error_t e;
	json_t *j;

	for (p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	j = json_loads(s, 0, &e);
	if (!j)
		fail_msg("bad row JSON (%s): %s", e.text, s);
	free(s);
	return j;
}

static void read_kernel(struct an_kernel *k, const char *text)
{
	json_t *j = json_pack("{s:s, s:s, s:f, s:i, s:f}", "id", "k", "name", "k", "time_ms", 1.0,
			      "launches", 1, "share", 0.5);
	json_t *over = row_json(text);
	struct buf err = BUF_INIT;

	json_object_update(j, over);
	an_kernel_init(k);
	if (rf_read(&an_kernel_desc, k, j, "row", &err) < 0)
		fail_msg("%s", err.buf);
	json_decref(over);
	json_decref(j);
	buf_release(&err);
}

static char *fired_names(const struct an_fired *v, size_t n)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < n; i++)
		buf_addf(&b, "%s%s", i ? " " : "", v[i].rule);
	return buf_detach(&b, NULL);
}

/* "key=value": the fired rule has that number. */
static void check_evidence(const char *what, const struct an_fired *f, const char *spec)
{
	const char *eq = strchr(spec, '=');
	double want = strtod(eq + 1, NULL);
	size_t i;

	for (i = 0; i < f->nev; i++)
		if (strlen(f->ev[i].key) == (size_t)(eq - spec) &&
		    !strncmp(f->ev[i].key, spec, (size_t)(eq - spec))) {
			if (fabs(f->ev[i].value - want) > 1e-9 * fmax(1, fabs(want)))
				fail_msg("%s: %s is %g", what, spec, f->ev[i].value);
			return;
		}
	fail_msg("%s: %s has no %s", what, f->rule, spec);
}

static void check_row(const struct row *w)
{
	struct an_run r;
	struct an_kernel *k;
	char *names;

	an_run_init(&r);
	r.peak_gbps = 4000;
	read_kernel(an_run_add_kernel(&r), w->kernel);
	if (w->peer)
		read_kernel(an_run_add_kernel(&r), w->peer);
	k = &r.kernels[0];
	rules_apply_kernel(&r, k, &rule_limits_default);
	names = fired_names(k->fired, k->nfired);
	if (strcmp(names, w->fired))
		fail_msg("%s: fired '%s', want '%s'", w->what, names, w->fired);
	if (k->decision != w->decision || k->fired[0].decision != w->decision)
		fail_msg("%s: decided %s", w->what, decision_name(k->decision));
	if (!strstr(k->action, w->action))
		fail_msg("%s: action '%s' lacks '%s'", w->what, k->action, w->action);
	if (w->ev)
		check_evidence(w->what, &k->fired[0], w->ev);
	free(names);
	an_run_release(&r);
}

static void test_kernel_rows(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NROWS; i++)
		check_row(&rows[i]);
}

static void check_step_row(const struct step_row *w)
{
	json_t *j = row_json(w->run);
	struct buf err = BUF_INIT;
	struct an_run r;
	char *g, *s;

	an_run_init(&r);
	if (rf_read(&an_run_desc, &r, j, "row", &err) < 0)
		fail_msg("%s", err.buf);
	rules_apply_step(&r, &rule_limits_default);
	g = r.nstep_groups ? fired_names(r.step_groups[0].fired, r.step_groups[0].nfired) :
	    xstrdup("");
	s = fired_names(r.step_rules, r.nstep_rules);
	if (strcmp(g, w->group) || strcmp(s, w->step))
		fail_msg("%s: group '%s', step '%s'; want '%s', '%s'", w->what, g, s, w->group,
			 w->step);
	if (r.nstep_groups && r.step_groups[0].decision != w->decision)
		fail_msg("%s: decided %s", w->what, decision_name(r.step_groups[0].decision));
	if (w->action && !strstr(r.step_groups[0].action, w->action))
		fail_msg("%s: action '%s' lacks '%s'", w->what, r.step_groups[0].action, w->action);
	if (!w->action && r.nstep_groups && r.step_groups[0].action)
		fail_msg("%s: an action without a rule", w->what);
	free(g);
	free(s);
	an_run_release(&r);
	json_decref(j);
	buf_release(&err);
}

static void test_step_rows(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NSTEP_ROWS; i++)
		check_step_row(&step_rows[i]);
}

static int word_in(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return 1;
	return 0;
}

/* Every rule fires in some row and every limit has a row on either side. */
static void test_rows_cover_the_table(void **state)
{
	const struct rule *t;
	size_t n, i, j;

	(void)state;
	t = rules_table(&n);
	for (i = 0; i < n; i++) {
		int seen = 0;

		for (j = 0; j < NROWS && !seen; j++)
			seen = word_in(rows[j].fired, t[i].name);
		for (j = 0; j < NSTEP_ROWS && !seen; j++)
			seen = word_in(step_rows[j].group, t[i].name) ||
			       word_in(step_rows[j].step, t[i].name);
		if (!seen)
			fail_msg("no row fires %s", t[i].name);
	}
	for (i = 0; i < rule_nlimits; i++) {
		size_t uses = 0;

		for (j = 0; j < NROWS; j++)
			uses += rows[j].limit && !strcmp(rows[j].limit, rule_limit_info[i].name);
		for (j = 0; j < NSTEP_ROWS; j++)
			uses += step_rows[j].limit &&
				!strcmp(step_rows[j].limit, rule_limit_info[i].name);
		if (uses < 2)
			fail_msg("limit %s has %zu rows, want one on each side", rule_limit_info[i].name,
				 uses);
	}
}

/* Actions the rows cannot reach: a tune decision with no knobs, a kernel with no origin or module. */
static void test_actions(void **state)
{
	struct an_fired f = { "hot", DECISION_TUNE, "it is hot", NULL, NULL, 0 };
	struct an_kernel k;
	char *s;

	(void)state;
	an_kernel_init(&k);
	k.name = xstrdup("triton_poi_fused_add_0");
	k.fired = &f;
	k.nfired = 1;
	s = rule_action(rule_find("hot"), &k, &f);
	assert_string_equal(s, "tune it: try block sizes and num_warps first");
	free(s);
	f.decision = DECISION_REWRITE;
	s = rule_action(rule_find("shape_specialised"), &k, &f);
	assert_string_equal(s, "rewrite the model code at triton_poi_fused_add_0: fix the shapes"
			    " (pad to a few sizes) or mark the varying dimension dynamic"
			    " (torch._dynamo.mark_dynamic)");
	free(s);
	f.decision = DECISION_MEASURE;
	s = rule_action(NULL, &k, &f);
	assert_string_equal(s, "measure it first (see the gaps), then decide");
	free(s);
	k.fired = NULL;
	k.nfired = 0;
	free(k.name);
}

/* The summaries with their limits written in, as docs/rules.md shows them. */
static void test_summaries(void **state)
{
	static const char *const want[][2] = {
		{ "not_hot", "under 2% of the measured kernel time" },
		{ "small_copy", "a copy of under 1 MiB: launch-bound" },
		{ "near_peak", "a rate from 80% to 105% of the measured copy rate" },
		{ "tiny_launch", "100 or more launches under 10 us each" },
		{ "flat_configs", "configs within 5% of each other, all under 25% of the peak" },
		{ "tuned", "tko tune found a correct variant at least 1.02x faster" },
		{ "narrow_access", "under 50% of 4 or more global/buffer accesses are 128-bit" },
		{ "low_occupancy", "AMD: 2 or fewer waves per SIMD, no matrix instructions" },
		{ "few_configs", "a hot kernel the autotuner timed 1 or fewer configs of" },
		{ "library_bound", "library groups hold at least 50% of the GPU busy time" },
		{ "idle_gpu", "the GPU is idle at least 30% of the profiled span" },
	};
	const struct rule *t;
	size_t n, i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char *s = rule_summary(rule_find(want[i][0]), &rule_limits_default);

		assert_string_equal(s, want[i][1]);
		free(s);
	}
	t = rules_table(&n);
	for (i = 0; i < n; i++) {
		char *s = rule_summary(&t[i], &rule_limits_default);
		struct an_kernel k;
		struct an_fired f = { NULL, t[i].decision, "why", "knobs", NULL, 0 };

		if (strchr(s, '{'))
			fail_msg("%s: summary '%s' names no limit", t[i].name, s);
		free(s);
		if (t[i].scope & RULE_STEP) {
			/* step rules only list what holds: they decide nothing */
			assert_null(t[i].action);
			continue;
		}
		an_kernel_init(&k);
		k.name = xstrdup("k");
		s = rule_action(&t[i], t[i].scope & RULE_GROUP ? NULL : &k, &f);
		if (strchr(s, '{'))
			fail_msg("%s: action '%s' has a placeholder left", t[i].name, s);
		free(s);
		free(k.name);
	}
}

/* The limits table matches struct rule_limits, and reads as docs/rules.md writes it. */
static void test_limits(void **state)
{
	static const char *const texts[] = {
		"2%", "80%", "105%", "50%", "10 us", "100", "50%", "4", "2", "1", "1.02x", "5%", "25%",
		"1 MiB", "10%", "50%", "30%", "16", "64",
	};
	size_t i;

	(void)state;
	assert_int_equal(rule_nlimits, sizeof(texts) / sizeof(texts[0]));
	assert_int_equal(sizeof(struct rule_limits),
			 rule_limit_info[rule_nlimits - 1].off + sizeof(long));
	for (i = 0; i < rule_nlimits; i++) {
		char *s = rule_limit_text(&rule_limits_default, &rule_limit_info[i]);

		assert_string_equal(s, texts[i]);
		free(s);
	}
	assert_int_equal(rule_limit_value(&rule_limits_default, &rule_limit_info[5]), 100);
	assert_string_equal(rule_limit_info[5].name, "tiny_launches");
}

/* The ISA-scoped rows: the three that judge the scanner's findings. */
static void test_isa_scope(void **state)
{
	struct rule_ctx c = { NULL, &rule_limits_default, NULL, 0 };
	struct an_run r;
	struct an_kernel *k;
	const struct rule *t;
	size_t n, i;
	char *names;

	(void)state;
	t = rules_table(&n);
	for (i = 0; i < n; i++)
		assert_int_equal(!!(t[i].scope & RULE_ISA), !strcmp(t[i].name, "narrow_access") ||
				 !strcmp(t[i].name, "spills") || !strcmp(t[i].name, "low_occupancy"));
	assert_string_equal(rule_find("narrow_access")->findings[1], "narrow_lines");
	an_run_init(&r);
	c.run = &r;
	k = an_run_add_kernel(&r);
	read_kernel(k, "{'share': null, 'time_ms': null, 'isa': {" ISA_AMD ", 'atomics': 3,"
		    " 'mem_ops': 8, 'mem_wide': 0, 'vector_share': 0, 'resources': {'spills': 2}}}");
	rules_fire(&c, k, RULE_ISA);
	names = fired_names(k->fired, k->nfired);
	assert_string_equal(names, "spills narrow_access");
	assert_int_equal(k->decision, DECISION_NONE);
	free(names);
	an_run_release(&r);
}

/* The generated parts of docs/rules.md: the limits and the rule index. */
static char *doc_limits(void)
{
	struct buf b = BUF_INIT;
	size_t i;

	buf_adds(&b, "| limit | default | meaning |\n| --- | ---: | --- |\n");
	for (i = 0; i < rule_nlimits; i++) {
		char *v = rule_limit_text(&rule_limits_default, &rule_limit_info[i]);

		buf_addf(&b, "| `%s` | %s | %s |\n", rule_limit_info[i].name, v, rule_limit_info[i].doc);
		free(v);
	}
	return buf_detach(&b, NULL);
}

static const char *scope_words(unsigned scope)
{
	if (scope & RULE_GROUP)
		return "step group";
	if (scope & RULE_STEP)
		return "step";
	if (scope & RULE_ISA)
		return "kernel (also `tko isa`)";
	if (scope & RULE_FALLBACK)
		return "kernel, when no other rule fired";
	return scope & RULE_RUN ? "kernel and run" : "kernel";
}

static char *doc_index(void)
{
	struct buf b = BUF_INIT;
	const struct rule *t;
	size_t n, i;

	t = rules_table(&n);
	buf_adds(&b, "| rule | decides | on | fires on |\n| --- | --- | --- | --- |\n");
	for (i = 0; i < n; i++) {
		char *s = rule_summary(&t[i], &rule_limits_default);

		buf_addf(&b, "| [`%s`](#%s) | %s | %s | %s |\n", t[i].name, t[i].name,
			 decision_name(t[i].decision), scope_words(t[i].scope), s);
		free(s);
	}
	return buf_detach(&b, NULL);
}

/* The RULE_ISA rows `tko isa` runs, with the scanner findings each one judges. */
static char *doc_isa(void)
{
	struct buf b = BUF_INIT;
	const struct rule *t;
	size_t n, i, j;

	t = rules_table(&n);
	buf_adds(&b, "| rule | findings it judges | fires on |\n| --- | --- | --- |\n");
	for (i = 0; i < n; i++) {
		char *s;

		if (!(t[i].scope & RULE_ISA))
			continue;
		s = rule_summary(&t[i], &rule_limits_default);
		buf_addf(&b, "| [`%s`](#%s) | ", t[i].name, t[i].name);
		for (j = 0; t[i].findings && t[i].findings[j]; j++)
			buf_addf(&b, "%s`%s`", j ? ", " : "", t[i].findings[j]);
		buf_addf(&b, " | %s |\n", s);
		free(s);
	}
	return buf_detach(&b, NULL);
}

static const char *const blocks[] = { "limits", "index", "isa" };

static char *doc_block(size_t i)
{
	return i == 2 ? doc_isa() : i ? doc_index() : doc_limits();
}

/* The whole of a file, or NULL. */
static char *slurp(const char *path)
{
	struct buf b = BUF_INIT, err = BUF_INIT;

	if (file_read(path, 1 << 20, &b, &err) < 0) {
		buf_release(&b);
		buf_release(&err);
		return NULL;
	}
	buf_release(&err);
	return buf_detach(&b, NULL);
}

static char *docs_path(void)
{
	const char *base = getenv("TESTDATA");

	assert_non_null(base);
	return path_join(base, "../../docs/rules.md");
}

/* The text between "<!-- rules: NAME -->\n" and "<!-- end -->" in doc, or NULL. */
static const char *block_in(const char *doc, const char *name, size_t *len)
{
	char *open = xstrfmt("<!-- rules: %s -->\n", name);
	const char *p = strstr(doc, open), *end;

	if (p)
		p += strlen(open);
	free(open);
	end = p ? strstr(p, "<!-- end -->") : NULL;
	if (!end)
		return NULL;
	*len = (size_t)(end - p);
	return p;
}

static void test_docs(void **state)
{
	char *path = docs_path(), *doc;
	const struct rule *t;
	const char *at;
	size_t n, i, len;

	(void)state;
	doc = slurp(path);
	if (!doc)
		fail_msg("cannot read %s", path);
	for (i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) {
		char *want = doc_block(i);
		const char *have = block_in(doc, blocks[i], &len);

		if (!have || len != strlen(want) || memcmp(have, want, len))
			fail_msg("docs/rules.md: the %s block is not the table's; run make rules-doc",
				 blocks[i]);
		free(want);
	}
	t = rules_table(&n);
	at = doc;
	for (i = 0; i < n; i++) {
		char *h = xstrfmt("\n### `%s`\n", t[i].name);
		const char *p = strstr(at, h);

		if (!p)
			fail_msg("docs/rules.md: no heading for %s after %s's", t[i].name,
				 i ? t[i - 1].name : "the start");
		at = p + strlen(h);
		free(h);
	}
	free(doc);
	free(path);
}

/* test-rules --write-docs FILE: rewrites the generated blocks of docs/rules.md. */
static int write_docs(const char *path)
{
	char *doc = slurp(path);
	struct buf out = BUF_INIT;
	const char *p;
	size_t i, len;
	FILE *fp;

	if (!doc) {
		fprintf(stderr, "test-rules: cannot read '%s'\n", path);
		return 1;
	}
	for (i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) {
		char *want = doc_block(i);

		p = block_in(doc, blocks[i], &len);
		if (!p) {
			fprintf(stderr, "test-rules: '%s' has no '<!-- rules: %s -->' block\n", path,
				blocks[i]);
			return 1;
		}
		buf_add(&out, doc, (size_t)(p - doc));
		buf_adds(&out, want);
		buf_adds(&out, p + len);
		free(doc);
		doc = buf_detach(&out, NULL);
		free(want);
	}
	fp = fopen(path, "w");
	if (!fp || fputs(doc, fp) == EOF || fclose(fp)) {
		fprintf(stderr, "test-rules: cannot write '%s'\n", path);
		return 1;
	}
	free(doc);
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_rows),
		cmocka_unit_test(test_step_rows),
		cmocka_unit_test(test_rows_cover_the_table),
		cmocka_unit_test(test_actions),
		cmocka_unit_test(test_summaries),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_isa_scope),
		cmocka_unit_test(test_docs),
	};

	if (argc == 3 && !strcmp(argv[1], "--write-docs"))
		return write_docs(argv[2]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
