/* SPDX-License-Identifier: MIT */
/*
 * Quantized LEAKY_RELU as TFLite 2.2's built-in kernel runs it: uint8
 * only (2.2 refuses int8), alpha quantized on the input's scale and zero
 * point, inputs at or above the zero point copied unchanged (no rescale),
 * the others (x - zp) * (q_alpha - zp) requantized by s_in * s_in / s_out
 * (float products, QuantizeMultiplierSmallerThanOneExp). A function of
 * the input byte alone: it fills a tflite_lut.h table.
 * Documentation/quantization.md, "LEAKY_RELU".
 */
#ifndef E1NPU_TFLITE_LEAKY_H
#define E1NPU_TFLITE_LEAKY_H

#include <stddef.h>

#include "tflite_lut.h"

/*
 * 0; -EDOM when alpha is not finite; -ERANGE when s_in * s_in / s_out is
 * not below 1 (TFLite 2.2 aborts on it).
 */
int tfl_leaky_prepare(struct tfl_lut *l, size_t count, float alpha,
		      struct e1npu_qparams qi, struct e1npu_qparams qo);

/* TFLite 2.2's q_alpha: clamp(round(zp_in + alpha / s_in), 0, 255) in float. */
int32_t tfl_leaky_q_alpha(float alpha, struct e1npu_qparams qi);

#endif
