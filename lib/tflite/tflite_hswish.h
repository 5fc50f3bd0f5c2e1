/* SPDX-License-Identifier: MIT */
/*
 * Quantized HARD_SWISH (uint8, int8) as TFLite 2.2's reference kernel:
 * 16-bit fixed point, the input on a "hires" scale (x 128), a relu-ish
 * factor in [0, 1] from a saturating rescale of [-3, 3], a non-rounding
 * doubling high multiply, then the output shift (Documentation/
 * quantization.md, "HARD_SWISH").
 */
#ifndef E1NPU_TFLITE_HSWISH_H
#define E1NPU_TFLITE_HSWISH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu_ops.h>

struct tfl_hswish {
	bool uint8;
	size_t count;
	int32_t in_zp, out_zp;
	int16_t out_mult, relu_mult;	/* int16 fixed-point multipliers */
	int out_exp, relu_exp;		/* their exponents (out_exp <= 0) */
};

/* 0, or -EINVAL when TFLite would refuse the scales (output exponent > 0). */
int tfl_hswish_prepare(struct tfl_hswish *h, bool uint8, size_t count,
		       struct e1npu_qparams qi, struct e1npu_qparams qo);

void tfl_hswish_run(const struct tfl_hswish *h, const void *in, void *out);

#endif
