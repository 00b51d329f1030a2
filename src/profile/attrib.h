/*
 * Where the busy time went: prof_attribute() links each GPU activity to
 * the CPU op that launched it, classifies it, groups it, and shares the
 * profile's busy time among the groups.
 *
 * Linking. An activity carries its launching op's External id (Kineto),
 * else its correlation id is looked up among the launches (runtime API
 * events) for one. The op with that External id is the launching op: for
 * a Triton kernel Inductor launched under the profiler it is the launch
 * op holding kernel_hash/kernel_file/kernel_kwargs; for a library kernel
 * it is the innermost ATen op (aten::mm, aten::_flash_attention_forward).
 * Library kernels are grouped under the outermost ATen op enclosing that
 * op on its thread (aten::_scaled_dot_product_flash_attention, not its
 * inner aten::_flash_attention_forward), the call a model's code or
 * Inductor's wrapper made.
 *
 * Classes (enum prof_class), first that applies: copies and fills by
 * activity kind or name; launched by Inductor's Triton launch op: triton;
 * NCCL/RCCL names: comm; an attention op or kernel name: attention; a
 * name starting "triton_": triton; a matmul op (mm, addmm, bmm, baddbmm,
 * matmul, linear, _scaled_mm, ...) or GEMM kernel name (gemm, cutlass,
 * xmma, nvjet, Cijk_ (Tensile: rocBLAS/hipBLASLt), ...): gemm; else other.
 *
 * Groups: a Triton kernel by (name, kernel hash); anything else by (class,
 * outermost ATen op), or (class, kernel name) when no op launched it.
 *
 * Busy time is the union of all activity intervals. Where activities
 * overlap (several streams), each instant is split evenly among the
 * activities running then, so the groups' busy times add up to the
 * profile's busy time exactly (prof_act.busy). Idle is the span minus
 * busy, without clock jumps (PROF_CLOCK_JUMP_US). A statistics table has
 * no timeline: its busy time is the sum of its totals, and it says so.
 *
 * Steps: user annotations named "ProfilerStep#N" (torch.profiler's step(),
 * which tko's capture calls at each step it detects). An activity belongs
 * to the step whose range holds its launch's CPU time; the step time is
 * the mean distance between the first GPU starts of consecutive steps.
 */
#ifndef TKO_PROFILE_ATTRIB_H
#define TKO_PROFILE_ATTRIB_H

#include "profile/prof.h"

void prof_attribute(struct prof *p);

/* The class a kernel name alone suggests (no op known). */
enum prof_class prof_class_of_name(const char *name);
/* Whether an op name is a matmul / an attention op. */
int prof_op_is_matmul(const char *op);
int prof_op_is_attention(const char *op);

#endif
