/* SPDX-License-Identifier: MIT */
/*
 * Quantized RELU, RELU6 and RELU_N1_TO_1 as TFLite 2.2's built-in kernel
 * runs them (activations.cc, QuantizedReluX): the input rescaled to the
 * output's quantization, then clamped to the activation's range in it
 * (Documentation/quantization.md, "RELU").
 */
#ifndef E1NPU_TFLITE_RELU_H
#define E1NPU_TFLITE_RELU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu_ops.h>

struct tfl_relu {
	bool uint8;
	size_t count;
	int32_t in_zp, out_zp, lo, hi, mult;
	int shift;
};

/* @code: TFL_OP_RELU, TFL_OP_RELU6 or TFL_OP_RELU_N1_TO_1. 0 or -EINVAL. */
int tfl_relu_prepare(struct tfl_relu *r, int32_t code, bool uint8, size_t count,
		     struct e1npu_qparams qi, struct e1npu_qparams qo);

void tfl_relu_run(const struct tfl_relu *r, const void *in, void *out);

#endif
