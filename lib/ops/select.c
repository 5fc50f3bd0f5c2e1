// SPDX-License-Identifier: MIT
/*
 * Engine selection (the hybrid policy). Thresholds: select.h.
 */
#include "select.h"

static struct ops_choice pick(uint32_t engine, uint32_t reason)
{
	struct ops_choice c = { engine, reason };

	return c;
}

/* Apply a forced engine when that engine can run the operation. */
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
	if (forced(ops, ops->wrapper_gemm, ops->datapath, &c))
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
	if (forced(ops, ops->wrapper_gemm, false, &c))
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
	if (forced(ops, ops->wrapper_gemm, ops->datapath, &c))
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
	if (forced(ops, ops->wrapper_gemm && hw_geometry, false, &c))
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
