/* SPDX-License-Identifier: MIT */
/*
 * CONCATENATION of uint8/int8 tensors as TFLite 2.2's concatenation.cc:
 * an input quantized as the output is copied; a uint8 input quantized
 * otherwise is rescaled in float, ConcatenationWithScaling's
 * round(x * s_in / s_out - zp_in * that) + zp_out (Documentation/
 * quantization.md, "CONCATENATION"). int8 inputs must share the output's
 * quantization, as TFLite 2.2 requires.
 */
#ifndef E1NPU_TFLITE_CONCAT_H
#define E1NPU_TFLITE_CONCAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu_ops.h>

#define TFL_CONCAT_MAX	16

struct tfl_concat {
	uint32_t n;
	size_t outer;			/* output elements before the axis */
	size_t inner[TFL_CONCAT_MAX];	/* each input's elements from the axis on */
	bool copy[TFL_CONCAT_MAX];	/* quantized as the output */
	float scale[TFL_CONCAT_MAX], bias[TFL_CONCAT_MAX];
	int32_t zo;
};

/*
 * @outer: the product of the output's dimensions before the axis;
 * @inner: per input, the product of its dimensions from the axis on.
 * 0, or -ENOTSUP for int8 inputs quantized unlike the output.
 */
int tfl_concat_prepare(struct tfl_concat *c, bool uint8, uint32_t n, size_t outer,
		       const size_t *inner, const struct e1npu_qparams *qi,
		       struct e1npu_qparams qo);

void tfl_concat_run(const struct tfl_concat *c, const uint8_t *const *in, uint8_t *out);

#endif
