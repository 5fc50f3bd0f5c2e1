/* SPDX-License-Identifier: MIT */
/*
 * Engine selection: every threshold of the hybrid policy in one place
 * (shared/seeds/hybrid-npu-architecture.md section 2). Documented with the
 * reasoning in Documentation/lowering.md.
 */
#ifndef __E1NPU_OPS_SELECT_H__
#define __E1NPU_OPS_SELECT_H__

#include <stdint.h>

#include "ops_internal.h"

/*
 * GEMM/conv go to the systolic engine when every dimension is at least
 * SEL_T_BIG or the work is at least SEL_BIG_MACS: one 16x16 tile costs a
 * descriptor fetch (32 cycles) plus fill/drain (32) on top of K cycles.
 */
#define SEL_T_BIG		16u
#define SEL_BIG_MACS		(16u * 16u * 16u)
/*
 * Below that the datapath GEMM tile (3x3x7, one MAC per cycle) takes it,
 * up to SEL_DP_MAX_MACS (beyond, even without a systolic engine, the
 * datapath's one MAC per cycle plus a job per 7 tiles loses to the CPU).
 */
#define SEL_DP_MAX_MACS		(64u * 1024u)
/* Element-wise work: the wrapper RELU from this many bytes on. */
#define SEL_RELU_WRAPPER_MIN	1024u
/* Datapath scalar batches (DOT16, FP8, EXP2): most commands per call. */
#define SEL_DP_SCALAR_MAX	(1u << 20)

struct ops_choice {
	uint32_t engine;	/* enum e1npu_engine */
	uint32_t reason;	/* enum e1npu_ops_reason */
};

/* Raw GEMM of m x n x k (int8 operands). */
struct ops_choice sel_gemm(const struct e1npu_ops *ops, uint32_t m,
			   uint32_t n, uint32_t k);
/* Convolution: always systolic when present (it has no datapath form). */
struct ops_choice sel_conv(const struct e1npu_ops *ops);
/* Element-wise relu of @bytes. */
struct ops_choice sel_relu(const struct e1npu_ops *ops, uint64_t bytes);
/* Max pooling (wrapper MAXPOOL_S8 when the geometry fits). */
struct ops_choice sel_maxpool(const struct e1npu_ops *ops, bool hw_geometry);
/* Datapath scalar-opcode work of @count commands. */
struct ops_choice sel_dp_scalar(const struct e1npu_ops *ops, uint64_t count);
/* Operations with no hardware form: CPU. */
struct ops_choice sel_cpu(const struct e1npu_ops *ops);

const char *sel_reason_text(uint32_t reason);

#endif /* __E1NPU_OPS_SELECT_H__ */
