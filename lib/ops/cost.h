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

/*
 * A sequence of wrapper descriptors in submission order: @total cycles so
 * far, fetches included; @idle the last descriptor's DMA idle cycles, under
 * which the next one's first load runs when the timing overlaps them
 * (E1_TIMING_G_OVERLAP; the lowerings' inputs never alias the previous
 * output); @store its exposed last store, which runs under the next one's
 * idle cycles (E1_TIMING_G_STORE_OV). Start from all zeros. The device
 * also drains its ring between jobs (no overlap there): the estimate
 * ignores job boundaries.
 */
struct ops_cost_seq {
	uint64_t total;
	uint64_t idle;
	uint64_t store;
};

/*
 * ops_cost_seq_repeat() - append @count copies of what @step(@arg, seq)
 * appends (one descriptor or a fixed run of them). The first three are
 * run; from the third on each starts from the same state, so the rest
 * add the third one's cycles and are counted, not run.
 */
void ops_cost_seq_repeat(struct ops_cost_seq *seq, uint64_t count,
			 void (*step)(void *arg, struct ops_cost_seq *seq), void *arg);

/* Append @count MATMUL_S8 descriptors of [m x k] by [k x n]. */
void ops_cost_seq_matmul(const struct e1npu_ops *ops, struct ops_cost_seq *seq,
			 uint32_t m, uint32_t n, uint32_t k, uint64_t count);

/* Append one CONV2D_S8 descriptor (tile with its halo). */
void ops_cost_seq_conv(const struct e1npu_ops *ops, struct ops_cost_seq *seq,
		       uint32_t in_h, uint32_t in_w, uint32_t c_in, uint32_t c_out,
		       uint32_t ksz, uint32_t out_h, uint32_t out_w);

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
	OPS_LOWERING_PACKED,
};

int ops_lowering_from_env(enum ops_lowering *out);

#endif /* __E1NPU_OPS_COST_H__ */
