/* SPDX-License-Identifier: MIT */
/*
 * 8-bit unary operators as one 256-entry table, filled at load and looked
 * up per element: LOGISTIC and TANH as TFLite 2.2's default (generic
 * optimized) kernels form their table (activations.cc, PopulateLookupTable:
 * dequantize in float, f in float, round to the output), and LEAKY_RELU,
 * whose 2.2 uint8 arithmetic is a function of the input byte alone
 * (tflite_leaky.c). Documentation/quantization.md, "LOGISTIC, TANH".
 */
#ifndef E1NPU_TFLITE_LUT_H
#define E1NPU_TFLITE_LUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu_ops.h>

struct tfl_lut {
	size_t count;
	uint8_t table[256];	/* indexed by the input's stored byte */
};

/*
 * LOGISTIC (1 / (1 + expf(-x))): 0, or -EINVAL when the output scale is
 * not exactly 1/256 (TFLite 2.2's one condition on its table path).
 */
int tfl_lut_logistic(struct tfl_lut *l, bool uint8, size_t count,
		     struct e1npu_qparams qi, struct e1npu_qparams qo);

/* TANH (tanhf): any scales (2.2's table path checks none). */
void tfl_lut_tanh(struct tfl_lut *l, bool uint8, size_t count,
		  struct e1npu_qparams qi, struct e1npu_qparams qo);

void tfl_lut_run(const struct tfl_lut *l, const void *in, void *out);

#endif
