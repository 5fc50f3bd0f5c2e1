// SPDX-License-Identifier: MIT
/*
 * names.c - the words for operation kinds and engine-choice reasons
 * (e1npu_ops_kind_name(), e1npu_ops_reason_name()). Kept apart from the
 * executor so that whoever prints a report (the trace, the tools) depends
 * on these tables only, not on the code that runs the operations.
 */
#include <e1npu/e1npu_ops.h>

#include "internal.h"

static const char *const kind_names[E1NPU_OPS_KIND_COUNT] = {
	[E1NPU_OPS_MATMUL_S8] = "matmul_s8",
	[E1NPU_OPS_MATMUL_S4] = "matmul_s4",
	[E1NPU_OPS_MATMUL_S2] = "matmul_s2",
	[E1NPU_OPS_MATMUL_TERNARY] = "matmul_ternary",
	[E1NPU_OPS_MATMUL_SPARSE_S4] = "matmul_sparse_s4_2_4",
	[E1NPU_OPS_MATMUL_FP8] = "matmul_fp8_e4m3",
	[E1NPU_OPS_MATMUL_FP16] = "matmul_fp16_q8_8",
	[E1NPU_OPS_MATMUL_BF16] = "matmul_bf16_q8_8",
	[E1NPU_OPS_MATMUL_GS_S4] = "matmul_group_scaled_s4",
	[E1NPU_OPS_BATCH_MATMUL] = "batch_matmul_s8",
	[E1NPU_OPS_FULLY_CONNECTED] = "fully_connected",
	[E1NPU_OPS_CONV2D] = "conv2d",
	[E1NPU_OPS_DEPTHWISE_CONV2D] = "depthwise_conv2d",
	[E1NPU_OPS_GROUPED_CONV2D] = "grouped_conv2d",
	[E1NPU_OPS_MAXPOOL] = "max_pool_2d",
	[E1NPU_OPS_AVGPOOL] = "average_pool_2d",
	[E1NPU_OPS_RELU] = "relu",
	[E1NPU_OPS_ADD] = "add",
	[E1NPU_OPS_BIAS_ADD] = "bias_add",
	[E1NPU_OPS_SOFTMAX] = "softmax",
	[E1NPU_OPS_SOFTMAX_EXP2] = "softmax_exp2",
	[E1NPU_OPS_RESIDUAL_ADD] = "residual_add",
	[E1NPU_OPS_SILU] = "silu_exp2",
	[E1NPU_OPS_QUICK_GELU] = "quick_gelu_exp2",
	[E1NPU_OPS_RMSNORM] = "rms_norm",
	[E1NPU_OPS_ROPE] = "rope",
	[E1NPU_OPS_ATTENTION_QK] = "attention_qk",
	[E1NPU_OPS_ATTENTION_AV] = "attention_av",
	[E1NPU_OPS_ATTENTION] = "attention",
	[E1NPU_OPS_QKV_PROJECTION] = "qkv_projection",
	[E1NPU_OPS_KV_CACHE_APPEND] = "kv_cache_append",
	[E1NPU_OPS_DECODE_ATTENTION] = "decode_attention",
	[E1NPU_OPS_MLP_RELU] = "mlp_relu",
	[E1NPU_OPS_SWIGLU] = "swiglu",
	[E1NPU_OPS_TRANSFORMER_BLOCK] = "transformer_block",
	[E1NPU_OPS_DECODER_BLOCK] = "decoder_block",
};

E1NPU_API const char *e1npu_ops_kind_name(uint32_t kind)
{
	if (kind < E1NPU_OPS_KIND_COUNT && kind_names[kind])
		return kind_names[kind];
	return "unknown";
}

static const char *const reason_names[] = {
	[E1NPU_OPS_WHY_BIG_GEMM] = "big_gemm",
	[E1NPU_OPS_WHY_SMALL_GEMM] = "small_gemm",
	[E1NPU_OPS_WHY_ELEMENTWISE] = "elementwise",
	[E1NPU_OPS_WHY_NO_HW_OP] = "no_hw_op",
	[E1NPU_OPS_WHY_NO_ENGINE] = "no_engine",
	[E1NPU_OPS_WHY_NO_DEVICE] = "no_device",
	[E1NPU_OPS_WHY_TOO_SMALL] = "too_small",
	[E1NPU_OPS_WHY_FALLBACK] = "fallback",
	[E1NPU_OPS_WHY_UNSUPPORTED] = "unsupported",
};

E1NPU_API const char *e1npu_ops_reason_name(uint32_t reason)
{
	if (reason < sizeof(reason_names) / sizeof(reason_names[0]) && reason_names[reason])
		return reason_names[reason];
	return "unknown";
}
