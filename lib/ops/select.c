// SPDX-License-Identifier: MIT
/*
 * Engine selection (the hybrid policy). Thresholds: select.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "select.h"

static struct ops_choice pick(uint32_t engine, uint32_t reason)
{
	struct ops_choice c = { engine, reason };

	return c;
}

/*
 * Apply a forced engine when that engine can take the operation. Forcing
 * the wrapper only needs the wrapper window: without the systolic engine
 * the hardware rejects the operations and libe1npu runs them on the CPU
 * (the fallback contract), which is how the tests exercise that path.
 */
static bool forced(const struct e1npu_ops *ops, bool wrapper_ok, bool dp_ok,
		   struct ops_choice *c)
{
	switch (ops->force) {
	case E1NPU_OPS_FORCE_WRAPPER:
		if (!wrapper_ok)
			return false;
		*c = pick(E1NPU_ENGINE_WRAPPER, E1NPU_OPS_WHY_BIG_GEMM);
		return true;
	case E1NPU_OPS_FORCE_DATAPATH:
		if (!dp_ok)
			return false;
		*c = pick(E1NPU_ENGINE_DATAPATH, E1NPU_OPS_WHY_SMALL_GEMM);
		return true;
	case E1NPU_OPS_FORCE_CPU:
		*c = pick(E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_DEVICE);
		return true;
	default:
		return false;
	}
}

struct ops_choice sel_cpu(const struct e1npu_ops *ops)
{
	return pick(E1NPU_ENGINE_CPU, ops->dev ? E1NPU_OPS_WHY_NO_HW_OP
					       : E1NPU_OPS_WHY_NO_DEVICE);
}

struct ops_choice sel_gemm(const struct e1npu_ops *ops, uint32_t m,
			   uint32_t n, uint32_t k)
{
	uint64_t macs = (uint64_t)m * n * k;
	bool big = (m >= SEL_T_BIG && n >= SEL_T_BIG && k >= SEL_T_BIG) ||
		   macs >= SEL_BIG_MACS;
	struct ops_choice c;

	if (!ops->dev)
		return pick(E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_DEVICE);
	if (forced(ops, ops->wrapper, ops->datapath, &c))
		return c;
	if (ops->wrapper_gemm && (big || !ops->datapath))
		return pick(E1NPU_ENGINE_WRAPPER, E1NPU_OPS_WHY_BIG_GEMM);
	if (ops->datapath && macs <= SEL_DP_MAX_MACS)
		return pick(E1NPU_ENGINE_DATAPATH, E1NPU_OPS_WHY_SMALL_GEMM);
	if (ops->wrapper_gemm)
		return pick(E1NPU_ENGINE_WRAPPER, E1NPU_OPS_WHY_BIG_GEMM);
	return pick(E1NPU_ENGINE_CPU, ops->datapath ? E1NPU_OPS_WHY_TOO_SMALL
						    : E1NPU_OPS_WHY_NO_ENGINE);
}

struct ops_choice sel_conv(const struct e1npu_ops *ops)
{
	struct ops_choice c;

	if (!ops->dev)
		return pick(E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_DEVICE);
	if (forced(ops, ops->wrapper, false, &c))
		return c;
	if (ops->wrapper_gemm)
		return pick(E1NPU_ENGINE_WRAPPER, E1NPU_OPS_WHY_BIG_GEMM);
	return pick(E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_ENGINE);
}

struct ops_choice sel_relu(const struct e1npu_ops *ops, uint64_t bytes)
{
	struct ops_choice c;

	if (!ops->dev)
		return pick(E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_DEVICE);
	if (forced(ops, ops->wrapper, ops->datapath, &c))
		return c;
	if (ops->wrapper_gemm && (bytes >= SEL_RELU_WRAPPER_MIN || !ops->datapath))
		return pick(E1NPU_ENGINE_WRAPPER, E1NPU_OPS_WHY_ELEMENTWISE);
	if (ops->datapath && bytes <= 64u * 255u)
		return pick(E1NPU_ENGINE_DATAPATH, E1NPU_OPS_WHY_ELEMENTWISE);
	if (ops->wrapper_gemm)
		return pick(E1NPU_ENGINE_WRAPPER, E1NPU_OPS_WHY_ELEMENTWISE);
	return pick(E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_ENGINE);
}

