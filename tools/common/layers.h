/* SPDX-License-Identifier: MIT */
/* The tools' totals over a TFLite model's layer reports. */
#ifndef __E1NPU_TOOL_COMMON_LAYERS_H__
#define __E1NPU_TOOL_COMMON_LAYERS_H__

#include <stdint.h>

struct e1npu_tflite;

/* struct layer_totals - the sums of the layers' e1npu_ops_report fields. */
struct layer_totals {
	uint64_t wrapper_cycles, dp_cycles, macs, hw_ops, hw_ops_fallback;
};

/* layer_totals_of() - over layers 0 .. @n - 1 of @t (after an invoke). */
void layer_totals_of(const struct e1npu_tflite *t, uint32_t n, struct layer_totals *tot);

#endif
