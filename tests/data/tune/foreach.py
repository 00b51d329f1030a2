# tests/data/tune: a foreach kernel as torch 2.11's Inductor writes one (two SGD updates,
# p -= 0.01 * g, of a 1M and a 256K fp32 parameter, in place). Written by hand from the
# code that generates it, because no foreach kernel was captured yet: torch/_inductor/codegen/
# triton_combo_kernel.py (ComboKernel.codegen_kernel without autotuning: the
# triton_heuristics.foreach decorator, `pid = tl.program_id(0)`, codegen_blocks's
# `XBLOCK: tl.constexpr = 1024`, SequentialDispatch.codegen_pid_range's num_xblocks_N
# chain and `if pid < num_xblocks_0:` branches, combo_grid_meta's default_config) and
# jit_line's triton_meta/inductor_meta keys, with the values of the H200 run's kernels.

import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.foreach(
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'out_ptr1': '*fp32', 'out_ptr3': '*fp32'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'SequentialComboKernelGrid', 'combo_grid_meta': {'num_kernels': 2, 'min_blocks': 0, 'default_config': {'XBLOCK': 1024}, 'no_x_dim_0': False, 'xnumel_0': 1048576, 'no_x_dim_1': False, 'xnumel_1': 262144}, 'kernel_name': 'triton_for_fused_0', 'mutated_arg_names': ['in_ptr0', 'in_ptr2', 'out_ptr1', 'out_ptr3'], 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False},
)
@triton.jit
def triton_for_fused_0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr1, out_ptr3):
    pid = tl.program_id(0)
    XBLOCK: tl.constexpr = 1024
    num_xblocks_0 = tl.cdiv(1048576, XBLOCK)
    num_xblocks_1 = num_xblocks_0 + tl.cdiv(262144, XBLOCK)
    if pid < num_xblocks_0:
        pid_offset = pid
        xnumel = 1048576
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = tl.full([XBLOCK], True, tl.int1)
        x0 = xindex
        tmp0 = tl.load(in_ptr0 + (x0), None)
        tmp1 = tl.load(in_ptr1 + (x0), None)
        tmp2 = 0.01
        tmp3 = tmp1 * tmp2
        tmp4 = tmp0 - tmp3
        tl.store(out_ptr1 + (x0), tmp4, None)
    elif pid < num_xblocks_1:
        pid_offset = pid - num_xblocks_0
        xnumel = 262144
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = tl.full([XBLOCK], True, tl.int1)
        x1 = xindex
        tmp5 = tl.load(in_ptr2 + (x1), None)
        tmp6 = tl.load(in_ptr3 + (x1), None)
        tmp7 = 0.01
        tmp8 = tmp6 * tmp7
        tmp9 = tmp5 - tmp8
        tl.store(out_ptr3 + (x1), tmp9, None)
    else:
        pass