struct ops_choice sel_maxpool(const struct e1npu_ops *ops, bool hw_geometry)
{
	struct ops_choice c;

	if (!ops->dev)
		return pick(E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_DEVICE);
	if (forced(ops, ops->wrapper && hw_geometry, false, &c))
		return c;
	if (ops->wrapper_gemm && hw_geometry)
		return pick(E1NPU_ENGINE_WRAPPER, E1NPU_OPS_WHY_ELEMENTWISE);
	return pick(E1NPU_ENGINE_CPU, ops->wrapper_gemm ? E1NPU_OPS_WHY_UNSUPPORTED
							: E1NPU_OPS_WHY_NO_ENGINE);
}

struct ops_choice sel_dp_scalar(const struct e1npu_ops *ops, uint64_t count)
{
	struct ops_choice c;

	if (!ops->dev)
		return pick(E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_DEVICE);
	if (forced(ops, false, ops->datapath, &c))
		return c;
	if (ops->datapath && count <= SEL_DP_SCALAR_MAX)
		return pick(E1NPU_ENGINE_DATAPATH, E1NPU_OPS_WHY_ELEMENTWISE);
	return pick(E1NPU_ENGINE_CPU, ops->datapath ? E1NPU_OPS_WHY_UNSUPPORTED
						    : E1NPU_OPS_WHY_NO_ENGINE);
}

const char *sel_reason_text(uint32_t reason)
{
	switch (reason) {
	case E1NPU_OPS_WHY_BIG_GEMM: return "large GEMM/conv: systolic engine";
	case E1NPU_OPS_WHY_SMALL_GEMM: return "small GEMM: datapath 3x3x7 tile";
	case E1NPU_OPS_WHY_ELEMENTWISE: return "element-wise work the engine has";
	case E1NPU_OPS_WHY_NO_HW_OP: return "no hardware operation computes it";
	case E1NPU_OPS_WHY_NO_ENGINE: return "the engine it needs is absent";
	case E1NPU_OPS_WHY_NO_DEVICE: return "CPU-only context";
	case E1NPU_OPS_WHY_TOO_SMALL: return "too big for the datapath, no systolic engine";
	case E1NPU_OPS_WHY_FALLBACK: return "hardware rejected it, CPU ran it";
	case E1NPU_OPS_WHY_UNSUPPORTED: return "parameters outside every engine";
	default: return "unknown";
	}
}

/* ---------------------------------------------------------------------- */
/* The support table: every operation x engine, with the reason.           */

struct support_rule {
	uint32_t kind;
	const char *wrapper;	/* NULL: supported; else why not */
	const char *datapath;
	const char *cpu;
};

