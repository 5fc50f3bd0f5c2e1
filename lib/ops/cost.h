/* SPDX-License-Identifier: MIT */
/*
 * The lowering layer's cost model: modelled wrapper cycles of the
 * descriptors a lowering would emit, from the device's timing parameters
 * (the in-process model's own, or the reference values), so a layer's
 * lowering can be chosen before anything runs. Same formulas as the
 * device model (model/e1_timing.c): the model and the choice agree.
 */
#ifndef __E1NPU_OPS_COST_H__
#define __E1NPU_OPS_COST_H__

#include <stdint.h>

#include "ops_internal.h"

/* One MATMUL_S8 descriptor of [m x k] by [k x n], fetch included. */
uint64_t ops_cost_matmul(const struct e1npu_ops *ops, uint32_t m, uint32_t n,
			 uint32_t k);

/* One CONV2D_S8 descriptor (tile with its halo), fetch included. */
uint64_t ops_cost_conv(const struct e1npu_ops *ops, uint32_t in_h, uint32_t in_w,
		       uint32_t c_in, uint32_t c_out, uint32_t ksz,
		       uint32_t out_h, uint32_t out_w);

/*
 * Which convolution form a context uses (E1NPU_OPS_LOWERING): "auto"
 * (default) picks per layer by modelled cycles; "conv2d" keeps CONV2D_S8;
 * "matmul" takes the patch-Toeplitz MATMUL form wherever it fits (tests);
 * "first" is the first lowering exactly (CONV2D_S8 with the input sums of
 * uint8 models in all-ones array columns), for before/after measurements.
 * -EINVAL for any other value.
 */
enum ops_lowering {
	OPS_LOWERING_AUTO,
	OPS_LOWERING_CONV2D,
	OPS_LOWERING_MATMUL,
	OPS_LOWERING_FIRST,
};

int ops_lowering_from_env(enum ops_lowering *out);

#endif /* __E1NPU_OPS_COST_H__ */
