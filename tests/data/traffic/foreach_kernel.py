import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers, triton_heuristics

@triton_heuristics.foreach(
    num_warps=8,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'out_ptr3': '*fp32', 'out_ptr5': '*fp32'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, warp_size=32), 'constants': {}, 'configs': [{(0,): [['tt.divisibility', 16]]}]},
    inductor_meta={'kernel_name': 'triton_for_fused_1', 'mutated_arg_names': ['in_ptr0', 'in_ptr2', 'in_ptr3', 'in_ptr5', 'out_ptr1', 'out_ptr2', 'out_ptr3', 'out_ptr5']},
)
@triton.jit
def triton_for_fused_1(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, out_ptr2, out_ptr3, out_ptr5):
    pid = tl.program_id(0)
    XBLOCK: tl.constexpr = 1024
    num_xblocks_0 = tl.cdiv(1000, XBLOCK)
    num_xblocks_1 = num_xblocks_0 + tl.cdiv(1, XBLOCK)
    if pid < num_xblocks_0:
        pid_offset = pid
        xnumel = 1000
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x0 = xindex
        tmp0 = tl.load(in_ptr0 + (x0), xmask)
        tmp1 = tl.load(in_ptr1 + (x0), xmask)
        tmp2 = tl.load(in_ptr2 + (x0), xmask)
        tmp3 = tl.load(in_ptr3 + (x0), xmask)
        tmp4 = tl.load(in_ptr4 + (0))
        tmp5 = tl.broadcast_to(tmp4, [XBLOCK])
        tmp6 = tmp0 - tmp5 * tmp2 / tl.sqrt(tmp3)
        tl.store(out_ptr1 + (x0), tmp6, xmask)
        tl.store(out_ptr2 + (x0), tmp2, xmask)
        tl.store(out_ptr3 + (x0), tmp3, xmask)
    elif pid < num_xblocks_1:
        pid_offset = pid - num_xblocks_0
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp7 = tl.load(in_ptr5 + (0))
        tmp8 = tmp7 + 1.0
        tl.store(out_ptr5 + (tl.full([XBLOCK], 0, tl.int32)), tmp8, None)
    else:
        pass
