/* SPDX-License-Identifier: MIT */
/*
 * Quantized LEAKY_RELU as TFLite 2.2's built-in kernel runs it: uint8
 * only (2.2 refuses int8), alpha quantized on the input's scale and zero
 * point, inputs at or above the zero point copied unchanged (no rescale),
 * the others (x - zp) * (q_alpha - zp) requantized by s_in * s_in / s_out
 * (float products, QuantizeMultiplierSmallerThanOneExp). A function of
 * the input byte alone: it fills a tflite_lut.h table.
 * Documentation/quantization.md, "LEAKY_RELU".
 *
 * TFLite 2.14 (reference_ops::QuantizeLeakyRelu) rescales both sides:
 * zp_out + MultiplyByQuantizedMultiplier(x - zp_in, m, e), m, e from
 * QuantizeMultiplier of s_in / s_out (x at or above the zero point) or of
 * s_in * alpha / s_out (below it), each quotient in float.
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

/*
 * TFLite 2.14's: 0; -EDOM when alpha is not finite; -ERANGE when alpha is
 * negative or a multiplier is not representable.
 */
int tfl_leaky_prepare_2_14(struct tfl_lut *l, size_t count, float alpha,
			   struct e1npu_qparams qi, struct e1npu_qparams qo);

/* TFLite 2.2's q_alpha: clamp(round(zp_in + alpha / s_in), 0, 255) in float. */
int32_t tfl_leaky_q_alpha(float alpha, struct e1npu_qparams qi);

#endif
