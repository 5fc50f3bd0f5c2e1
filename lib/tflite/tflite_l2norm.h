/* SPDX-License-Identifier: MIT */
/*
 * Quantized L2_NORMALIZATION over the last dimension as TFLite 2.2's
 * built-in kernel (l2norm.cc): the sum of squared (x - zp) in int32, its
 * inverse square root as a fixed-point multiplier (GetInvSqrtQuantized-
 * MultiplierExp: five Newton-Raphson steps in Q3.28), then uint8:
 * 128 + (128 (x - zp)) x that multiplier, int8: (x - zp) x it x 2^7, each
 * clamped. The output is fixed at scale 1/128, zero point 128 (uint8) or
 * 0 (int8). Documentation/quantization.md, "L2_NORMALIZATION".
 */
#ifndef E1NPU_TFLITE_L2NORM_H
#define E1NPU_TFLITE_L2NORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tfl_l2norm {
	bool uint8;
	size_t outer, depth;
	int32_t in_zp;
};

/*
 * TFLite's GetInvSqrtQuantizedMultiplierExp with reverse_shift -1: 1 /
 * sqrt(@x) as @mult x 2^@shift (@shift <= 0); @x <= 1 gives INT32_MAX, 0.
 */
void tfl_inv_sqrt_multiplier(int32_t x, int32_t *mult, int *shift);

void tfl_l2norm_run(const struct tfl_l2norm *n, const void *in, void *out);

#endif
