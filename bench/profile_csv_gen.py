"""Writes a large rocprofv3 kernel_trace.csv for `bench/profile_csv.sh`.

The columns and their order are those of rocprofv3's --kernel-trace output
(tests/data/profile/rocprofv3-jacobi_kernel_trace.csv), every field quoted as
rocprofv3 quotes it; the kernel names are what a torch.compile'd model
launches on an AMD GPU (Triton kernels, a Tensile GEMM, ROCclr copies and
fills, an ATen kernel with a long C++ name). Dispatches follow each other on
one agent with 500 ns between them, so the busy time is the sum of the
durations.

It prints the figures a reader must reproduce (rows, busy time in us),
computed here from what it wrote, as one JSON line on stderr:

    python3 bench/profile_csv_gen.py --rows 2000000 --out /tmp/kernel_trace.csv
"""
import argparse
import json
import sys

NAMES = ["triton_poi_fused_add_%d" % i for i in range(40)] + \
        ["triton_red_fused__softmax_%d" % i for i in range(20)] + [
    "Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_1LDSB0_AFC1_AFEM1_ASEM1_CLR1_CADS0_EPS1_"
    "GRVW8_GSU1_ISA942",
    "__amd_rocclr_copyBuffer",
    "__amd_rocclr_fillBufferAligned",
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
    "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)",
]
HEADER = ('"Kind","Agent_Id","Queue_Id","Thread_Id","Dispatch_Id","Kernel_Id","Kernel_Name",'
          '"Correlation_Id","Start_Timestamp","End_Timestamp","Private_Segment_Size",'
          '"Group_Segment_Size","Workgroup_Size_X","Workgroup_Size_Y","Workgroup_Size_Z",'
          '"Grid_Size_X","Grid_Size_Y","Grid_Size_Z"\n')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=2000000)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    t = 4484384343929154        # ns, as rocprofv3's clock reads on the Jacobi run
    busy_ns = 0
    with open(args.out, "w") as out:
        out.write(HEADER)
        chunk = []
        for i in range(args.rows):
            k = (i * 7919) % len(NAMES)
            dur = 2000 + (i * 31) % 40000
            chunk.append('"KERNEL_DISPATCH","%d","%d","252734","%d","%d","%s","%d","%d","%d",'
                         '"0","%d","256","1","1","%d","1","1"\n'
                         % (8, 1 + i % 4, i + 1, k, NAMES[k], i + 15, t, t + dur,
                            1024 * (i % 3), 256 * (1 + i % 1024)))
            busy_ns += dur
            t += dur + 500
            if len(chunk) == 10000:
                out.write("".join(chunk))
                chunk = []
        out.write("".join(chunk))
    json.dump({"rows": args.rows, "busy_us": busy_ns / 1e3}, sys.stderr)
    sys.stderr.write("\n")


if __name__ == "__main__":
    main()