static const struct support_rule rules[] = {
	{ E1NPU_OPS_MATMUL_S8, NULL, NULL, NULL },
	{ E1NPU_OPS_MATMUL_S4, NULL, NULL, NULL },
	{ E1NPU_OPS_MATMUL_S2, NULL, NULL, NULL },
	{ E1NPU_OPS_MATMUL_TERNARY, NULL, NULL, NULL },
	{ E1NPU_OPS_MATMUL_SPARSE_S4, NULL, NULL, NULL },
	{ E1NPU_OPS_MATMUL_FP8, "per-product Q8.8 floor needs DOT4_FP8_E4M3", NULL, NULL },
	{ E1NPU_OPS_MATMUL_FP16, NULL, "no 16-bit product opcode beyond scalar MAC_S16", NULL },
	{ E1NPU_OPS_MATMUL_BF16, NULL, "no 16-bit product opcode beyond scalar MAC_S16", NULL },
	{ E1NPU_OPS_MATMUL_GS_S4, NULL, NULL, NULL },
	{ E1NPU_OPS_BATCH_MATMUL, NULL, NULL, NULL },
	{ E1NPU_OPS_FULLY_CONNECTED, NULL, NULL, NULL },
	{ E1NPU_OPS_CONV2D, NULL, "no convolution form on the datapath", NULL },
	{ E1NPU_OPS_DEPTHWISE_CONV2D, NULL, "no convolution form on the datapath", NULL },
	{ E1NPU_OPS_GROUPED_CONV2D, NULL, "no convolution form on the datapath", NULL },
	{ E1NPU_OPS_MAXPOOL, NULL, "no pooling opcode on the datapath", NULL },
	{ E1NPU_OPS_AVGPOOL, "no average pool (MAXPOOL only, no divider)", "no divider", NULL },
	{ E1NPU_OPS_RELU, NULL, NULL, NULL },
	{ E1NPU_OPS_ADD, "no element-wise add", "ADD has no per-input rescale", NULL },
	{ E1NPU_OPS_BIAS_ADD, "no element-wise add", "scalar ADD per byte is slower than the host", NULL },
	{ E1NPU_OPS_SOFTMAX, "no exp", "EXP2_NEG_Q0_8 is 2^-n only, not TFLite's exp", NULL },
	{ E1NPU_OPS_SOFTMAX_EXP2, "no exp", NULL, NULL },
	{ E1NPU_OPS_RESIDUAL_ADD, "no element-wise add", "scalar ADD per byte is slower than the host", NULL },
	{ E1NPU_OPS_SILU, "no exp", NULL, NULL },
	{ E1NPU_OPS_QUICK_GELU, "no exp", NULL, NULL },
	{ E1NPU_OPS_RMSNORM, "no reduction or reciprocal square root", NULL, NULL },
	{ E1NPU_OPS_ROPE, "no element-wise multiply", NULL, NULL },
	{ E1NPU_OPS_ATTENTION_QK, NULL, NULL, NULL },
	{ E1NPU_OPS_ATTENTION_AV, NULL, NULL, NULL },
	{ E1NPU_OPS_ATTENTION, NULL, NULL, NULL },
	{ E1NPU_OPS_QKV_PROJECTION, NULL, NULL, NULL },
	{ E1NPU_OPS_KV_CACHE_APPEND, "a copy: no compute", "a copy: no compute", NULL },
	{ E1NPU_OPS_DECODE_ATTENTION, NULL, NULL, NULL },
	{ E1NPU_OPS_MLP_RELU, NULL, NULL, NULL },
	{ E1NPU_OPS_SWIGLU, NULL, NULL, NULL },
	{ E1NPU_OPS_TRANSFORMER_BLOCK, NULL, NULL, NULL },
	{ E1NPU_OPS_DECODER_BLOCK, NULL, NULL, NULL },
};

E1NPU_API int e1npu_ops_support_table(struct e1npu_ops *ops,
				      struct e1npu_ops_support *rows,
				      size_t max, size_t *count)
{
	const size_t nr = sizeof(rules) / sizeof(rules[0]);
	static const uint32_t engines[3] = {
		E1NPU_ENGINE_WRAPPER, E1NPU_ENGINE_DATAPATH, E1NPU_ENGINE_CPU,
	};
	size_t n = 0;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !count))
		return -EINVAL;
	*count = nr * 3;
	if (!rows)
		return 0;
	if (max < nr * 3)
		return -ENOSPC;
	for (size_t i = 0; i < nr; i++)
		for (int e = 0; e < 3; e++) {
			struct e1npu_ops_support *r = &rows[n++];
			const char *why = e == 0 ? rules[i].wrapper :
					  e == 1 ? rules[i].datapath : rules[i].cpu;
			bool present = e == 2 || (e == 0 ? ops->wrapper_gemm : ops->datapath);

			memset(r, 0, sizeof(*r));
			r->kind = rules[i].kind;
			r->engine = engines[e];
			snprintf(r->name, sizeof(r->name), "%s", e1npu_ops_kind_name(r->kind));
			if (!why && !present)
				why = !ops->dev ? "CPU-only context" :
				      e == 0 ? "systolic engine absent (CAPS.gemmini_present == 0 or no wrapper)"
					     : "datapath absent";
			r->supported = !why;
			snprintf(r->why, sizeof(r->why), "%s", why ? why : "supported");
		}
	return 0;
}
